/** nestingDepth against a recursive definition, on generated JSON values, and at depths that overflow recursion. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_ARGS_DEPTH, nestingDepth } from './args-depth.ts';

function recursiveDepth(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0;
  return 1 + Math.max(0, ...Object.values(v).map(recursiveDepth));
}

describe('nestingDepth', () => {
  it('is the recursive depth of every generated JSON value, capped', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 8 }), fc.integer({ min: 0, max: 10 }), (v, cap) => {
        expect(nestingDepth(v, cap)).toBe(Math.min(recursiveDepth(v), cap + 1));
      }),
      { numRuns: 500 },
    );
  });

  it('measures a value deeper than the stack allows without overflowing', () => {
    let v: unknown = 1;
    for (let i = 0; i < 200_000; i++) v = [v];
    expect(nestingDepth(v)).toBe(MAX_ARGS_DEPTH + 1);
    expect(nestingDepth(v, Infinity)).toBe(200_000);
  });
});
