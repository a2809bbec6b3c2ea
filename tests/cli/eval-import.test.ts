/**
 * `slm eval import exercism` through the real CLI on a track written for these tests
 * (tests/fixtures/exercism-track: four JavaScript exercises with Jest-style specs, two Python
 * ones with unittest, one folder without its config, one in a language tasks cannot be in).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { taskSchema } from '../../src/eval/task.ts';
import { cleanup, runCli, tempRoot } from './cli-process.ts';

const TRACK = 'tests/fixtures/exercism-track';

afterAll(cleanup);

describe('slm eval import exercism', () => {
  it('imports every exercise it can read, says why for each it cannot, and exits 1 for those', async () => {
    const out = join(await tempRoot(), 'suite');
    const run = await runCli(['eval', 'import', 'exercism', TRACK, '--out', out]);
    expect(run.code, run.stderr).toBe(1);
    expect(run.stdout).toContain(
      `imported 6 exercise(s) into ${out}: async-inventory (javascript), clamp-range (python), initials (javascript), shopping-cart (javascript), sum-of-digits (javascript), vowel-count (python)`,
    );
    expect(run.stdout).toContain('could not import in-go: the solution hello.go is in a language tasks cannot be in');
    expect(run.stdout).toContain('could not import no-meta: no .meta/config.json');
    const names = (await readdir(out)).sort();
    expect(names).toEqual([
      'async-inventory.task.json',
      'clamp-range.task.json',
      'initials.task.json',
      'shopping-cart.task.json',
      'sum-of-digits.task.json',
      'vowel-count.task.json',
    ]);
    for (const name of names) taskSchema.parse(JSON.parse(await readFile(join(out, name), 'utf8')));
    const sum = taskSchema.parse(JSON.parse(await readFile(join(out, 'sum-of-digits.task.json'), 'utf8')));
    expect(sum.statement).toContain('`not a whole number`'); // the appendix follows the instructions
    expect(sum.files['sum-of-digits.spec.js']).not.toMatch(/\bxtest\(/);
  }, 60_000);

  it('keeps one language with --language, and refuses a bad command line', async () => {
    const out = join(await tempRoot(), 'py');
    const run = await runCli(['eval', 'import', 'exercism', TRACK, '--out', out, '--language', 'python']);
    expect(run.stdout).toContain('imported 2 exercise(s)');
    expect(run.stdout).toContain('left out 4 exercise(s) in other languages than python');
    const bad = await runCli(['eval', 'import', 'exercism', TRACK, '--out', out, '--language', 'cobol']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('--language must be one of javascript, typescript, python, not "cobol"');
    const noFormat = await runCli(['eval', 'import', TRACK, '--out', out]);
    expect(noFormat.code).toBe(2);
    expect(noFormat.stderr).toContain('the format to import from comes first: exercism');
  }, 90_000);
});
