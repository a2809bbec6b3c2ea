/**
 * `slm eval --shard I/N` and `slm eval merge` through the real CLI: two shards of the reference
 * model's eval, merged, hold the same graded runs as the eval run whole, with the paired
 * comparison in every report; merging refuses shards of different evals and names missing runs.
 * A task whose grader cannot start is an infrastructure failure: apart, out of the rates, exit 1.
 */
import { readFile, writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkResults, type EvalResults } from '../../src/eval/results-schema.ts';
import { BUILTIN_TASKS } from '../../src/eval/tasks/index.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { cleanup, runCli, tempRoot } from './cli-process.ts';

const sandboxed = 'kind' in (await probeHostSandbox());
const TASKS = 'repeated-span,trailing-whitespace';

async function results(out: string): Promise<EvalResults> {
  const checked = checkResults(JSON.parse(await readFile(join(out, 'results.json'), 'utf8')));
  if (!checked.ok) throw new Error(checked.text);
  return checked.results;
}

/** What a run's grading decided, without its timing. */
const outcome = (r: EvalResults) => r.runs.map((x) => [x.task, x.arm, x.seed, x.passed, x.failure, x.steps, x.session]);

afterAll(cleanup);

describe.skipIf(!sandboxed)('slm eval --shard and slm eval merge', () => {
  let dir: string;
  const evalArgs = (out: string, ...extra: string[]) => [
    'eval',
    '--model',
    'reference',
    '--tasks',
    TASKS,
    '--arms',
    'on,off',
    '--out',
    out,
    ...extra,
  ];
  beforeAll(async () => {
    dir = await tempRoot();
    const runs = await Promise.all([
      runCli(evalArgs(join(dir, 'whole'))),
      runCli(evalArgs(join(dir, 's1'), '--shard', '1/2')),
      runCli(evalArgs(join(dir, 's2'), '--shard', '2/2')),
    ]);
    for (const r of runs) expect(r.code, r.stderr).toBe(0);
  }, 180_000);

  it('splits the plan: every other session from the first or the second, each file labelled as a shard', async () => {
    const [s1, s2] = [await results(join(dir, 's1')), await results(join(dir, 's2'))];
    expect(s1.shard).toEqual({ index: 1, count: 2 });
    expect(s2.shard).toEqual({ index: 2, count: 2 });
    // The plan is task × arm in the suite's order: on, off, on, off — the first shard takes every `on`.
    expect(s1.runs.map((r) => `${r.task}/${r.arm}`)).toEqual(['repeated-span/on', 'trailing-whitespace/on']);
    expect(s2.runs.map((r) => `${r.task}/${r.arm}`)).toEqual(['repeated-span/off', 'trailing-whitespace/off']);
    expect(await readFile(join(dir, 's1', 'results.md'), 'utf8')).toContain('Shard 1 of 2');
  });

  it('merges into the same graded runs and summary as the eval run whole', async () => {
    const merge = await runCli(['eval', 'merge', join(dir, 's2'), join(dir, 's1'), '--out', join(dir, 'merged')]);
    expect(merge.code, merge.stderr).toBe(0);
    expect(merge.stdout).toContain('merged 2 shard(s), 4 run(s)');
    const [whole, merged] = [await results(join(dir, 'whole')), await results(join(dir, 'merged'))];
    expect(outcome(merged)).toEqual(outcome(whole));
    expect(merged.shard).toBeUndefined();
    expect(merged.complete).toBe(true);
    expect(merged.summary.paired).toEqual(whole.summary.paired);
    expect(merged.summary.arms.map((a) => [a.arm, a.runs, a.passed])).toEqual(
      whole.summary.arms.map((a) => [a.arm, a.runs, a.passed]),
    );
    // Every session the merged results name was copied.
    for (const r of merged.runs) await readFile(join(dir, 'merged', r.session), 'utf8');
  }, 60_000);

  it('reports the paired comparison: 2 pairs, all passed by both, McNemar p = 1', async () => {
    const whole = await results(join(dir, 'whole'));
    expect(whole.summary.paired).toEqual([
      expect.objectContaining({ a: 'on', b: 'off', pairs: 2, both: 2, onlyA: 0, onlyB: 0, neither: 0, pValue: 1 }),
    ]);
    const md = await readFile(join(dir, 'whole', 'results.md'), 'utf8');
    expect(md).toContain('## Paired comparison');
    expect(md).toMatch(/\| on vs off \| 2 \| 2 \| 0 \| 0 \| 0 \| ±0\.0 pts \| .* \| 1\.000 \| 0 \/ 0 \/ 2 \|/);
    expect(await readFile(join(dir, 'whole', 'report.html'), 'utf8')).toContain('<h2>Paired comparison</h2>');
  });

  it('names the runs no shard holds, and exits 1', async () => {
    const merge = await runCli(['eval', 'merge', join(dir, 's1'), '--out', join(dir, 'half')]);
    expect(merge.code).toBe(1);
    expect(merge.stderr).toContain(
      '2 planned run(s) are in no shard: repeated-span off s0, trailing-whitespace off s0;',
    );
    expect((await results(join(dir, 'half'))).complete).toBe(false);
  }, 60_000);

  it('refuses a shard given twice and shards of another eval, writing nothing', async () => {
    const twice = await runCli(['eval', 'merge', join(dir, 's1'), join(dir, 's1'), '--out', join(dir, 'twice')]);
    expect(twice.code).toBe(2);
    expect(twice.stderr).toContain('shards must not overlap');
    const other = join(dir, 'other');
    await mkdir(other, { recursive: true });
    const r = await results(join(dir, 's2'));
    await writeFile(join(other, 'results.json'), JSON.stringify({ ...r, seeds: 3 }));
    const mixed = await runCli(['eval', 'merge', join(dir, 's1'), other, '--out', join(dir, 'mixed')]);
    expect(mixed.code).toBe(2);
    expect(mixed.stderr).toMatch(/is from another eval: its seeds is 3, but .* is 1/);
  }, 120_000);

  it('refuses --shard 0/2, 3/2, 1 and a/b as usage errors', async () => {
    for (const shard of ['0/2', '3/2', '1', 'a/b']) {
      const r = await runCli(evalArgs(join(dir, 'bad'), '--shard', shard));
      expect(r.code, shard).toBe(2);
      expect(r.stderr).toContain(`--shard must be I/N with 1 ≤ I ≤ N (as in 2/4), not "${shard}"`);
    }
  }, 180_000);
});

