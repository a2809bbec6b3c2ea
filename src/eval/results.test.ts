import { describe, expect, it } from 'vitest';
import { ARMS } from './arms.ts';
import { modelInfo, REFERENCE_MODEL } from './model-label.ts';
import { buildResults } from './results.ts';
import { checkResults, type EvalRun } from './results-schema.ts';
import { BUILTIN_TASKS } from './tasks/index.ts';

const arms = ARMS.filter((a) => a.id === 'on' || a.id === 'off');
const tasks = BUILTIN_TASKS.slice(0, 2);

function run(task: string, arm: string, passed: boolean, extra: Partial<EvalRun> = {}): EvalRun {
  return {
    task,
    arm,
    seed: 0,
    passed,
    steps: 4,
    tokens: 1000,
    tokensEstimated: true,
    ms: 1200,
    session: `sessions/${task}.${arm}.s0.session.json`,
    failure: passed ? null : 'gave-up',
    stop: 'done',
    mechanisms: passed ? { 'read-window': 1 } : {},
    grader: { passed: passed ? 1 : 0, failed: passed ? 0 : 1 },
    ...extra,
  };
}

const runs = [
  run(tasks[0]!.id, 'on', true),
  run(tasks[1]!.id, 'on', true),
  run(tasks[0]!.id, 'off', false),
  run(tasks[1]!.id, 'off', true, { mechanisms: { truncated: 2 } }),
];
const results = buildResults({
  suite: 'builtin',
  model: modelInfo(REFERENCE_MODEL),
  createdAt: '2026-12-01T12:00:00.000Z',
  arms,
  seeds: 1,
  tasks,
  runs,
  complete: true,
});

describe('results.json', () => {
  it('is what the schema accepts, with the label and the mechanisms each task names', () => {
    const checked = checkResults(JSON.parse(JSON.stringify(results)));
    expect(checked.ok).toBe(true);
    expect(results.model.label).toBe('scripted');
    expect(results.tasks[tasks[0]!.id]).toEqual([...tasks[0]!.mechanisms]);
  });

  it('summarises each arm: pass rate, Wilson interval, means, failures and mechanisms', () => {
    const [on, off] = results.summary.arms;
    expect(on).toMatchObject({
      arm: 'on',
      runs: 2,
      passed: 2,
      passRate: 1,
      meanSteps: 4,
      meanTokens: 1000,
      meanMs: 1200,
      failures: {},
      mechanisms: { 'read-window': 2 },
    });
    expect(off).toMatchObject({
      arm: 'off',
      runs: 2,
      passed: 1,
      passRate: 0.5,
      failures: { 'gave-up': 1 },
      mechanisms: { truncated: 2 },
    });
    expect(on!.ci95[0]).toBeCloseTo(0.3424, 3);
    expect(on!.ci95[1]).toBe(1);
  });

  it('gives an arm with no finished run zero runs and the whole interval', () => {
    const partial = buildResults({
      suite: 'builtin',
      model: modelInfo(REFERENCE_MODEL),
      createdAt: 'now',
      arms,
      seeds: 1,
      tasks,
      runs: runs.slice(0, 2),
      complete: false,
    });
    expect(partial.summary.arms[1]).toMatchObject({ arm: 'off', runs: 0, passRate: 0, ci95: [0, 1] });
    expect(partial.complete).toBe(false);
  });

  it.each<[string, (r: Record<string, any>) => void]>([
    ['an unknown failure kind', (r) => (r.runs[0].failure = 'bad-luck')],
    ['an unknown model label', (r) => (r.model.label = 'probably-real')],
    ['a pass rate above 1', (r) => (r.summary.arms[0].passRate = 1.5)],
    ['a negative step count', (r) => (r.runs[0].steps = -1)],
    ['another version', (r) => (r.v = 2)],
    ['a missing session path', (r) => delete r.runs[0].session],
  ])('refuses %s, naming the field', (_what, spoil) => {
    const bad = JSON.parse(JSON.stringify(results));
    spoil(bad);
    const checked = checkResults(bad);
    expect(checked.ok).toBe(false);
    if (!checked.ok) expect(checked.text).toMatch(/not an eval results file/);
  });
});

describe('infrastructure failures and paired comparisons', () => {
  const [t0, t1] = [tasks[0]!.id, tasks[1]!.id];
  const build = (rs: EvalRun[]) =>
    buildResults({
      suite: 'builtin',
      model: modelInfo(REFERENCE_MODEL),
      createdAt: 'now',
      arms,
      seeds: 1,
      tasks,
      runs: rs,
      complete: true,
    });

  it('leaves a run the grader could not run out of the rate and the pairs, and counts it apart', () => {
    const r = build([
      run(t0, 'on', true),
      run(t1, 'on', false, { failure: 'infrastructure' }),
      run(t0, 'off', false),
      run(t1, 'off', true),
    ]);
    expect(r.summary.arms[0]).toMatchObject({ arm: 'on', runs: 1, passed: 1, passRate: 1, infrastructure: 1 });
    expect(r.summary.arms[0]!.failures).toEqual({ infrastructure: 1 });
    expect(r.summary.paired).toEqual([
      expect.objectContaining({ a: 'on', b: 'off', pairs: 1, both: 0, onlyA: 1, onlyB: 0, neither: 0, pValue: 1 }),
    ]);
    expect(r.summary.paired![0]!.winners).toEqual({ [t0]: 'on', [t1]: 'off' });
    expect(checkResults(JSON.parse(JSON.stringify(r))).ok).toBe(true);
  });

  it('reads a results file written before paired comparisons and infrastructure counts existed', () => {
    const old = JSON.parse(JSON.stringify(results));
    delete old.summary.paired;
    for (const a of old.summary.arms) delete a.infrastructure;
    expect(checkResults(old).ok).toBe(true);
  });
});
