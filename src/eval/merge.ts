/**
 * Joining the results of an eval's shards (`slm eval --shard I/N`, run anywhere) into one
 * results file: the shards must be of the same suite, model, arms (with their settings), seeds
 * and tasks; no run may appear twice; the summary is recomputed from the joined runs, and the
 * runs the plan holds that no shard has are named.
 */
import type { EvalResults, EvalRun } from './results-schema.ts';
import { summarize } from './summary.ts';

export type MergeOutcome =
  | { readonly ok: true; readonly results: EvalResults; readonly missing: readonly string[] }
  | { readonly ok: false; readonly text: string };

const runKey = (task: string, arm: string, seed: number): string => `${task} ${arm} s${seed}`;

/** What two shards must agree on, as comparable text, with the name of each part. */
function identity(r: EvalResults): [string, string][] {
  return [
    ['suite', r.suite],
    ['model', `${r.model.id} (${r.model.label})`],
    ['arms', JSON.stringify(r.arms.map((a) => [a.id, a.naive, a.settings]))],
    ['seeds', String(r.seeds)],
    ['attempts', String(r.attempts ?? 1)],
    ['tasks', JSON.stringify(Object.keys(r.tasks).sort())],
  ];
}

/** The runs the plan of `r` holds (every task × arm × seed), in plan order. */
function planned(r: EvalResults): string[] {
  return Object.keys(r.tasks).flatMap((task) =>
    r.arms.flatMap((arm) => Array.from({ length: r.seeds }, (_, seed) => runKey(task, arm.id, seed))),
  );
}

/**
 * Joins `parts` (named by `names`, e.g. their folders, for messages). Refuses parts that disagree
 * on what was run, or that hold the same run twice.
 */
export function mergeResults(parts: readonly EvalResults[], names: readonly string[]): MergeOutcome {
  const first = parts[0];
  if (!first) return { ok: false, text: 'nothing to merge: give at least one shard folder' };
  const want = identity(first);
  for (const [i, part] of parts.entries()) {
    const got = identity(part);
    for (const [j, [what, value]] of want.entries()) {
      if (got[j]![1] !== value)
        return {
          ok: false,
          text: `${names[i]} is from another eval: its ${what} is ${got[j]![1]}, but ${names[0]}'s is ${value}; merge only shards of one eval`,
        };
    }
  }
  const seen = new Map<string, string>();
  const runs: EvalRun[] = [];
  for (const [i, part] of parts.entries()) {
    for (const run of part.runs) {
      const key = runKey(run.task, run.arm, run.seed);
      const before = seen.get(key);
      if (before !== undefined)
        return {
          ok: false,
          text: `the run ${key} is in both ${before} and ${names[i]}: shards must not overlap (was one shard given twice?)`,
        };
      seen.set(key, names[i]!);
      runs.push(run);
    }
  }
  const order = planned(first);
  const position = new Map(order.map((k, i) => [k, i]));
  runs.sort((a, b) => position.get(runKey(a.task, a.arm, a.seed))! - position.get(runKey(b.task, b.arm, b.seed))!);
  const missing = order.filter((k) => !seen.has(k));
  const { shard: _shard, ...rest } = first;
  return {
    ok: true,
    missing,
    results: {
      ...rest,
      createdAt: parts.map((p) => p.createdAt).sort()[0]!,
      complete: missing.length === 0 && parts.every((p) => p.complete),
      runs,
      summary: summarize(
        runs,
        first.arms.map((a) => a.id),
      ),
    },
  };
}

/** The slice of `plan` shard `index` of `count` runs: every count-th item from index − 1, so each shard mixes tasks. */
export function shardOf<T>(plan: readonly T[], index: number, count: number): T[] {
  if (!Number.isInteger(index) || !Number.isInteger(count) || count < 1 || index < 1 || index > count)
    throw new RangeError(`shardOf: need 1 ≤ index ≤ count, got ${index}/${count}`);
  return plan.filter((_, i) => i % count === index - 1);
}
