/** Pass-rate statistics: the 95% Wilson score interval, which stays inside [0, 1] and is honest at 0 and n passes. */

/** The normal quantile for a two-sided 95% interval. */
const Z95 = 1.959963984540054;

/** The Wilson score interval of `passed` successes in `runs` trials; no runs gives [0, 1] (nothing is known). */
export function wilson(passed: number, runs: number, z = Z95): readonly [number, number] {
  if (!Number.isInteger(passed) || !Number.isInteger(runs) || passed < 0 || runs < 0 || passed > runs) {
    throw new RangeError(`wilson: need whole numbers 0 ≤ passed ≤ runs, got ${passed} of ${runs}`);
  }
  if (runs === 0) return [0, 1];
  const p = passed / runs;
  const z2 = z * z;
  const denom = 1 + z2 / runs;
  const centre = (p + z2 / (2 * runs)) / denom;
  const half = (z * Math.sqrt((p * (1 - p)) / runs + z2 / (4 * runs * runs))) / denom;
  // Rounding can leave a hair outside [0, 1] at p = 0 or 1.
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

/** The mean of `xs`; 0 for none. */
export function mean(xs: readonly number[]): number {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0;
}
