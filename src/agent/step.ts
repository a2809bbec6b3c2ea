/**
 * The immutable record of one step: the exact messages sent, the raw output, the parsed call
 * (or why it did not parse), the engine's result, the exact observation the model sees next,
 * the loop's own notes, timings, tokens, the context budget and the test tally. A UI renders
 * `readonly Step[]`; nothing edits a step after it is emitted.
 */
import type { ToolResult } from '../engine/result.ts';
import type { LoadTiming } from '../engine/lazy-load.ts';
import type { ChatMessage, ModelErrorCode, ModelExchange } from './model.ts';
import type { ParseErrorKind, ParsedCall } from './parse.ts';
import type { Budget } from './context.ts';
import { tallyText, type TestTally } from '../engine/tally.ts';

export type LoopNoteKind =
  | 'dropped-calls' // further calls in the message were dropped (detail: their tool names)
  | 'parse-retry' // the output had no usable call and the model was told how to retry (detail: error kind)
  | 'repair' // the call was found after repairs (detail: repair names)
  | 'stall' // no test progress for N steps; a nudge was appended
  | 'approval' // a person was asked, or a replayed gated step was not approved here (detail: approved | denied | unapproved)
  | 'elided' // older observations were elided to fit the context window (detail: step indexes)
  | 'observation-cut' // the latest observation itself was cut to fit
  | 'reply-cut' // the reply was cut at the token limit before its call was complete; the model was told to write less
  | 'context-retry' // the model refused the prompt as too long; it was rebuilt within a smaller budget (detail: the new window)
  | 'no-test-tool' // done ran without a ws_test tool to run the tests
  | 'final-tests' // done ran the tests one last time
  | 'limit'; // the run stopped here (detail: stop kind)

export interface LoopNote {
  readonly kind: LoopNoteKind;
  readonly text: string;
  readonly detail?: string;
}

export interface StepTokens {
  readonly prompt: number;
  readonly completion: number;
  /** True when the counts are an estimate (calibrated or conservative) rather than the model's tokenizer. */
  readonly estimated: boolean;
}

export interface StepTiming {
  /** Wall clock (ms since the epoch) when the step began. */
  readonly startedAt: number;
  readonly modelMs: number;
  readonly toolMs: number;
  /** Parts of the engine the tool call loaded on first use (the shell's parser, git, a syntax checker), counted in toolMs. */
  readonly loads?: readonly LoadTiming[];
}

/**
 * approved / denied: a person's answer. unapproved: a replayed step the policy gates that nobody
 * here approved (an approval in a record is history, never an approval), so it did not run.
 */
/** A person's answer, a replay's 'unapproved', or 'unasked': the run had no approver (`slm run`), so nobody could say yes. */
export type ApprovalOutcome = 'approved' | 'denied' | 'unapproved' | 'unasked';

export interface Step {
  /** 1-based. */
  readonly index: number;
  /** Exactly what the model was sent. */
  readonly messages: readonly ChatMessage[];
  /** Exactly what the model produced. */
  readonly raw: string;
  /** The model call's request and response as the server saw them, when the model is a server. */
  readonly exchange?: ModelExchange;
  /** The output as the history keeps it: cut to its first call (an unparseable reply, cut if long). */
  readonly kept: string;
  readonly call?: ParsedCall;
  readonly parseError?: { readonly kind: ParseErrorKind; readonly message: string };
  readonly result?: ToolResult;
  /** Exactly the text the model sees as the next user message. */
  readonly observation: string;
  readonly notes: readonly LoopNote[];
  /** Present when a person was asked to approve the call, or a replay could not run it without them. */
  readonly approval?: ApprovalOutcome;
  /** Present when a test ran in this step. */
  readonly tally?: TestTally;
  readonly timing: StepTiming;
  readonly tokens: StepTokens;
  readonly budget: Budget;
}

/** Why a run ended: a value, handled in one place. */
export type Stop =
  | {
      readonly kind: 'done';
      readonly summary: string;
      readonly tally: TestTally | null;
      readonly testTool: boolean;
      readonly verdict: DoneVerdict;
    }
  | { readonly kind: 'max-steps'; readonly limit: number }
  | { readonly kind: 'parse-failures'; readonly count: number }
  | { readonly kind: 'stopped' }
  /** The model refused the prompt as too long for its window, again after it was rebuilt smaller. */
  | { readonly kind: 'context-overflow'; readonly message: string }
  | { readonly kind: 'model-error'; readonly code: ModelErrorCode; readonly message: string };

/** One line for people: why the run ended. */
export function stopText(stop: Stop): string {
  switch (stop.kind) {
    case 'done':
      return `finished with done: ${doneVerdictText(stop)} — the model's summary: ${stop.summary}`;
    case 'max-steps':
      return `reached the step limit (${stop.limit}) without the final done JSON`;
    case 'parse-failures':
      return `stopped after ${stop.count} replies in a row without a usable tool call`;
    case 'stopped':
      return 'stopped by the user';
    case 'context-overflow':
      return stop.message;
    case 'model-error':
      return `the model failed (${stop.code}): ${stop.message}`;
    default: {
      const never: never = stop;
      throw new Error(`unknown stop ${JSON.stringify(never)}`);
    }
  }
}

/** What the final test run measured, which decides how a done run ended (never the model's summary). */
export type DoneVerdict = 'pass' | 'fail' | 'unmeasured';

export function doneVerdict(tally: TestTally | null): DoneVerdict {
  if (!tally) return 'unmeasured';
  return tally.failed === 0 && tally.passed > 0 ? 'pass' : 'fail';
}

function doneVerdictText(stop: Extract<Stop, { kind: 'done' }>): string {
  if (!stop.testTool) return 'no final test run (no test tool)';
  if (!stop.tally) return 'the final test run gave no pass/fail count';
  const tally = tallyText(stop.tally);
  if (stop.verdict === 'pass') return `final tests pass (${tally})`;
  return stop.tally.passed + stop.tally.failed === 0
    ? `the final test run ran no tests (${tally})`
    : `final tests fail (${tally})`;
}

/** Freezes a step all the way down (its messages, call, result, notes, …) so a consumer cannot edit what was emitted. */
export function freezeStep(step: Step): Step {
  return deepFreeze(step);
}

/** Freezes `value` and every object and array under it. Byte arrays stay as they are: a typed array cannot be frozen. */
function deepFreeze<T>(value: T, seen = new WeakSet<object>()): T {
  if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || seen.has(value)) return value;
  seen.add(value);
  Object.freeze(value);
  for (const key of Reflect.ownKeys(value)) deepFreeze((value as Record<PropertyKey, unknown>)[key], seen);
  return value;
}
