/**
 * git_status, git_diff, ws_todo and ws_skill in the registry: registered after ws_test in card
 * order, read-only, and each with a JSON schema for the model whose properties include every
 * alias target.
 */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CODING_TOOLS } from './index.ts';
import { gitStatus } from './git_status.ts';
import { gitDiff } from './git_diff.ts';
import { wsTodo } from './ws_todo.ts';
import { wsSkill } from './ws_skill.ts';

const MINE = [gitStatus, gitDiff, wsTodo, wsSkill];

describe('git_status, git_diff, ws_todo, ws_skill in the registry', () => {
  it('are registered in card order, after ws_grep (and ws_shell, ws_test when present)', () => {
    const names = CODING_TOOLS.map((t) => t.name);
    const order = ['ws_grep', 'ws_shell', 'ws_test', 'git_status', 'git_diff', 'ws_todo', 'ws_skill'].filter((n) =>
      names.includes(n),
    );
    expect(names.filter((n) => order.includes(n))).toEqual(order);
    for (const t of MINE) expect(CODING_TOOLS).toContain(t);
  });

  it.each(MINE.map((t) => [t.name, t] as const))(
    '%s is read-only with an object JSON schema covering its aliases',
    (_n, tool) => {
      expect(tool.writes).toBe(false);
      expect(tool.summary.length).toBeGreaterThan(10);
      const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as {
        type?: string;
        properties?: Record<string, unknown>;
      };
      expect(schema.type).toBe('object');
      for (const canonical of Object.values(tool.aliases ?? {}))
        expect(Object.keys(schema.properties ?? {})).toContain(canonical);
    },
  );
});
