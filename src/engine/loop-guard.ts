/**
 * The loop guard: identical repeated calls are answered with an intervention nudge instead of
 * being run again. The tracker lives in the session state, so it is isolated per task.
 */
import type { SessionState } from './state.ts';

/** A stable key for a call: tool name + arguments with object keys sorted. */
export function callKey(tool: string, args: unknown): string {
  return `${tool} ${stableJson(args)}`;
}

function stableJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(stableJson).join(',')}]`;
  if (v && typeof v === 'object') {
    const keys = Object.keys(v as object).sort();
    return `{${keys.map((k) => `${JSON.stringify(k)}:${stableJson((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v) ?? 'null';
}

/** Records the call; returns how many times in a row this exact call has now been made. */
export function trackCall(state: SessionState, key: string): number {
  if (state.lastCallKey === key) state.repeatCount++;
  else {
    state.lastCallKey = key;
    state.repeatCount = 1;
  }
  return state.repeatCount;
}

export function loopGuardNudge(tool: string, times: number): string {
  return (
    `LOOP GUARD — you have made this exact ${tool} call ${times} times in a row, and repeating it will not change the result. ` +
    `The call was not run again. Step back: re-read the last result, then do something different — ` +
    `ws_read the file again to see its current text, ws_grep for the symbol, change your arguments, or finish with done if the task is complete.`
  );
}
