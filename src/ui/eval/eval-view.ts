/** The Eval page's pure helpers: how numbers are written, the task × arm grid of runs, and the on/off pairs the split view can open. */
import type { EvalRun } from '../../worker/client.ts';

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`;
}

/** `[lo, hi]` as `41–73%`. */
export function interval([lo, hi]: readonly [number, number]): string {
  return `${Math.round(lo * 100)}–${Math.round(hi * 100)}%`;
}

/** A mean rounded for a table: whole numbers from 10 up, one decimal below. */
export function meanText(x: number): string {
  return x >= 10 ? String(Math.round(x)) : x.toFixed(1);
}

/** One row of the grid: a task, and its runs per arm in seed order. */
export interface GridRow {
  readonly task: string;
  readonly cells: ReadonlyMap<string, readonly EvalRun[]>;
}

/** The runs as task × arm, tasks in `taskOrder` first (then any other task the runs name), seeds in order. */
export function runGrid(runs: readonly EvalRun[], taskOrder: readonly string[]): GridRow[] {
  const tasks = [...new Set([...taskOrder.filter((t) => runs.some((r) => r.task === t)), ...runs.map((r) => r.task)])];
  return tasks.map((task) => {
    const cells = new Map<string, EvalRun[]>();
    for (const r of runs.filter((x) => x.task === task).sort((a, b) => a.seed - b.seed))
      cells.set(r.arm, [...(cells.get(r.arm) ?? []), r]);
    return { task, cells };
  });
}

/** The seeds of `row` that ran on both `a` and `b`, each with its two runs: what "compare" opens side by side. */
export function pairs(row: GridRow, a: string, b: string): { seed: number; a: EvalRun; b: EvalRun }[] {
  const left = row.cells.get(a) ?? [];
  const right = row.cells.get(b) ?? [];
  return left.flatMap((x) => {
    const y = right.find((r) => r.seed === x.seed);
    return y ? [{ seed: x.seed, a: x, b: y }] : [];
  });
}
