/** Timing helpers for the bench: repeated runs, median and p90, milliseconds formatted alike. */

export interface Timing {
  readonly median: number;
  readonly p90: number;
  readonly runs: number;
}

/** The q-quantile (0..1) of sorted samples, nearest rank. */
function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return Number.NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1));
  return sorted[i]!;
}

export function summarize(samples: readonly number[]): Timing {
  const sorted = [...samples].sort((a, b) => a - b);
  return { median: quantile(sorted, 0.5), p90: quantile(sorted, 0.9), runs: samples.length };
}

export interface TimeOptions {
  readonly runs: number;
  /** Untimed runs first, so JIT and file caches are warm. */
  readonly warmup?: number;
  /** Untimed work before every run (restore a file, read it so the edit is allowed). */
  readonly before?: () => Promise<void>;
}

/** Times `fn` `runs` times in milliseconds. */
export async function timeRuns(fn: () => Promise<unknown>, opts: TimeOptions): Promise<Timing> {
  const samples: number[] = [];
  for (let i = 0; i < (opts.warmup ?? 3) + opts.runs; i++) {
    await opts.before?.();
    const t0 = performance.now();
    await fn();
    const ms = performance.now() - t0;
    if (i >= (opts.warmup ?? 3)) samples.push(ms);
  }
  return summarize(samples);
}

export function ms(x: number): string {
  if (!Number.isFinite(x)) return 'n/a';
  return x < 10 ? `${x.toFixed(2)} ms` : x < 100 ? `${x.toFixed(1)} ms` : `${Math.round(x)} ms`;
}

/** "median / p90" of a timing. */
export function timingCell(t: Timing): string {
  return `${ms(t.median)} / ${ms(t.p90)}`;
}

export function pct(n: number, of: number): string {
  return of === 0 ? 'n/a' : `${((100 * n) / of).toFixed(1)}%`;
}
