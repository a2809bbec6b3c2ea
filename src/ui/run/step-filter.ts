/**
 * Searching and filtering a run's steps, as the timeline does it: by the tool called, by a kind
 * of note (the engine's or the loop's), and by text anywhere in the step — the tool, what the
 * model wrote, its arguments, the notes and what the model saw next. Each matching step comes
 * with the first place the text was found, cut to a short snippet, so the match can be marked.
 */
import type { Step, StepRecord } from '../../worker/client.ts';
import { stepNotes, stepTool, type StepNote } from './step-view.ts';

export interface StepQuery {
  /** Case-insensitive text; blank matches every step. */
  readonly text: string;
  /** A tool name (`no call` for a reply without a call), or null for any. */
  readonly tool: string | null;
  /** A note kind, or null for any. */
  readonly kind: StepNote['kind'] | null;
}

export const NO_QUERY: StepQuery = { text: '', tool: null, kind: null };

/** Where in a step the text was found. */
export type MatchField = 'tool' | 'output' | 'arguments' | 'note' | 'retry' | 'result';

/** A snippet around the first hit: `before` + `hit` + `after` is a piece of the field's text. */
export interface Snippet {
  readonly field: MatchField;
  readonly before: string;
  readonly hit: string;
  readonly after: string;
}

export interface StepMatch {
  readonly index: number;
  /** Null when no text was asked for (the step matched on tool and kind alone). */
  readonly snippet: Snippet | null;
}

/** Characters of context kept on each side of a hit. */
const CONTEXT = 28;

export function queryActive(q: StepQuery): boolean {
  return q.text.trim() !== '' || q.tool !== null || q.kind !== null;
}

/** The fields of a step searched for text, in the order they are tried. */
function fields(step: Step): [MatchField, string][] {
  return [
    ['tool', stepTool(step)],
    ['output', step.raw],
    ['arguments', step.call ? JSON.stringify(step.call.args) : ''],
    ...stepNotes(step).map((n): [MatchField, string] => ['note', n.text]),
    ['retry', step.parseError?.message ?? ''],
    ['result', step.observation],
  ];
}

/** Lines joined into one, so a snippet is one line. */
const oneLine = (s: string) => s.replace(/\s+/g, ' ');

function snippetOf(field: MatchField, text: string, at: number, length: number): Snippet {
  const start = Math.max(0, at - CONTEXT);
  const end = Math.min(text.length, at + length + CONTEXT);
  return {
    field,
    before: `${start > 0 ? '…' : ''}${oneLine(text.slice(start, at))}`,
    hit: oneLine(text.slice(at, at + length)),
    after: `${oneLine(text.slice(at + length, end))}${end < text.length ? '…' : ''}`,
  };
}

/** The step's match for `q`, or null when it does not match. */
export function matchStep(step: Step, q: StepQuery): StepMatch | null {
  if (q.tool !== null && stepTool(step) !== q.tool) return null;
  if (q.kind !== null && !stepNotes(step).some((n) => n.kind === q.kind)) return null;
  const needle = q.text.trim().toLowerCase();
  if (!needle) return { index: step.index, snippet: null };
  for (const [field, text] of fields(step)) {
    const at = text.toLowerCase().indexOf(needle);
    if (at >= 0) return { index: step.index, snippet: snippetOf(field, text, at, needle.length) };
  }
  return null;
}

/** The matching steps, in run order. */
export function filterSteps(records: readonly StepRecord[], q: StepQuery): StepMatch[] {
  return records.flatMap((r) => matchStep(r.step, q) ?? []);
}

/** The tools the run's steps called, sorted, for the tool filter. */
export function toolsOf(records: readonly StepRecord[]): string[] {
  return [...new Set(records.map((r) => stepTool(r.step)))].sort();
}

/** The note kinds the run's steps carry, sorted, for the kind filter. */
export function noteKindsOf(records: readonly StepRecord[]): StepNote['kind'][] {
  return [...new Set(records.flatMap((r) => stepNotes(r.step).map((n) => n.kind)))].sort();
}

/**
 * The step `delta` matches away from `from` (the selection), clamped to the first and last
 * match; from a step that does not match, the nearest match in that direction. Null when
 * nothing matches.
 */
export function moveAmong(matches: readonly number[], from: number | null, delta: number): number | null {
  if (!matches.length) return null;
  if (from === null) return delta < 0 ? matches[matches.length - 1]! : matches[0]!;
  let at = matches.indexOf(from);
  if (at < 0) {
    // Not a match: start just before (moving forward) or just after (moving back) where it would be.
    const after = matches.findIndex((m) => m > from);
    const insert = after < 0 ? matches.length : after;
    at = delta > 0 ? insert - 1 : insert;
  }
  return matches[Math.min(Math.max(at + delta, 0), matches.length - 1)]!;
}
