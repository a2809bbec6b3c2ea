import { describe, expect, it } from 'vitest';
import type { Step, Stop } from '../agent/step.ts';
import { failureKind } from './taxonomy.ts';

interface StepShape {
  readonly kept?: string;
  readonly loopGuard?: boolean;
  readonly omitted?: boolean;
  readonly cut?: boolean;
}

/** The parts of a step the taxonomy reads. */
function step(s: StepShape, index: number): Step {
  return {
    index,
    kept: s.kept ?? `{"tool":"ws_read","args":{"path":"f${index}.js"}}`,
    result: {
      ok: !s.loopGuard,
      text: '',
      changes: [],
      notes: s.loopGuard ? [{ kind: 'loop-guard', text: 'identical call' }] : [],
    },
    budget: { omitted: s.omitted ? [1] : [], observationCut: s.cut ?? false, elided: [] },
  } as unknown as Step;
}
const steps = (...shapes: StepShape[]) => shapes.map(step);

const done = (verdict: 'pass' | 'fail' | 'unmeasured'): Stop => ({
  kind: 'done',
  summary: 's',
  tally: null,
  testTool: true,
  verdict,
});
const maxSteps: Stop = { kind: 'max-steps', limit: 3 };
const same = { kept: '{"tool":"ws_test","args":{}}' };

describe('failureKind', () => {
  it.each<[string, boolean, Stop, Step[], string | null]>([
    ['a passing run has none', true, maxSteps, steps({}), null],
    ['replies without a usable call', false, { kind: 'parse-failures', count: 4 }, steps({}), 'no-valid-call'],
    ['done with its tests passing, grader failing', false, done('pass'), steps({}), 'wrong-edit'],
    ['done with its tests failing', false, done('fail'), steps({}), 'gave-up'],
    ['done with no test tally', false, done('unmeasured'), steps({}), 'gave-up'],
    ['step limit after the loop guard fired', false, maxSteps, steps({}, { loopGuard: true }, {}), 'loop'],
    ['step limit with the same call three times at the end', false, maxSteps, steps({}, same, same, same), 'loop'],
    ['step limit, same call only twice', false, maxSteps, steps({}, {}, same, same), 'step-limit'],
    [
      'step limit after steps were left out of the context',
      false,
      maxSteps,
      steps({}, { omitted: true }, {}),
      'context-overflow',
    ],
    ['step limit after the observation was cut', false, maxSteps, steps({ cut: true }), 'context-overflow'],
    ['step limit otherwise', false, maxSteps, steps({}, {}, {}), 'step-limit'],
    [
      'a server refusing a long prompt',
      false,
      { kind: 'model-error', code: 'http', message: "This model's maximum context length is 4096 tokens" },
      steps({}),
      'context-overflow',
    ],
    [
      'a connection failure',
      false,
      { kind: 'model-error', code: 'connection', message: 'ECONNREFUSED' },
      steps({}),
      'model-error',
    ],
    [
      'a script run out',
      false,
      { kind: 'model-error', code: 'exhausted', message: 'the scripted model has no output left' },
      steps({}),
      'model-error',
    ],
  ])('%s', (_name, passed, stop, ss, kind) => {
    expect(failureKind(passed, stop, ss)).toBe(kind);
  });

  it('refuses to classify a run the user stopped (it is left out of the results)', () => {
    expect(() => failureKind(false, { kind: 'stopped' }, [])).toThrow(/out of the results/);
  });
});
