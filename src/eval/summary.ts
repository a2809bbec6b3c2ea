/**
 * The summary of an eval's runs: per arm the pass rate with its Wilson interval, means, failures
 * and mechanisms; and every other arm against the first over their shared task × seed pairs.
 * Runs whose grader could not run (`infrastructure`) measure nothing about the model: they are
 * counted apart and left out of rates and pairs.
 */
import { comparePaired, taskWinner } from './paired.ts';
import type { ArmSummary, EvalRun, PairedSummary } from './results-schema.ts';
import { mean, wilson } from './stats.ts';

function tally(into: Record<string, number>, key: string, by = 1): void {
  into[key] = (into[key] ?? 0) + by;
}

/** Runs that measure the model: every run but those the grader could not run. */
export function measuredRuns(runs: readonly EvalRun[]): EvalRun[] {
  return runs.filter((r) => r.failure !== 'infrastructure');
}

function armSummary(runs: readonly EvalRun[], arm: string): ArmSummary {
  const all = runs.filter((r) => r.arm === arm);
  const mine = measuredRuns(all);
  const passed = mine.filter((r) => r.passed).length;
  const failures: Record<string, number> = {};
  const mechanisms: Record<string, number> = {};
  for (const r of all) {
    if (r.failure) tally(failures, r.failure);
    for (const [id, n] of Object.entries(r.mechanisms)) tally(mechanisms, id, n);
  }
  const [lo, hi] = wilson(passed, mine.length);
  return {
    arm,
    runs: mine.length,
    passed,
    passRate: mine.length ? passed / mine.length : 0,
    ci95: [lo, hi],
    meanSteps: mean(mine.map((r) => r.steps)),
    meanTokens: mean(mine.map((r) => r.tokens)),
    meanMs: mean(mine.map((r) => r.ms)),
    failures,
    mechanisms,
    infrastructure: all.length - mine.length,
    ...(mine.some((r) => r.passedFirst !== undefined) && {
      passedFirst: mine.filter((r) => r.passedFirst).length,
    }),
  };
}

/** Every arm after the first against the first, with the task each pair of arms split on. */
function pairedSummaries(runs: readonly EvalRun[], armIds: readonly string[]): PairedSummary[] {
  const measured = measuredRuns(runs);
  const tasks = [...new Set(measured.map((r) => r.task))];
  const [first, ...rest] = armIds;
  if (first === undefined) return [];
  return rest.map((other) => {
    const c = comparePaired(measured, first, other);
    return {
      ...c,
      ci95: [c.ci95[0], c.ci95[1]],
      winners: Object.fromEntries(tasks.map((t) => [t, taskWinner(measured, t, first, other)])),
    };
  });
}

/** One summary per arm, in `armIds`' order (an arm with no finished run has zero runs and the interval [0, 1]). */
export function summarize(
  runs: readonly EvalRun[],
  armIds: readonly string[],
): { arms: ArmSummary[]; paired: PairedSummary[] } {
  return { arms: armIds.map((arm) => armSummary(runs, arm)), paired: pairedSummaries(runs, armIds) };
}
