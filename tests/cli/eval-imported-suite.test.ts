/**
 * An imported benchmark through the real CLI, end to end: `slm eval import exercism` on the
 * track written for these tests (tests/fixtures/exercism-track: four JavaScript exercises with
 * Jest-style specs, extensionless imports and skipped tests, two Python ones with unittest),
 * then `slm eval` on the suite it wrote. The reference model (each task's example solution
 * applied) passes at least 95% with no infrastructure failure — the Jest specs run in the
 * Jest-style runner on this Node host, the Python ones in this machine's python3, both inside
 * bubblewrap — and a model that only answers `done` passes none. Two shards merged hold the
 * same graded runs as the eval run whole.
 */
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResults, type EvalResults } from '../../src/eval/results-schema.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { hostPython } from '../../src/workspace/node/host-python.ts';
import { cleanup, runCli, tempRoot, type CliRun } from './cli-process.ts';

const probed = await probeHostSandbox();
const ready = 'kind' in probed && hostPython() !== null;
if (!ready)
  console.log(
    `imported-suite eval skipped: it needs bubblewrap and python3 (${'why' in probed ? probed.why : 'no python3 on this machine'})`,
  );

const TRACK = 'tests/fixtures/exercism-track';

async function results(out: string): Promise<EvalResults> {
  const checked = checkResults(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
  if (!checked.ok) throw new Error(checked.text);
  return checked.results;
}

/** What a run's grading decided, without its timing. */
const outcome = (r: EvalResults) => r.runs.map((x) => [x.task, x.arm, x.seed, x.passed, x.failure, x.steps]);

afterAll(cleanup);

describe.skipIf(!ready)('slm eval on an imported Exercism-layout suite', () => {
  let dir: string;
  let suite: string;
  const evalArgs = (model: string, out: string, ...extra: string[]) => [
    'eval',
    '--suite',
    suite,
    '--model',
    model,
    '--arms',
    'on',
    '--out',
    join(dir, out),
    ...extra,
  ];
  let runs: Record<'whole' | 's1' | 's2' | 'done', CliRun>;

  beforeAll(async () => {
    dir = await tempRoot();
    suite = join(dir, 'suite');
    const imported = await runCli(['eval', 'import', 'exercism', TRACK, '--out', suite]);
    expect(imported.stdout).toContain('imported 6 exercise(s)');
    const script = join(dir, 'done.json');
    await writeFile(script, JSON.stringify(['{"tool": "done", "args": {"summary": "finished"}}']));
    const [whole, s1, s2] = await Promise.all([
      runCli(evalArgs('reference', 'whole')),
      runCli(evalArgs('reference', 's1', '--shard', '1/2')),
      runCli(evalArgs('reference', 's2', '--shard', '2/2')),
    ]);
    const done = await runCli(evalArgs(`scripted:${script}`, 'done'));
    runs = { whole: whole!, s1: s1!, s2: s2!, done };
  }, 400_000);

  it('the reference model passes at least 95% of the imported tasks, with no infrastructure failure', async () => {
    expect(runs.whole.code, runs.whole.stderr).toBe(0);
    const r = await results(join(dir, 'whole'));
    expect(r.runs).toHaveLength(6);
    expect(r.runs.filter((x) => x.failure === 'infrastructure')).toEqual([]);
    const [on] = r.summary.arms;
    expect(on).toMatchObject({ arm: 'on', runs: 6, infrastructure: 0 });
    expect(on!.passed / on!.runs).toBeGreaterThanOrEqual(0.95);
    // Each JavaScript grader ran the Jest-style runner and read its summary.
    for (const id of ['async-inventory', 'initials', 'shopping-cart', 'sum-of-digits']) {
      const run = r.runs.find((x) => x.task === id);
      expect(run, id).toMatchObject({ passed: true });
    }
  });

  it('a model that only answers done passes none, and none of its failures is infrastructure', async () => {
    expect(runs.done.code, runs.done.stderr).toBe(0);
    const r = await results(join(dir, 'done'));
    expect(r.runs).toHaveLength(6);
    expect(r.runs.map((x) => [x.task, x.passed, x.failure])).toEqual(r.runs.map((x) => [x.task, false, 'gave-up']));
    expect(r.summary.arms[0]).toMatchObject({ runs: 6, passed: 0, infrastructure: 0 });
  });

  it('two shards merged equal the unsharded results', async () => {
    expect(runs.s1.code, runs.s1.stderr).toBe(0);
    expect(runs.s2.code, runs.s2.stderr).toBe(0);
    const merge = await runCli(['eval', 'merge', join(dir, 's1'), join(dir, 's2'), '--out', join(dir, 'merged')]);
    expect(merge.code, merge.stderr).toBe(0);
    const [whole, merged] = [await results(join(dir, 'whole')), await results(join(dir, 'merged'))];
    expect(outcome(merged)).toEqual(outcome(whole));
    expect(merged.complete).toBe(true);
    expect(merged.summary.arms.map((a) => [a.arm, a.runs, a.passed, a.infrastructure])).toEqual(
      whole.summary.arms.map((a) => [a.arm, a.runs, a.passed, a.infrastructure]),
    );
  }, 60_000);
});
