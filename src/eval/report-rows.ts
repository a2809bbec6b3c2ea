/**
 * The tables of an eval report, as text cells: what the Markdown table and the HTML report both
 * show, computed once. Numbers are formatted here so the two reports never disagree.
 */
import { meaningless } from './model-label.ts';
import { FAILURE_KINDS, type EvalResults } from './results-schema.ts';

export interface Table {
  readonly head: readonly string[];
  readonly rows: readonly (readonly string[])[];
}

/** A link cell: text, and the session file it opens (relative to the output folder). */
export interface Cell {
  readonly text: string;
  readonly sessions: readonly string[];
}

export const FAILURE_NAMES: Readonly<Record<(typeof FAILURE_KINDS)[number], string>> = {
  'no-valid-call': 'no valid call',
  loop: 'loop',
  'wrong-edit': 'wrong edit',
  'gave-up': 'gave up',
  'step-limit': 'step limit',
  'context-overflow': 'context overflow',
  'model-error': 'model error',
};

export const percent = (x: number): string => `${(x * 100).toFixed(1)}%`;
const fixed1 = (x: number): string => x.toFixed(1);
const seconds = (ms: number): string => `${(ms / 1000).toFixed(1)} s`;
const whole = (x: number): string => Math.round(x).toLocaleString('en-US');

/** The lines above the tables: the label warning first when the numbers mean nothing. */
export function headerLines(r: EvalResults): string[] {
  const lines: string[] = [];
  if (meaningless(r.model)) lines.push(`NOT A MEASUREMENT — ${r.model.label}: ${r.model.note}`);
  lines.push(
    `Model: ${r.model.id} (${r.model.label}). Suite: ${r.suite}, ${Object.keys(r.tasks).length} tasks × ${r.arms.length} arms × ${r.seeds} seed(s).`,
  );
  const planned = Object.keys(r.tasks).length * r.arms.length * r.seeds;
  lines.push(
    r.complete
      ? `All ${r.runs.length} sessions finished.`
      : `Interrupted: ${r.runs.length} of ${planned} sessions finished; the numbers cover those only.`,
  );
  if (r.runs.some((x) => x.tokensEstimated))
    lines.push('Tokens are partly estimated (characters / 4) where the model reported no usage.');
  return lines;
}

/** Pass rate per arm with its interval, steps, tokens and time. */
export function armTable(r: EvalResults): Table {
  return {
    head: ['arm', 'pass rate', '95% interval (Wilson)', 'passed / runs', 'mean steps', 'mean tokens', 'mean time'],
    rows: r.summary.arms.map((a) => [
      a.arm,
      a.runs ? percent(a.passRate) : '—',
      a.runs ? `${percent(a.ci95[0])} – ${percent(a.ci95[1])}` : '—',
      `${a.passed} / ${a.runs}`,
      fixed1(a.meanSteps),
      whole(a.meanTokens),
      seconds(a.meanMs),
    ]),
  };
}

/** Failed runs per arm by kind. */
export function failureTable(r: EvalResults): Table {
  return {
    head: ['arm', ...FAILURE_KINDS.map((k) => FAILURE_NAMES[k])],
    rows: r.summary.arms.map((a) => [a.arm, ...FAILURE_KINDS.map((k) => String(a.failures[k] ?? 0))]),
  };
}

/** Steps each ACI mechanism fired in, per arm (only mechanisms that fired somewhere). */
export function mechanismTable(r: EvalResults): Table {
  const ids = [...new Set(r.summary.arms.flatMap((a) => Object.keys(a.mechanisms)))].sort();
  return {
    head: ['mechanism', ...r.summary.arms.map((a) => a.arm)],
    rows: ids.map((id) => [id, ...r.summary.arms.map((a) => String(a.mechanisms[id] ?? 0))]),
  };
}

/** Per task and arm: passes over finished seeds, with the sessions behind the cell. */
export function taskCells(r: EvalResults): {
  head: string[];
  rows: { task: string; mechanisms: string; cells: Cell[] }[];
} {
  return {
    head: ['task', 'meant to exercise', ...r.arms.map((a) => a.id)],
    rows: Object.entries(r.tasks).map(([task, mechanisms]) => ({
      task,
      mechanisms: mechanisms.join(', '),
      cells: r.arms.map((a) => {
        const runs = r.runs.filter((x) => x.task === task && x.arm === a.id);
        return {
          text: runs.length ? `${runs.filter((x) => x.passed).length}/${runs.length}` : '—',
          sessions: runs.map((x) => x.session),
        };
      }),
    })),
  };
}

/** How to read the table, under it. */
export const HOW_TO_READ =
  'Pass rate = sessions whose hidden grader passed / sessions that finished. The interval is the 95% Wilson score interval: ' +
  'two arms whose intervals overlap are not shown to differ by this run (more tasks or seeds narrow it). ' +
  'A failure kind says how a failed session ended; a mechanism count is the number of steps in which that ACI mechanism fired.';
