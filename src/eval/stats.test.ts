import { describe, expect, it } from 'vitest';
import { mean, wilson } from './stats.ts';

describe('wilson (95%)', () => {
  // Reference values: the Wilson score interval with z = 1.95996 (e.g. R's prop.test without continuity correction).
  it.each([
    [0, 10, 0, 0.2775],
    [1, 10, 0.0179, 0.4042],
    [5, 10, 0.2366, 0.7634],
    [10, 10, 0.7225, 1],
    [18, 24, 0.551, 0.88],
    [1, 1, 0.2065, 1],
  ])('%i of %i → [%f, %f]', (passed, runs, lo, hi) => {
    const [a, b] = wilson(passed, runs);
    expect(a).toBeCloseTo(lo, 4);
    expect(b).toBeCloseTo(hi, 4);
  });

  it('knows nothing from no runs', () => {
    expect(wilson(0, 0)).toEqual([0, 1]);
  });

  it('narrows as runs grow at the same rate, and always holds the rate', () => {
    const widths = [10, 100, 1000].map((n) => {
      const [lo, hi] = wilson(n / 2, n);
      expect(lo).toBeLessThan(0.5);
      expect(hi).toBeGreaterThan(0.5);
      return hi - lo;
    });
    expect(widths[0]).toBeGreaterThan(widths[1]!);
    expect(widths[1]).toBeGreaterThan(widths[2]!);
  });

  it.each([
    [-1, 3],
    [4, 3],
    [1.5, 3],
  ])('refuses %f of %i', (passed, runs) => {
    expect(() => wilson(passed, runs)).toThrow(RangeError);
  });
});

describe('mean', () => {
  it('averages, and is 0 for nothing', () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(mean([])).toBe(0);
  });
});
