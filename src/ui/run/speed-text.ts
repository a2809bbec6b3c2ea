/**
 * A live reply's speed in one line for the inspector: time to the first token, how fast the
 * prompt was read (prefill) and the reply written (decode), and the prompt tokens the KV cache
 * saved. Figures the engine measured itself are marked as such.
 */
import type { StepSpeed } from '../../worker/client.ts';
import { formatMs } from './step-view.ts';

export function speedText(s: StepSpeed): string {
  const parts = [`first token ${formatMs(s.ttftMs)}`];
  if (s.prefillTps !== undefined) parts.push(`prefill ${tps(s.prefillTps)}`);
  if (s.decodeTps !== undefined) parts.push(`decode ${tps(s.decodeTps)}`);
  if (s.cachedTokens) parts.push(`${s.cachedTokens} prompt tokens from the KV cache`);
  parts.push(`${formatMs(s.elapsedMs)} in all`);
  return `${parts.join(' · ')}${s.source === 'engine' ? ' (engine timings)' : ''}`;
}

function tps(v: number): string {
  return `${v >= 100 ? Math.round(v) : v.toFixed(1)} tok/s`;
}
