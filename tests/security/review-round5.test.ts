/**
 * Round-5 review findings, kept as regression tests through the real CLI, judged by effects.
 *
 * Glob patterns from the model are matched in linear time: picomatch's backtracking expression
 * for `*a*a*…*b` against a long name ran for minutes synchronously, so `slm batch` (and the tab's
 * engine, and a replayed session) never answered and no timeout could end it.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanup, runCli, tempRoot } from '../cli/cli-process.ts';

afterAll(cleanup);

/** Long enough that the backtracking matcher would not finish in any test's lifetime. */
const KILL_AFTER_MS = 60_000;

describe('glob patterns are matched in bounded time', () => {
  it('ws_glob and ws_grep glob= answer a many-star pattern beside a long name', async () => {
    const root = await tempRoot();
    await writeFile(join(root, 'a'.repeat(120)), 'needle\n');
    const stars = '*a'.repeat(12);
    const lines = [
      { root, tool: 'ws_glob', args: { pattern: `${stars}*b` } },
      { root, tool: 'ws_glob', args: { pattern: `${stars}*` } },
      { root, tool: 'ws_grep', args: { pattern: 'needle', glob: `${stars}*b` } },
      { root, tool: 'ws_grep', args: { pattern: 'needle', glob: `**/${stars}*` } },
    ];
    const started = Date.now();
    const r = await runCli(['batch'], lines.map((l) => JSON.stringify(l)).join('\n') + '\n', undefined, KILL_AFTER_MS);
    expect(r.code, `slm batch was killed after ${Date.now() - started} ms: ${r.stderr}`).toBe(0);
    const out = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { ok: boolean; text: string });
    expect(out.map((o) => o.text.split('\n')[0])).toEqual([
      expect.stringMatching(/^No files match/),
      '1 match for "' + `${stars}*` + '" in the project:',
      expect.stringMatching(/^No matches for "needle"/),
      expect.stringMatching(/^1 hit in 1 file for "needle"/),
    ]);
  }, 120_000);
});
