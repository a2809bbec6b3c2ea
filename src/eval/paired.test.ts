import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { comparePaired, mcnemarExact, pairedDifferenceInterval, taskWinner, type PairedRun } from './paired.ts';

/** The exact tail by integer arithmetic: 2 · Σ_{i ≤ min(b,c)} C(n, i) / 2^n. */
function exactByBigInt(b: number, c: number): number {
  const n = b + c;
  if (n === 0) return 1;
  let row = 1n;
  let tail = 0n;
  for (let i = 0; i <= Math.min(b, c); i++) {
    tail += row;
    row = (row * BigInt(n - i)) / BigInt(i + 1);
  }
  const scaled = (2n * tail * 10n ** 15n) / 2n ** BigInt(n);
  return Math.min(1, Number(scaled) / 1e15);
}

describe('mcnemarExact', () => {
  it.each([
    // [only A passed, only B passed, p worked by hand]
    [9, 2, (2 * (1 + 11 + 55)) / 2048], // n = 11: C(11,0..2) = 1, 11, 55
    [10, 1, (2 * (1 + 11)) / 2048],
    [6, 0, 2 / 64],
    [0, 6, 2 / 64],
    [3, 3, 1], // 2 · (1+6+15+20)/64 = 1.3125, capped at 1
    [0, 0, 1], // no discordant pair: nothing tells the arms apart
    [1, 0, 1], // 2 · ½ = 1
    [5, 1, (2 * (1 + 6)) / 64],
  ])('b=%i c=%i gives %f', (b, c, p) => {
    expect(mcnemarExact(b, c)).toBeCloseTo(p, 12);
  });

  it('matches integer arithmetic for any counts up to 300', () => {
    fc.assert(
      fc.property(fc.nat(300), fc.nat(300), (b, c) => {
        expect(Math.abs(mcnemarExact(b, c) - exactByBigInt(b, c))).toBeLessThan(1e-9);
      }),
    );
  });

  it('refuses counts that are not whole numbers', () => {
    expect(() => mcnemarExact(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExact(1.5, 2)).toThrow(/whole counts/);
  });
});

describe('pairedDifferenceInterval', () => {
  it("works Newcombe's method 10 out for a = 12, b = 9, c = 2, d = 21", () => {
    // p1 = 21/44, p2 = 14/44; Wilson(21, 44) = [0.33755, 0.62065], Wilson(14, 44) = [0.19999, 0.46557];
    // phi = (12·21 − 9·2 − 44/2) / √(21·23·14·30) = 0.47069; δ = 7/44 = 0.15909.
    const [lo, hi] = pairedDifferenceInterval({ both: 12, onlyA: 9, onlyB: 2, neither: 21 });
    expect(lo).toBeCloseTo(0.0112425, 6);
    expect(hi).toBeCloseTo(0.2953718, 6);
  });

  it('holds the estimate and stays inside [−1, 1] for any table', () => {
    fc.assert(
      fc.property(fc.nat(60), fc.nat(60), fc.nat(60), fc.nat(60), (both, onlyA, onlyB, neither) => {
        const n = both + onlyA + onlyB + neither;
        const [lo, hi] = pairedDifferenceInterval({ both, onlyA, onlyB, neither });
        expect(lo).toBeGreaterThanOrEqual(-1);
        expect(hi).toBeLessThanOrEqual(1);
        if (n > 0) {
          const delta = (onlyA - onlyB) / n;
          expect(lo).toBeLessThanOrEqual(delta + 1e-12);
          expect(hi).toBeGreaterThanOrEqual(delta - 1e-12);
        }
      }),
    );
  });

  it('is [−1, 1] with no pairs, and symmetric when the arms swap', () => {
    expect(pairedDifferenceInterval({ both: 0, onlyA: 0, onlyB: 0, neither: 0 })).toEqual([-1, 1]);
    const [lo, hi] = pairedDifferenceInterval({ both: 3, onlyA: 5, onlyB: 1, neither: 4 });
    const [lo2, hi2] = pairedDifferenceInterval({ both: 3, onlyA: 1, onlyB: 5, neither: 4 });
    expect(lo2).toBeCloseTo(-hi, 12);
    expect(hi2).toBeCloseTo(-lo, 12);
  });
});

describe('comparePaired', () => {
  const run = (task: string, arm: string, seed: number, passed: boolean): PairedRun => ({ task, arm, seed, passed });
  const runs: PairedRun[] = [
    run('t1', 'on', 0, true),
    run('t1', 'off', 0, false),
    run('t1', 'on', 1, true),
    run('t1', 'off', 1, true),
    run('t2', 'on', 0, false),
    run('t2', 'off', 0, true),
    run('t3', 'on', 0, true),
    run('t3', 'off', 0, false),
    run('t4', 'on', 0, false), // its off run did not finish: not a pair
  ];

  it('counts only task × seed pairs both arms finished', () => {
    const c = comparePaired(runs, 'on', 'off');
    expect(c).toMatchObject({ a: 'on', b: 'off', pairs: 4, both: 1, onlyA: 2, onlyB: 1, neither: 0 });
    expect(c.difference).toBeCloseTo(1 / 4, 12);
    expect(c.pValue).toBeCloseTo(1, 12); // 2 · (1 + 3)/8 = 1
  });

  it('names the arm that passed more seeds of a task, or a tie', () => {
    expect(taskWinner(runs, 't1', 'on', 'off')).toBe('on');
    expect(taskWinner(runs, 't2', 'on', 'off')).toBe('off');
    expect(taskWinner([run('t', 'on', 0, true), run('t', 'off', 0, true)], 't', 'on', 'off')).toBeNull();
  });
});
