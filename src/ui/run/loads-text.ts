/**
 * What a step's tool call loaded on first use, in one line for the inspector: each part and the
 * milliseconds it took (already counted in the step's tool time).
 */
import type { StepTiming } from '../../agent/step.ts';
import { formatMs } from './step-view.ts';

/** `loaded git (isomorphic-git) in 120 ms`, parts joined by commas; empty when nothing loaded. */
export function loadsText(timing: StepTiming): string {
  const loads = timing.loads ?? [];
  return loads.length ? `loaded ${loads.map((l) => `${l.what} in ${formatMs(l.ms)}`).join(', ')}` : '';
}
