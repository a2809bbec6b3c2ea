/**
 * The arms of an eval: `on` (the ACI's defaults), `off` (the naive harness of the per-step
 * "ACI off" column, driving the whole trajectory) and single-knob ablations, each the existing
 * engine settings the Re-run panel and `--settings` use, never a fork of the engine.
 */
import { RUNG_ORDER } from '../engine/ladder/ladder.ts';
import type { EngineSettings } from '../engine/settings.ts';

export interface Arm {
  readonly id: string;
  /** What the arm changes, for people. */
  readonly label: string;
  /** Engine settings over the defaults. */
  readonly settings: Partial<EngineSettings>;
  /** True for the naive harness (`naive-engine.ts`) instead of the engine's own tools. */
  readonly naive: boolean;
}

/** A tool result this long is not cut: the largest cap a session record accepts. */
export const NO_CAP_CHARS = 1_000_000;
/** A read window no task's file reaches: the largest a session record accepts. */
export const NO_WINDOW_LINES = 100_000;

/** Every rung but `exact`: what the ladder is made of. */
const LADDER_RUNGS = RUNG_ORDER.filter((r) => r !== 'exact');

/** The engine settings of the `off` arm: every guard off, nothing cut, byte-exact edits. Its file tools are the naive harness's. */
export const OFF_SETTINGS: Partial<EngineSettings> = Object.freeze({
  max_tool_chars: NO_CAP_CHARS,
  read_window_lines: NO_WINDOW_LINES,
  read_before_edit: false,
  edit_tolerance: false,
  gutter_strip: false,
  disabled_rungs: LADDER_RUNGS,
  over_edit_guard: false,
  loop_guard: false,
  syntax_check: false,
});

export const ARMS: readonly Arm[] = Object.freeze([
  { id: 'on', label: 'ACI on (the defaults)', settings: {}, naive: false },
  {
    id: 'off',
    label:
      'ACI off: the naive harness (exact-match edits, whole-file reads, no truncation, no guards, no syntax check)',
    settings: OFF_SETTINGS,
    naive: true,
  },
  {
    id: 'ladder-off',
    label: 'match ladder off (exact match only; gutter stripping stays)',
    settings: { disabled_rungs: LADDER_RUNGS },
    naive: false,
  },
  {
    id: 'gutter-strip-off',
    label: 'gutter stripping off (a pasted ws_read gutter is kept; the ladder stays)',
    settings: { gutter_strip: false },
    naive: false,
  },
  {
    id: 'exact-edit',
    label: 'edit tolerance off (byte-exact edits: no ladder and no gutter stripping)',
    settings: { edit_tolerance: false },
    naive: false,
  },
  { id: 'loop-guard-off', label: 'loop guard off', settings: { loop_guard: false }, naive: false },
  {
    id: 'truncation-off',
    label: 'truncation off (results are not cut)',
    settings: { max_tool_chars: NO_CAP_CHARS },
    naive: false,
  },
  {
    id: 'tools-small',
    label: 'small tool set (read, list, grep, edit, patch, write, shell, test, done)',
    settings: { tool_set: 'small' },
    naive: false,
  },
  { id: 'syntax-check-off', label: 'post-edit syntax check off', settings: { syntax_check: false }, naive: false },
  {
    id: 'read-window-off',
    label: 'read window off (ws_read shows whole files, up to the read ceiling)',
    settings: { read_window_lines: NO_WINDOW_LINES },
    naive: false,
  },
  { id: 'over-edit-guard-off', label: 'over-edit guard off', settings: { over_edit_guard: false }, naive: false },
  { id: 'read-before-edit-off', label: 'read-before-edit off', settings: { read_before_edit: false }, naive: false },
  {
    id: 'specialist',
    label:
      'specialist tools on (web_search, web_fetch, mcp_call, find_models; they reach outside only where the host gives access)',
    settings: { specialist_tools: true },
    naive: false,
  },
]);

export type ArmsChoice =
  { readonly ok: true; readonly arms: readonly Arm[] } | { readonly ok: false; readonly text: string };

/** The arms a comma-separated list names, in its order; an unknown or repeated name is a message listing the arms. */
export function chooseArms(list: string): ArmsChoice {
  const ids = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (!ids.length) return { ok: false, text: `name at least one arm: ${ARMS.map((a) => a.id).join(', ')}` };
  const arms: Arm[] = [];
  for (const id of ids) {
    const arm = ARMS.find((a) => a.id === id);
    if (!arm)
      return { ok: false, text: `unknown arm ${JSON.stringify(id)}; the arms are ${ARMS.map((a) => a.id).join(', ')}` };
    if (arms.includes(arm)) return { ok: false, text: `arm ${JSON.stringify(id)} is named twice` };
    arms.push(arm);
  }
  return { ok: true, arms };
}
