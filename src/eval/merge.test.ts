import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { ARMS } from './arms.ts';
import { mergeResults, shardOf } from './merge.ts';
import { modelInfo, REFERENCE_MODEL } from './model-label.ts';
import { buildResults } from './results.ts';
import type { EvalRun } from './results-schema.ts';
import { BUILTIN_TASKS } from './tasks/index.ts';

const arms = ARMS.filter((a) => a.id === 'on' || a.id === 'off');
const tasks = BUILTIN_TASKS.slice(0, 3);
const plan = tasks.flatMap((t) => arms.flatMap((a) => [0, 1].map((seed) => ({ task: t.id, arm: a.id, seed }))));
const asRun = (p: (typeof plan)[number], passed: boolean): EvalRun => ({
  ...p,
  passed,
  steps: 3,
  tokens: 900,
  tokensEstimated: false,
  ms: 10,
  session: `sessions/${p.task}.${p.arm}.s${p.seed}.session.json`,
  failure: passed ? null : 'gave-up',
  stop: 'done',
  mechanisms: {},
  grader: { passed: passed ? 1 : 0, failed: passed ? 0 : 1 },
});
const results = (runs: EvalRun[], shard?: { index: number; count: number }) =>
  buildResults({
    suite: 'builtin',
    model: modelInfo(REFERENCE_MODEL),
    createdAt: '2026-12-01T00:00:00.000Z',
    arms,
    seeds: 2,
    tasks,
    runs,
    complete: true,
    ...(shard && { shard }),
  });

describe('shardOf', () => {
  it('splits any plan into disjoint shards that together hold it, in order', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(), { maxLength: 60 }), fc.integer({ min: 1, max: 9 }), (items, count) => {
        const shards = Array.from({ length: count }, (_, i) => shardOf(items, i + 1, count));
        expect(shards.flat().sort((a, b) => a - b)).toEqual([...items].sort((a, b) => a - b));
        expect(shards.reduce((n, s) => n + s.length, 0)).toBe(items.length);
      }),
    );
  });

  it('refuses an index outside 1…count', () => {
    expect(() => shardOf([1], 0, 2)).toThrow(RangeError);
    expect(() => shardOf([1], 3, 2)).toThrow(/1 ≤ index ≤ count/);
  });
});

describe('mergeResults', () => {
  it('joins any split of the runs into the summary of the whole, for any outcomes', () => {
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: plan.length, maxLength: plan.length }),
        fc.integer({ min: 1, max: 5 }),
        (passes, count) => {
          const all = plan.map((p, i) => asRun(p, passes[i]!));
          const whole = results(all);
          const parts = Array.from({ length: count }, (_, i) =>
            results(shardOf(all, i + 1, count), { index: i + 1, count }),
          );
          const merged = mergeResults(
            parts.reverse(),
            parts.map((_, i) => `shard${i}`),
          );
          expect(merged.ok).toBe(true);
          if (!merged.ok) return;
          expect(merged.missing).toEqual([]);
          expect(merged.results.runs).toEqual(whole.runs);
          expect(merged.results.summary).toEqual(whole.summary);
          expect(merged.results.shard).toBeUndefined();
        },
      ),
      { numRuns: 40 },
    );
  });

  it('names what is missing, refuses overlaps and another eval', () => {
    const all = plan.map((p) => asRun(p, true));
    const half = mergeResults([results(all.slice(0, 4))], ['a']);
    expect(half.ok && half.missing.length).toBe(plan.length - 4);
    expect(half.ok && half.results.complete).toBe(false);
    const twice = mergeResults([results(all.slice(0, 2)), results(all.slice(1, 3))], ['a', 'b']);
    expect(twice).toMatchObject({ ok: false, text: expect.stringContaining('is in both a and b') });
    const other = {
      ...results(all),
      model: { ...modelInfo(REFERENCE_MODEL), id: 'openai:x#y', label: 'real' as const },
    };
    expect(mergeResults([results(all), other], ['a', 'b'])).toMatchObject({
      ok: false,
      text: expect.stringContaining('b is from another eval: its model is openai:x#y (real)'),
    });
  });
});
