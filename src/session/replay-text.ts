/**
 * A replay report as text for people: the verdict line (✓ reproduced, or the first divergence
 * with why and a short diff), and the step header `slm replay --print` puts above each result.
 * The CLI prints these; the UI shows the same words.
 */
import { divergenceLabel } from './divergence.ts';
import type { ReplayReport, StepCheck } from './replay.ts';

/** `=== step 3 · ws_edit · ✓` — the line above a step's result text. */
export function stepHeader(check: StepCheck): string {
  const what = check.tool ?? 'no call';
  const mark = check.divergence ? `✗ ${divergenceLabel(check.divergence.kind)}` : '✓';
  const web = check.webFromRecord
    ? ` · ${check.webFromRecord} web request(s) answered from the record, not fetched`
    : '';
  return `=== step ${check.index} · ${what} · ${mark}${web}`;
}

/** The verdict: one line when every step reproduced, else the first divergence in full. */
export function formatReplay(report: ReplayReport): string {
  const n = report.steps.length;
  const how = `${n} step${n === 1 ? '' : 's'} on the ${report.backend} backend in ${Math.round(report.ms)} ms`;
  const version =
    report.recordedVersion === report.replayVersion
      ? ''
      : ` (recorded with engine ${report.recordedVersion}, replayed with ${report.replayVersion})`;
  const d = report.divergence;
  const web = report.webFromRecord
    ? `; ${report.webFromRecord} web request(s) were answered from the record, offline — nothing was fetched`
    : '';
  if (!d) return `✓ reproduced: ${how}, every result and workspace matches the record${version}${web}\n`;
  const lines = [`✗ diverged at ${d.index === 0 ? 'the start' : `step ${d.index}`} (${d.kind}): ${d.why}`];
  if (d.diff) lines.push(d.diff);
  if (report.laterDivergences)
    lines.push(
      `${report.laterDivergences} later step${report.laterDivergences === 1 ? '' : 's'} differ too, most likely as a consequence.`,
    );
  lines.push(`replayed ${how}${version}${web}`);
  return `${lines.join('\n')}\n`;
}
