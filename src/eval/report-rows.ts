/**
 * The tables of an eval report, as text cells: what the Markdown table and the HTML report both
 * show, computed once. Numbers are formatted here so the two reports never disagree.
 */
import { meaningless } from './model-label.ts';
import { FAILURE_KINDS, type EvalResults, type PairedSummary } from './results-schema.ts';

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
  infrastructure: 'infrastructure (not counted)',
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
  if (r.shard)
    lines.push(
      `Shard ${r.shard.index} of ${r.shard.count}: these runs are one slice of the eval (slm eval merge joins the shards).`,
    );
  const infra = r.runs.filter((x) => x.failure === 'infrastructure').length;
  if (infra)
    lines.push(
      `${infra} run(s) could not be graded (infrastructure: the grader could not start or finish); they are left out of every rate and comparison.`,
    );
  if (r.runs.some((x) => x.tokensEstimated))
    lines.push('Tokens are partly estimated (characters / 4) where the model reported no usage.');
  return lines;
}

/** Pass rate per arm with its interval, steps, tokens and time; with two attempts, pass@1 beside it. */
export function armTable(r: EvalResults): Table {
  const twice = (r.attempts ?? 1) > 1;
  return {
    head: [
      'arm',
      twice ? 'pass@2' : 'pass rate',
      '95% interval (Wilson)',
      'passed / runs',
      ...(twice ? ['pass@1'] : []),
      'mean steps',
      'mean tokens',
      'mean time',
    ],
    rows: r.summary.arms.map((a) => [
      a.arm,
      a.runs ? percent(a.passRate) : '—',
      a.runs ? `${percent(a.ci95[0])} – ${percent(a.ci95[1])}` : '—',
      `${a.passed} / ${a.runs}`,
      ...(twice ? [a.runs ? `${percent((a.passedFirst ?? 0) / a.runs)} (${a.passedFirst ?? 0})` : '—'] : []),
      fixed1(a.meanSteps),
      whole(a.meanTokens),
      seconds(a.meanMs),
    ]),
  };
}

const signed = (x: number): string => `${x > 0 ? '+' : x < 0 ? '−' : '±'}${(Math.abs(x) * 100).toFixed(1)} pts`;
const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : p.toFixed(3));

/**
 * Every other arm against the first over the same task × seed pairs: the pairs where only one
 * arm passed decide the exact McNemar test; the difference's interval is Newcombe's.
 */
export function pairedTable(paired: readonly PairedSummary[]): Table {
  return {
    head: [
      'comparison',
      'pairs',
      'both passed',
      'only first',
      'only second',
      'neither',
      'difference (first − second)',
      '95% interval (Newcombe)',
      'McNemar p (exact)',
      'tasks won (first / second / tie)',
    ],
    rows: paired.map((p) => {
      const w = Object.values(p.winners);
      return [
        `${p.a} vs ${p.b}`,
        String(p.pairs),
        String(p.both),
        String(p.onlyA),
        String(p.onlyB),
        String(p.neither),
        p.pairs ? signed(p.difference) : '—',
        p.pairs ? `${signed(p.ci95[0])} to ${signed(p.ci95[1])}` : '—',
        p.pairs ? pValue(p.pValue) : '—',
        `${w.filter((x) => x === p.a).length} / ${w.filter((x) => x === p.b).length} / ${w.filter((x) => x === null).length}`,
      ];
    }),
  };
}

/** How to read the paired table. */
export const HOW_TO_READ_PAIRED =
  'Paired: both arms ran the same tasks with the same seeds, so each task × seed is a pair. Only the pairs where exactly one arm ' +
  'passed tell the arms apart; the exact McNemar p is the chance of a split at least this uneven if the arms were alike. ' +
  'An interval for the difference that holds 0 does not show a difference.';

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

/** Per task and arm: passes over finished seeds, with the sessions behind the cell, and which arm won each comparison. */
export function taskCells(r: EvalResults): {
  head: string[];
  rows: { task: string; mechanisms: string; cells: Cell[]; winners: string[] }[];
} {
  const paired = r.summary.paired ?? [];
  return {
    head: ['task', 'meant to exercise', ...r.arms.map((a) => a.id), ...paired.map((p) => `won (${p.a} vs ${p.b})`)],
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
      winners: paired.map((p) => (task in p.winners ? (p.winners[task] ?? 'tie') : '—')),
    })),
  };
}

/** How to read the table, under it. */
export const HOW_TO_READ =
  'Pass rate = sessions whose hidden grader passed / sessions that finished. The interval is the 95% Wilson score interval: ' +
  'two arms whose intervals overlap are not shown to differ by this run (more tasks or seeds narrow it). ' +
  'A failure kind says how a failed session ended; a mechanism count is the number of steps in which that ACI mechanism fired.';
