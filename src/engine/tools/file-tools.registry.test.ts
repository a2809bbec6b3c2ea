import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { CODING_TOOLS } from './index.ts';
import { FILE_TOOLS } from '../../../tests/support/file-tools.ts';

/** The prompt's card order for the whole set; the file tools must keep their places in it. */
const CARD_ORDER = [
  'ws_read',
  'ws_write',
  'ws_edit',
  'ws_replace_lines',
  'ws_patch',
  'ws_mv',
  'ws_delete',
  'ws_list',
  'ws_glob',
  'ws_grep',
  'ws_shell',
];

describe('file tools in the registry', () => {
  it('are all registered, in card order', () => {
    const names = CODING_TOOLS.map((t) => t.name);
    const mine = FILE_TOOLS.map((t) => t.name);
    for (const n of mine) expect(names).toContain(n);
    const positions = names.filter((n) => CARD_ORDER.includes(n)).map((n) => CARD_ORDER.indexOf(n));
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it.each(FILE_TOOLS.map((t) => [t.name, t] as const))(
    '%s has a summary, a writes flag and a JSON schema for the model',
    (_n, tool) => {
      expect(tool.summary.length).toBeGreaterThan(10);
      expect(tool.writes).toBe(['ws_write', 'ws_replace_lines', 'ws_mv', 'ws_delete'].includes(tool.name));
      const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as {
        type?: string;
        properties?: Record<string, unknown>;
      };
      expect(schema.type).toBe('object');
      expect(Object.keys(schema.properties ?? {}).length).toBeGreaterThan(0);
      for (const canonical of Object.values(tool.aliases ?? {}))
        expect(Object.keys(schema.properties ?? {})).toContain(canonical);
    },
  );
});
