/**
 * What bounds a replay, whatever the record asks: a record's timeouts (shell_timeout, its cap,
 * web_timeout) are clamped to this build's defaults, and the whole replay has a deadline, so a
 * record with 600 s timeouts and 1,000 steps cannot keep `slm replay` or a link busy for days.
 * Both are said in the replay's report.
 */
import { DEFAULT_SETTINGS, type EngineSettings } from '../engine/settings.ts';

/** How long a whole replay may run, in ms. */
export const REPLAY_DEADLINE_MS = 10 * 60_000;

/** The settings a record's timeouts are clamped to: this build's own defaults. */
const CLAMPS = {
  shell_timeout: DEFAULT_SETTINGS.shell_timeout,
  shell_timeout_cap: DEFAULT_SETTINGS.shell_timeout_cap,
  web_timeout: DEFAULT_SETTINGS.web_timeout,
} as const;

/** `settings` with every timeout over its clamp brought down to it, and one phrase per clamp made. */
export function clampTimeouts(settings: EngineSettings): {
  readonly settings: EngineSettings;
  readonly clamped: readonly string[];
} {
  const out: Record<string, unknown> = { ...settings };
  const clamped: string[] = [];
  for (const [key, max] of Object.entries(CLAMPS) as [keyof typeof CLAMPS, number][]) {
    if (settings[key] > max) {
      clamped.push(`${key} ${settings[key]} ms → ${max} ms`);
      out[key] = max;
    }
  }
  return { settings: out as unknown as EngineSettings, clamped };
}

/** A deadline for people: seconds, or ms under one. */
function limitText(deadlineMs: number): string {
  return deadlineMs < 1000 ? `${deadlineMs} ms` : `${Math.round(deadlineMs / 1000)} s`;
}

/** Why a replay ended before its last step when its deadline did it (for the missing step's divergence). */
export function deadlineText(deadlineMs: number): string {
  return `it reached the whole replay's deadline of ${limitText(deadlineMs)}`;
}

/** The sentence a replay report carries about its bounds; '' when neither bound changed anything. */
export function boundsText(clamped: readonly string[], deadlineMs: number, hit: boolean): string {
  if (!clamped.length && !hit) return '';
  const limit = limitText(deadlineMs);
  const timeouts = clamped.length
    ? `the record's timeouts were clamped to this replay's defaults (${clamped.join(', ')})`
    : '';
  const deadline = hit
    ? `the replay stopped at its deadline of ${limit}: the steps after it were not replayed`
    : `the whole replay had a deadline of ${limit}`;
  return [timeouts, deadline].filter(Boolean).join('; ');
}
