/** Assembling results.json from an eval's finished runs (the summary is always recomputed from the runs). */
import type { Arm } from './arms.ts';
import { RESULTS_VERSION, type EvalResults, type EvalRun, type ModelInfo } from './results-schema.ts';
import { summarize } from './summary.ts';
import type { EvalTask } from './task.ts';

export interface ResultsInput {
  readonly suite: string;
  readonly model: ModelInfo;
  readonly createdAt: string;
  readonly arms: readonly Arm[];
  readonly seeds: number;
  readonly tasks: readonly EvalTask[];
  readonly runs: readonly EvalRun[];
  readonly complete: boolean;
  readonly shard?: { readonly index: number; readonly count: number };
  readonly attempts?: number;
}

export function buildResults(i: ResultsInput): EvalResults {
  return {
    v: RESULTS_VERSION,
    suite: i.suite,
    model: i.model,
    createdAt: i.createdAt,
    complete: i.complete,
    arms: i.arms.map((a) => ({ id: a.id, label: a.label, settings: { ...a.settings }, naive: a.naive })),
    seeds: i.seeds,
    ...(i.attempts !== undefined && i.attempts > 1 && { attempts: i.attempts }),
    tasks: Object.fromEntries(i.tasks.map((t) => [t.id, [...t.mechanisms]])),
    runs: [...i.runs],
    summary: summarize(
      i.runs,
      i.arms.map((a) => a.id),
    ),
    ...(i.shard && { shard: { ...i.shard } }),
  };
}
