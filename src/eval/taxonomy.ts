/**
 * Why a run that did not pass failed, decided from how the loop ended and what its steps show,
 * in one place:
 *
 * - `no-valid-call`: the loop stopped after replies in a row without a usable tool call;
 * - `context-overflow`: the model refused a prompt too long for its window (again after the loop
 *   rebuilt it smaller: the stop `context-overflow`), or the run
 *   hit the step limit after the history no longer fit (steps left out, the latest observation cut);
 * - `loop`: the run hit the step limit repeating itself (the loop guard fired, or its last calls were identical);
 * - `step-limit`: the run hit the step limit otherwise;
 * - `wrong-edit`: the model called done with its own tests passing, but the hidden grader failed
 *   (a wrong or incomplete change, or a file that had to stay untouched was changed);
 * - `gave-up`: the model called done with its tests failing or unmeasured;
 * - `model-error`: the model failed for another reason (connection, load, a script run out).
 */
import type { Step, Stop } from '../agent/step.ts';
import type { FailureKind } from './results-schema.ts';

/** Identical calls at the end of a run that count as a loop. */
const LOOP_TAIL = 3;

const CONTEXT_ERROR = /context|too long|maximum.{0,40}tokens|token limit|prompt is too/i;

export function failureKind(passed: boolean, stop: Stop, steps: readonly Step[]): FailureKind | null {
  if (passed) return null;
  switch (stop.kind) {
    case 'parse-failures':
      return 'no-valid-call';
    case 'context-overflow':
      return 'context-overflow';
    case 'model-error':
      return stop.code === 'context' || CONTEXT_ERROR.test(stop.message) ? 'context-overflow' : 'model-error';
    case 'done':
      return stop.verdict === 'pass' ? 'wrong-edit' : 'gave-up';
    case 'stopped':
      // An interrupted run is not kept in the results: it measured nothing.
      throw new Error('failureKind: a run stopped by the user has no failure kind; leave it out of the results');
    case 'max-steps':
      if (looped(steps)) return 'loop';
      if (steps.some((s) => s.budget.omitted.length > 0 || s.budget.observationCut)) return 'context-overflow';
      return 'step-limit';
  }
}

function looped(steps: readonly Step[]): boolean {
  if (steps.some((s) => s.result?.notes.some((n) => n.kind === 'loop-guard'))) return true;
  const tail = steps.slice(-LOOP_TAIL).map((s) => s.kept);
  return tail.length === LOOP_TAIL && tail.every((k) => k === tail[0]);
}
