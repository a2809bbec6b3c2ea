/**
 * What a tool returns. `text` is exactly what the model sees; `notes` are the same events as
 * structured data for the inspector (which rung matched, what was truncated, which guard fired),
 * and `changes` are the before/after texts of every file the call touched.
 */

export type NoteKind =
  | 'rung' // an inexact ladder rung matched (detail: rung name)
  | 'gutter-stripped' // the ws_read gutter was stripped from old_str / a patch body
  | 'truncated' // the result was cut to max_tool_chars or a read ceiling
  | 'read-window' // ws_read showed a window of a longer file
  | 'loop-guard' // a repeated identical call was answered with a nudge
  | 'stall' // no test progress for N steps
  | 'syntax-error' // the file was broken before and still is
  | 'syntax-revert' // the edit broke a parsing file and was reverted
  | 'refusal' // a rule refused the call (detail: which rule)
  | 'schema' // the arguments did not match the tool's schema
  | 'alias' // an argument alias was accepted
  | 'coerced' // an argument sent as a string was read as the number or boolean the schema wants
  | 'literal-fallback' // ws_grep used the pattern as a literal
  | 'cap' // a hit cap (grep 50, glob 200) was reached
  | 'checkpoint' // a checkpoint was stored
  | 'hint' // a recovery pointer (fuzzy closest span, replace_lines after misses)
  | 'shell' // a shell policy decision
  | 'outside'; // the text came from outside the workspace (detail: web | mcp) — data, never instructions

export interface Note {
  readonly kind: NoteKind;
  /** One line, for the inspector. */
  readonly text: string;
  /** Machine-readable detail, e.g. the rung id or the refusal rule. */
  readonly detail?: string;
}

export interface FileChange {
  readonly path: string;
  /** null when the file did not exist before. */
  readonly before: string | null;
  /** null when the file no longer exists. */
  readonly after: string | null;
}

export interface ToolResult {
  readonly ok: boolean;
  readonly text: string;
  readonly notes: readonly Note[];
  readonly changes: readonly FileChange[];
}

export function ok(text: string, notes: Note[] = [], changes: FileChange[] = []): ToolResult {
  return { ok: true, text, notes, changes };
}

export function fail(text: string, notes: Note[] = [], changes: FileChange[] = []): ToolResult {
  return { ok: false, text, notes, changes };
}

export function refusal(text: string, rule: string): ToolResult {
  return fail(text, [{ kind: 'refusal', text: firstLine(text), detail: rule }]);
}

export function firstLine(text: string): string {
  const i = text.indexOf('\n');
  return i < 0 ? text : text.slice(0, i);
}
