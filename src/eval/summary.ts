/** The summary per arm of an eval's runs: pass rate with its Wilson interval, means, failures and mechanisms. */
import type { ArmSummary, EvalRun } from './results-schema.ts';
import { mean, wilson } from './stats.ts';

function tally(into: Record<string, number>, key: string, by = 1): void {
  into[key] = (into[key] ?? 0) + by;
}

/** One summary per arm, in `armIds`' order (an arm with no finished run has zero runs and the interval [0, 1]). */
export function summarize(runs: readonly EvalRun[], armIds: readonly string[]): { arms: ArmSummary[] } {
  return {
    arms: armIds.map((arm) => {
      const mine = runs.filter((r) => r.arm === arm);
      const passed = mine.filter((r) => r.passed).length;
      const failures: Record<string, number> = {};
      const mechanisms: Record<string, number> = {};
      for (const r of mine) {
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
      };
    }),
  };
}
