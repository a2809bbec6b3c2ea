/**
 * Stall detection on the measured test tally (hash-anchored-tools.md): once a test has run,
 * N steps without a better tally append a nudge to the observation. The state is a value; each
 * step produces the next one.
 */
import { improves, tallyText, type TestTally } from '../engine/tally.ts';

export interface StallState {
  /** The best tally so far; undefined until a test has run. */
  readonly best?: TestTally;
  /** Steps since the best tally was set or the last nudge. */
  readonly since: number;
}

export const INITIAL_STALL: StallState = Object.freeze({ since: 0 });

/** Advances the detector by one step; `nudge` is set when this step completes a stall. */
export function stallStep(
  state: StallState,
  tally: TestTally | undefined,
  threshold: number,
): { state: StallState; nudge?: string } {
  if (tally && improves(tally, state.best)) return { state: { best: tally, since: 0 } };
  if (!state.best) return { state };
  const since = state.since + 1;
  if (since < threshold) return { state: { best: state.best, since } };
  return { state: { best: state.best, since: 0 }, nudge: stallNudge(threshold, state.best) };
}

function stallNudge(steps: number, best: TestTally): string {
  if (best.failed === 0) {
    return (
      `[STALL — ${steps} steps since the tests last improved, and they already pass (${tallyText(best)}). ` +
      `If the task is complete, finish with {"tool": "done", "args": {"summary": "…"}}; otherwise make the next change and run the tests.]`
    );
  }
  return (
    `[STALL — no test progress in the last ${steps} steps; the best tally is still ${tallyText(best)}. ` +
    `Change approach: run the tests and read the first failure, ws_read the code it points at, then make one small ws_edit. ` +
    `If an edit keeps missing, ws_read the file again before retrying.]`
  );
}
