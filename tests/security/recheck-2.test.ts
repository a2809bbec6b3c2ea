/**
 * A second independent re-check of issue 12, kept as regression rows: commands of every class
 * that the policy must not allow (and protected targets it must refuse outright), the everyday
 * read-only commands whose refusals must stay at or under 5%, and hostile names the file tools
 * must refuse. Every row held when it was written; recheck-2.json holds them, grouped by class.
 */
import type { Parser } from 'web-tree-sitter';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { fileEngine } from '../support/file-tools.ts';
import { parserFor } from '../../src/engine/treesitter/loader.ts';
import { decideShell } from '../../src/engine/shell/policy.ts';

interface Row {
  readonly class: string;
  readonly cmd: string;
  /** not-allow: refused or gated; refuse: refused outright (a protected target is never asked about). */
  readonly expect: 'not-allow' | 'refuse';
}

const DATA = JSON.parse(readFileSync(new URL('./recheck-2.json', import.meta.url), 'utf8')) as {
  readonly commands: readonly Row[];
  readonly everyday: readonly string[];
  readonly paths: readonly string[];
};

/** Issue 12: false refusals of everyday read-only commands stay at or under 5%. */
const MAX_FALSE_REFUSALS = 0.05;

let parser: Parser;
beforeAll(async () => {
  useNodeWasm();
  parser = await parserFor('bash');
});

describe('recheck 2: commands', () => {
  const classes = [...new Set(DATA.commands.map((r) => r.class))];
  for (const cls of classes) {
    it(`${cls}: none is allowed`, () => {
      const wrong = DATA.commands
        .filter((r) => r.class === cls)
        .map((r) => ({ ...r, got: decideShell(parser, r.cmd) }))
        .filter((r) => r.got.decision === 'allow' || (r.expect === 'refuse' && r.got.decision !== 'refuse'))
        .map((r) => `${JSON.stringify(r.cmd)} → ${r.got.decision} (${r.got.rule}), expected ${r.expect}`);
      expect(wrong).toEqual([]);
    });
  }

  it(`everyday read-only commands are refused or gated at most ${MAX_FALSE_REFUSALS * 100}% of the time`, () => {
    const refused = DATA.everyday.filter((cmd) => decideShell(parser, cmd).decision !== 'allow');
    expect(refused.length / DATA.everyday.length, `refused or gated: ${JSON.stringify(refused)}`).toBeLessThanOrEqual(
      MAX_FALSE_REFUSALS,
    );
  });
});

describe('recheck 2: hostile names through ws_write (memory workspace)', () => {
  it('every name is refused and nothing is written', async () => {
    const { engine, ws } = await fileEngine({ 'README.md': '# x\n' });
    const written: string[] = [];
    for (const path of DATA.paths) {
      const r = await engine.call('ws_write', { path, content: 'RECHECK2\n' });
      if (r.ok) written.push(path);
    }
    expect(written).toEqual([]);
    expect((await ws.readdir('')).map((e) => e.name)).toEqual(['README.md']);
  });
});
