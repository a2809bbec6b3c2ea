/**
 * Run settings: their bounds, and how they become engine settings (their defaults are
 * run-defaults.ts). The worker checks every configuration it is given, because a run
 * configuration may one day come from a shared link rather than from this page's form.
 */
import { z } from 'zod';
import type { EngineSettings } from '../engine/settings.ts';
import type { RunSettings } from './protocol.ts';

export { RUN_DEFAULTS } from './run-defaults.ts';

const int = (min: number, max: number) => z.number().int().min(min).max(max);

const runSettingsSchema = z.strictObject({
  maxSteps: int(1, 200),
  approval: z.enum(['auto', 'ask']),
  temperature: z.number().min(0).max(2),
  seed: int(0, 2 ** 31 - 1),
  maxToolChars: int(500, 200_000),
  readWindowLines: int(10, 2000),
  contextTokens: int(2048, 131_072),
  paceMs: int(0, 10_000),
  toolSet: z.enum(['full', 'small']),
});

/** The settings when they are in bounds; otherwise an Error naming each bad field. */
export function checkRunSettings(settings: unknown): RunSettings {
  const parsed = runSettingsSchema.safeParse(settings);
  if (!parsed.success) throw new Error(`The run settings are not usable:\n${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

/** The engine settings a run uses: the result cap, the read window, the read ceiling following the context window, and the tool set. */
export function engineSettingsFor(s: RunSettings): Partial<EngineSettings> {
  return {
    max_tool_chars: s.maxToolChars,
    read_window_lines: s.readWindowLines,
    context_window_tokens: s.contextTokens,
    tool_set: s.toolSet,
  };
}
