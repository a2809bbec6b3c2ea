/**
 * How a done run is told: the final measured tally comes first and decides the verdict; the
 * model's summary is quoted after it as the model's word, never as the outcome.
 */
import { describe, expect, it } from 'vitest';
import { doneVerdict, stopText, type Stop } from '../../src/agent/step.ts';
import type { TestTally } from '../../src/engine/tally.ts';

const tally = (passed: number, failed: number): TestTally => ({ passed, failed, source: 'ws_test' });
const done = (t: TestTally | null, testTool = true): Stop => ({
  kind: 'done',
  summary: 'Tests pass.',
  tally: t,
  testTool,
  verdict: doneVerdict(t),
});

describe('a done run, told by its final tally', () => {
  it.each([
    ['all pass', done(tally(9, 0)), 'pass', 'final tests pass (9 passed, 0 failed)'],
    ['one fails', done(tally(8, 1)), 'fail', 'final tests fail (8 passed, 1 failed)'],
    ['no tests ran', done(tally(0, 0)), 'fail', 'the final test run ran no tests (0 passed, 0 failed)'],
    ['no count read', done(null), 'unmeasured', 'the final test run gave no pass/fail count'],
    ['no test tool', done(null, false), 'unmeasured', 'no final test run (no test tool)'],
  ] as const)('%s', (_name, stop, verdict, measured) => {
    expect(stop.kind === 'done' && stop.verdict).toBe(verdict);
    expect(stopText(stop)).toBe(`finished with done: ${measured} — the model's summary: Tests pass.`);
  });
});
