/**
 * Paired comparison of two arms over the same task × seed pairs: the 2×2 table of outcomes,
 * the exact McNemar test on the discordant pairs, and a 95% interval for the difference in
 * pass rates (Newcombe's hybrid score interval for paired proportions, his method 10). Two arms
 * run on the same tasks and seeds are not independent samples: only the pairs where exactly
 * one arm passed say anything about which arm is better.
 */
import { wilson } from './stats.ts';

/** The four outcomes of the pairs. */
export interface PairCounts {
  /** Both arms passed. */
  readonly both: number;
  /** Only the first arm (a) passed. */
  readonly onlyA: number;
  /** Only the second arm (b) passed. */
  readonly onlyB: number;
  /** Neither passed. */
  readonly neither: number;
}

/** Binomial coefficient C(n, k) as a float, computed by products (exact for the sizes an eval has). */
function choose(n: number, k: number): number {
  let c = 1;
  for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
  return c;
}

/**
 * The two-sided exact McNemar p-value: under "the arms are alike", each discordant pair is a
 * fair coin, so p = 2 · P(X ≤ min(b, c)) for X ~ Binomial(b + c, ½), capped at 1. No discordant
 * pair gives 1 (nothing tells the arms apart).
 */
export function mcnemarExact(onlyA: number, onlyB: number): number {
  if (![onlyA, onlyB].every((x) => Number.isInteger(x) && x >= 0))
    throw new RangeError(`mcnemarExact: need whole counts ≥ 0, got ${onlyA} and ${onlyB}`);
  const n = onlyA + onlyB;
  if (n === 0) return 1;
  const k = Math.min(onlyA, onlyB);
  let tail = 0;
  for (let i = 0; i <= k; i++) tail += choose(n, i);
  // 0.5^n in steps, so a large n underflows gracefully instead of to 0 too early.
  return Math.min(1, 2 * tail * Math.pow(0.5, n));
}

/**
 * Newcombe's interval (1998, method 10) for pA − pB from paired counts: each arm's Wilson
 * interval, combined with the correlation of the pairs (phi, with his continuity adjustment).
 * It stays inside [−1, 1] and is honest at 0 and all passes. No pairs gives [−1, 1].
 */
export function pairedDifferenceInterval(c: PairCounts): readonly [number, number] {
  const { both: a, onlyA: b, onlyB: cc, neither: d } = c;
  const n = a + b + cc + d;
  if (n === 0) return [-1, 1];
  const p1 = (a + b) / n;
  const p2 = (a + cc) / n;
  const [l1, u1] = wilson(a + b, n);
  const [l2, u2] = wilson(a + cc, n);
  const denom = Math.sqrt((a + b) * (cc + d) * (a + cc) * (b + d));
  let phi = 0;
  if (denom > 0) {
    const cross = a * d - b * cc;
    phi = (cross > 0 ? Math.max(cross - n / 2, 0) : cross) / denom;
  }
  const delta = p1 - p2;
  const lower = delta - Math.sqrt(Math.max(0, (p1 - l1) ** 2 - 2 * phi * (p1 - l1) * (u2 - p2) + (u2 - p2) ** 2));
  const upper = delta + Math.sqrt(Math.max(0, (p2 - l2) ** 2 - 2 * phi * (p2 - l2) * (u1 - p1) + (u1 - p1) ** 2));
  return [Math.max(-1, lower), Math.min(1, upper)];
}

/** One arm-against-arm comparison over their shared pairs. */
export interface PairedComparison extends PairCounts {
  readonly a: string;
  readonly b: string;
  /** Pairs where both arms finished (the runs the comparison rests on). */
  readonly pairs: number;
  /** pA − pB over the pairs. */
  readonly difference: number;
  readonly ci95: readonly [number, number];
  /** Two-sided exact McNemar p-value. */
  readonly pValue: number;
}

/** A finished, graded run as the comparison sees it. */
export interface PairedRun {
  readonly task: string;
  readonly arm: string;
  readonly seed: number;
  readonly passed: boolean;
}

const pairKey = (r: PairedRun): string => `${r.task}\0${r.seed}`;

/** Compares arm `a` with arm `b` over every task × seed both of them finished. */
export function comparePaired(runs: readonly PairedRun[], a: string, b: string): PairedComparison {
  const ofB = new Map(runs.filter((r) => r.arm === b).map((r) => [pairKey(r), r.passed]));
  let both = 0;
  let onlyA = 0;
  let onlyB = 0;
  let neither = 0;
  for (const r of runs) {
    if (r.arm !== a) continue;
    const other = ofB.get(pairKey(r));
    if (other === undefined) continue;
    if (r.passed && other) both++;
    else if (r.passed) onlyA++;
    else if (other) onlyB++;
    else neither++;
  }
  const counts = { both, onlyA, onlyB, neither };
  const pairs = both + onlyA + onlyB + neither;
  return {
    a,
    b,
    ...counts,
    pairs,
    difference: pairs ? (onlyA - onlyB) / pairs : 0,
    ci95: pairedDifferenceInterval(counts),
    pValue: mcnemarExact(onlyA, onlyB),
  };
}

/** Which arm passed more seeds of a task: an arm id, or null for a tie. */
export function taskWinner(runs: readonly PairedRun[], task: string, a: string, b: string): string | null {
  const passes = (arm: string) => runs.filter((r) => r.task === task && r.arm === arm && r.passed).length;
  const pa = passes(a);
  const pb = passes(b);
  return pa === pb ? null : pa > pb ? a : b;
}
