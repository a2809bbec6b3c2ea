/** Engine settings: the knobs the spec names, with its defaults. All are plain data so a session can record them. */

export interface EngineSettings {
  /** Every result is capped at this many characters (head + tail kept). */
  readonly max_tool_chars: number;
  /** Lines ws_read shows when no limit is given. */
  readonly read_window_lines: number;
  /** The model's context window in tokens; one read may use at most ~15% of it. */
  readonly context_window_tokens: number;
  /** Overwrites need a read of the file in this session first. */
  readonly read_before_edit: boolean;
  /** ws_edit walks the match ladder; false = byte-exact only. */
  readonly edit_tolerance: boolean;
  /**
   * ws_edit and ws_patch strip a ws_read gutter pasted on every line of old_str (or of a hunk)
   * and say so; false keeps it, so such an edit misses as written. Only while edit_tolerance is on.
   */
  readonly gutter_strip: boolean;
  /** Ladder rungs switched off by id (for the "ACI off" comparisons and settings re-runs). */
  readonly disabled_rungs: readonly string[];
  /** Refuse whole-file-style rewrites through ws_edit. */
  readonly over_edit_guard: boolean;
  /** Answer repeated identical calls with a nudge. */
  readonly loop_guard: boolean;
  /** How many identical calls in a row trigger the nudge. */
  readonly loop_guard_repeats: number;
  /** Keep what ws_delete, ws_write and ws_edit replaced. */
  readonly file_checkpoints: boolean;
  /** Run the post-edit syntax check. */
  readonly syntax_check: boolean;
  /** Default shell timeout in ms, and the cap a call may ask for. */
  readonly shell_timeout: number;
  readonly shell_timeout_cap: number;
  /** The tools the model is offered: `full` (every coding tool) or `small` (SMALL_TOOL_SET, for small models' windows). */
  readonly tool_set: ToolSet;
}

export type ToolSet = 'full' | 'small';

/** The `small` tool set: reading, searching, editing, writing, one command, the tests (the loop adds done). */
export const SMALL_TOOL_SET: readonly string[] = Object.freeze([
  'ws_read',
  'ws_list',
  'ws_grep',
  'ws_edit',
  'ws_patch',
  'ws_write',
  'ws_shell',
  'ws_test',
]);

export const DEFAULT_SETTINGS: EngineSettings = Object.freeze({
  max_tool_chars: 8000,
  read_window_lines: 120,
  context_window_tokens: 16384,
  read_before_edit: true,
  edit_tolerance: true,
  gutter_strip: true,
  disabled_rungs: [],
  over_edit_guard: true,
  loop_guard: true,
  loop_guard_repeats: 3,
  file_checkpoints: true,
  syntax_check: true,
  shell_timeout: 120_000,
  shell_timeout_cap: 600_000,
  tool_set: 'full',
});

/** Rough characters per token, used where no tokenizer is at hand (the estimate says so where shown). */
export const CHARS_PER_TOKEN = 4;

/** The hard ceiling of a single read: ~15% of the context window, in characters. */
export function readCeilingChars(s: EngineSettings): number {
  return Math.floor(s.context_window_tokens * 0.15 * CHARS_PER_TOKEN);
}