describe.skipIf(!sandboxed)('a grader that cannot start', () => {
  it('is an infrastructure failure: apart from the model’s failures, out of the rate, exit 1', async () => {
    const dir = await tempRoot();
    const suite = join(dir, 'suite');
    await mkdir(suite, { recursive: true });
    const base = BUILTIN_TASKS.find((t) => t.id === 'repeated-span')!;
    const broken = { ...base, id: 'no-runner', test_command: 'no-such-runner eval-grader' };
    await writeFile(join(suite, 'ok.task.json'), JSON.stringify(base));
    await writeFile(join(suite, 'broken.task.json'), JSON.stringify(broken));
    const run = await runCli([
      'eval',
      '--model',
      'reference',
      '--suite',
      suite,
      '--arms',
      'on',
      '--out',
      join(dir, 'out'),
    ]);
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('1 run(s) could not be graded (no-runner on s0)');
    const r = await results(join(dir, 'out'));
    expect(r.runs.find((x) => x.task === 'no-runner')).toMatchObject({ passed: false, failure: 'infrastructure' });
    expect(r.runs.find((x) => x.task === 'no-runner')!.grader.excerpt).toMatch(
      /could not start \(exit code 127\)|did not run/,
    );
    expect(r.summary.arms[0]).toMatchObject({ runs: 1, passed: 1, passRate: 1, infrastructure: 1 });
    expect(await readFile(join(dir, 'out', 'results.md'), 'utf8')).toContain('1 run(s) could not be graded');
  }, 90_000);
});
