/**
 * The start screen's initial run settings (the loop's and the engine's own defaults), apart
 * from their bounds in run-settings.ts, so the engine worker's first chunk can offer them
 * without loading the schema library that checks a configuration.
 */
import { LOOP_DEFAULTS } from '../agent/loop-defaults.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import type { RunSettings } from './protocol.ts';

/** The start screen's initial values. */
export const RUN_DEFAULTS: RunSettings = Object.freeze({
  maxSteps: LOOP_DEFAULTS.maxSteps,
  approval: 'auto',
  temperature: LOOP_DEFAULTS.temperature,
  seed: LOOP_DEFAULTS.seed,
  maxToolChars: DEFAULT_SETTINGS.max_tool_chars,
  readWindowLines: DEFAULT_SETTINGS.read_window_lines,
  contextTokens: LOOP_DEFAULTS.contextTokens,
  paceMs: 700,
  toolSet: DEFAULT_SETTINGS.tool_set,
});
