/**
 * The bench's one output: a plain-text table with aligned columns, each of our figures beside
 * a baseline measured in the same run, and the target it is held to (✓ met, ✗ missed).
 * Sections produce rows; this file only lays them out.
 */

/** A target a figure is held to; `met` is null when the figure could not be measured. */
export interface Target {
  readonly text: string;
  readonly met: boolean | null;
}

export interface BenchRow {
  readonly figure: string;
  readonly ours: string;
  readonly baseline: string;
  readonly target?: Target;
}

export interface BenchSection {
  readonly title: string;
  /** What the ours/baseline cells hold, e.g. "desired % / wrong-apply %". */
  readonly unit: string;
  readonly rows: readonly BenchRow[];
  /** One line per case that missed its target, printed by `npm run bench -- --misses`. */
  readonly details?: readonly string[];
}

/** A section of the bench: later sections (patch corpus, bundle size, share-link size) plug in as more of these. */
export interface BenchSectionDef {
  readonly title: string;
  run(): Promise<BenchSection>;
}

const HEADER = ['figure', 'ours', 'baseline', 'target'] as const;

/** Display width in code points (the table uses no wide characters). */
const width = (s: string): number => [...s].length;
const pad = (s: string, w: number): string => s + ' '.repeat(Math.max(0, w - width(s)));

export function targetCell(t: Target | undefined): string {
  if (!t) return '';
  const mark = t.met === null ? '–' : t.met ? '✓' : '✗';
  return `${t.text} ${mark}`;
}

/** Renders every section into one table; each section opens with a title line naming its unit. */
export function renderTable(sections: readonly BenchSection[]): string {
  const cells = sections.flatMap((s) => s.rows.map((r) => [r.figure, r.ours, r.baseline, targetCell(r.target)]));
  const widths = HEADER.map((h, i) => Math.max(width(h), ...cells.map((c) => width(c[i]!))));
  const line = (cols: readonly string[]): string =>
    cols
      .map((c, i) => pad(c, widths[i]!))
      .join('  ')
      .trimEnd();
  const total = widths.reduce((a, b) => a + b, 0) + 2 * (widths.length - 1);
  const out = [line(HEADER), '='.repeat(total)];
  for (const s of sections) {
    const title = `-- ${s.title} [${s.unit}] `;
    out.push(title + '-'.repeat(Math.max(2, total - width(title))));
    for (const r of s.rows) out.push(line([r.figure, r.ours, r.baseline, targetCell(r.target)]));
  }
  return `${out.join('\n')}\n`;
}

/** Every target in the sections, for the summary line. */
export function targetSummary(sections: readonly BenchSection[]): string {
  const targets = sections.flatMap((s) => s.rows.flatMap((r) => (r.target ? [r.target] : [])));
  const met = targets.filter((t) => t.met === true).length;
  const missed = targets.filter((t) => t.met === false).length;
  const unmeasured = targets.length - met - missed;
  return `targets: ${met} met ✓, ${missed} missed ✗${unmeasured ? `, ${unmeasured} not measured –` : ''}`;
}
