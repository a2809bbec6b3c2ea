/**
 * Words for what the engine and the loop report: a label and a one-line "why this helps a
 * small model" for every note kind (the tool console and the run inspector share this one
 * table), and the status of a result. Keyed by NoteKind and LoopNoteKind, so a new kind is a
 * type error here until it is explained.
 */
import type { LoopNoteKind, NoteKind, ToolResult } from '../../worker/client.ts';

export interface NoteExplanation {
  /** A short badge label. */
  readonly label: string;
  /** One line: why the engine does this for a small model. */
  readonly why: string;
  /** Badge colour family. */
  readonly tone: 'info' | 'warn' | 'stop';
}

export const NOTE_EXPLANATIONS: Readonly<Record<NoteKind | LoopNoteKind, NoteExplanation>> = {
  rung: {
    label: 'Ladder rung',
    tone: 'warn',
    why: 'The edit landed although old_str drifted; naming the rung tells the model how its copy differed, so it copies more exactly next time.',
  },
  'gutter-stripped': {
    label: 'Gutter stripped',
    tone: 'warn',
    why: "The model pasted ws_read's line-number gutter into its edit; it was removed and the edit applied, and the note discourages the habit.",
  },
  truncated: {
    label: 'Truncated',
    tone: 'warn',
    why: 'Head and tail are kept and the size is named, so one huge output cannot push the task out of a small context window.',
  },
  'read-window': {
    label: 'Read window',
    tone: 'info',
    why: 'Only part of the file was shown; the footer says which lines and how to page, so the model asks for more instead of guessing.',
  },
  'loop-guard': {
    label: 'Loop guard',
    tone: 'stop',
    why: 'The same call came again; a nudge replaces the identical answer, so the model changes approach instead of looping.',
  },
  stall: {
    label: 'Stall',
    tone: 'stop',
    why: 'No test progress for several steps; saying so breaks a cycle the model cannot see from inside one turn.',
  },
  'syntax-error': {
    label: 'Still broken',
    tone: 'warn',
    why: 'The file did not parse before and still does not; the parser error arrives in the same turn, so the next edit can fix it.',
  },
  'syntax-revert': {
    label: 'Edit reverted',
    tone: 'stop',
    why: 'The edit broke a file that parsed; it was undone and the model is told what broke, so the workspace never stays broken.',
  },
  refusal: {
    label: 'Refused',
    tone: 'stop',
    why: 'A rule stopped the call; the message names the rule and the tool to use instead, so the model can retry correctly.',
  },
  schema: {
    label: 'Bad arguments',
    tone: 'stop',
    why: "The arguments did not fit the tool's schema; the message names each wrong field and shows a correct call to copy.",
  },
  alias: {
    label: 'Alias accepted',
    tone: 'info',
    why: 'A common spelling of an argument (old_string for old_str) was accepted, instead of failing a call that meant the right thing.',
  },
  coerced: {
    label: 'Argument type read',
    tone: 'info',
    why: 'A number or a boolean sent in quotes ("limit": "3") was read as the number or boolean the tool expects — small models often quote them — and the note tells the model to send it without quotes.',
  },
  'literal-fallback': {
    label: 'Literal search',
    tone: 'info',
    why: 'The pattern was not a valid regex, so it was searched as plain text and the result says so, instead of an error to decode.',
  },
  cap: {
    label: 'Hit cap',
    tone: 'warn',
    why: 'There were more hits than shown; announcing the cap makes the model narrow the search instead of assuming it saw everything.',
  },
  checkpoint: {
    label: 'Checkpoint',
    tone: 'info',
    why: 'What the call replaced was kept, so a destructive mistake by the model can still be undone.',
  },
  hint: {
    label: 'Hint',
    tone: 'info',
    why: 'A pointer to the next step (the closest match, or replace_lines after repeated misses), so the model recovers instead of retrying blindly.',
  },
  shell: {
    label: 'Shell policy',
    tone: 'info',
    why: 'The command was checked before it ran; the note says what the policy decided, so the model learns which commands are allowed.',
  },
  // The loop's own notes (what happened around the tool call).
  'dropped-calls': {
    label: 'Extra calls cut',
    tone: 'warn',
    why: 'Only the first call of a message runs; the model is told which calls were dropped, so it sends one per turn after seeing each result.',
  },
  'parse-retry': {
    label: 'Retry asked',
    tone: 'stop',
    why: 'The reply held no usable call; the model is shown the exact shape to send, rather than a generic error it cannot act on.',
  },
  repair: {
    label: 'Call repaired',
    tone: 'info',
    why: 'The call was found inside prose, fences or slightly broken JSON, so a formatting slip does not cost the model a turn.',
  },
  approval: {
    label: 'Approval',
    tone: 'info',
    why: 'A person said yes or no to a call that changes files; a no comes back as a result, so the model can choose another way.',
  },
  elided: {
    label: 'Elided',
    tone: 'warn',
    why: 'Older results were replaced by a short marker to fit the context window; the marker says how to get them back.',
  },
  'observation-cut': {
    label: 'Cut to fit',
    tone: 'warn',
    why: 'The latest result alone was too big for the window; its head and tail were kept, so the model still sees the start and the end.',
  },
  'no-test-tool': {
    label: 'No test tool',
    tone: 'warn',
    why: 'done normally runs the tests one last time; without a test tool the record says so instead of claiming success.',
  },
  'final-tests': {
    label: 'Final tests',
    tone: 'info',
    why: "done ran the tests once more, so the run ends on a measured tally, not on the model's word.",
  },
  limit: {
    label: 'Run ended',
    tone: 'stop',
    why: 'The run stopped here (step limit, unusable replies, a model error or Stop); the reason is kept on the step that hit it.',
  },
};

/** The explanation of a note kind; a kind this build does not know still gets a readable badge. */
export function explainNote(kind: string): NoteExplanation {
  return (NOTE_EXPLANATIONS as Record<string, NoteExplanation>)[kind] ?? { label: kind, tone: 'info', why: 'Reported by the engine.' };
}

export type ResultStatus = 'ok' | 'refused' | 'failed';

/** ok, refused (a rule said no) or failed (anything else that did not succeed). */
export function resultStatus(result: ToolResult): ResultStatus {
  if (result.ok) return 'ok';
  return result.notes.some((n) => n.kind === 'refusal') ? 'refused' : 'failed';
}
