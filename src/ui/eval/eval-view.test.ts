/** The Eval page's helpers: number formats, the task × arm grid, the on/off pairs, and the time-left estimate. */
import { describe, expect, it } from 'vitest';
import type { EvalRun } from '../../worker/client.ts';
import { estimate } from './eval-state.svelte.ts';
import { interval, meanText, pairs, percent, runGrid } from './eval-view.ts';

const run = (task: string, arm: string, seed: number, passed = true): EvalRun => ({
  task,
  arm,
  seed,
  passed,
  steps: 3,
  tokens: 10,
  tokensEstimated: false,
  ms: 1,
  session: `sessions/${task}.${arm}.s${seed}.session.json`,
  failure: passed ? null : 'gave-up',
  stop: 'done',
  mechanisms: {},
  grader: { passed: 1, failed: 0 },
});

describe('formats', () => {
  it.each([
    [percent(0.5), '50%'],
    [percent(1), '100%'],
    [interval([0.412, 0.733]), '41–73%'],
    [meanText(12.6), '13'],
    [meanText(3.14), '3.1'],
  ])('%s is %s', (got, want) => {
    expect(got).toBe(want);
  });
});

describe('runGrid and pairs', () => {
  const runs = [
    run('b', 'on', 1),
    run('b', 'on', 0),
    run('a', 'off', 0, false),
    run('a', 'on', 0),
    run('b', 'off', 1),
    run('z', 'on', 0),
  ];

  it('puts tasks in the suite order, then any other, with seeds in order per arm', () => {
    const grid = runGrid(runs, ['a', 'b', 'c']);
    expect(grid.map((r) => r.task)).toEqual(['a', 'b', 'z']);
    expect(grid[1]!.cells.get('on')!.map((r) => r.seed)).toEqual([0, 1]);
    expect(grid[0]!.cells.get('off')![0]!.passed).toBe(false);
  });

  it('pairs the seeds that ran on both arms', () => {
    const [a, b, z] = runGrid(runs, ['a', 'b']);
    expect(pairs(a!, 'on', 'off').map((p) => p.seed)).toEqual([0]);
    expect(pairs(b!, 'on', 'off').map((p) => p.seed)).toEqual([1]);
    expect(pairs(z!, 'on', 'off')).toEqual([]);
  });
});

describe('estimate', () => {
  it.each([
    [0, 10, 5000, null],
    [2, 10, 4000, 16000],
    [10, 10, 9000, 0],
  ])('%i of %i done after %i ms: %s ms left', (done, total, elapsed, left) => {
    expect(estimate(done, total, elapsed)).toEqual({ elapsedMs: elapsed, leftMs: left });
  });
});
