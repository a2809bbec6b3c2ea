/**
 * A replay report as text for people: the verdict line (✓ reproduced, with the steps that were
 * equivalent rather than identical and why, or the first divergence with its cause and a short
 * diff), and the step header `slm replay --print` puts above each result.
 * The CLI prints these; the UI shows the same words.
 */
import { divergenceLabel } from './divergence.ts';
import type { ReplayReport, StepCheck } from './replay.ts';

/** `=== step 3 · ws_edit · ✓` (identical), `≈ equivalent`, or `✗ result differs` — the line above a step's result text. */
export function stepHeader(check: StepCheck): string {
  const what = check.tool ?? 'no call';
  const mark = check.divergence
    ? `✗ ${divergenceLabel(check.divergence.kind)}`
    : check.equivalent
      ? '≈ equivalent'
      : '✓';
  const web = check.webFromRecord
    ? ` · ${check.webFromRecord} web request(s) answered from the record, not fetched`
    : '';
  const mcp = check.mcpFromRecord
    ? ` · ${check.mcpFromRecord} MCP exchange(s) answered from the record, no server contacted`
    : '';
  return `=== step ${check.index} · ${what} · ${mark}${web}${mcp}`;
}

/** `2 steps equivalent (memory → memory with Node v22.1.0)`, or '' when every step was identical. */
export function equivalentText(report: Pick<ReplayReport, 'equivalent' | 'equivalentOn'>): string {
  if (report.equivalent === 0) return '';
  const n = report.equivalent;
  return `${n} step${n === 1 ? '' : 's'} equivalent, not identical (recorded → replayed: ${report.equivalentOn.join('; ')})`;
}

/** The verdict: one line when every step reproduced, else the first divergence in full. */
export function formatReplay(report: ReplayReport): string {
  const n = report.steps.length;
  // A backend named with its runtime ("memory with Node v20.20.2") reads as the backend, then the runtime.
  const [kind, runtime] = report.backend.split(' with ');
  const how = `${n} step${n === 1 ? '' : 's'} on the ${kind} backend${runtime ? ` (${runtime})` : ''} in ${Math.round(report.ms)} ms`;
  const version =
    report.recordedVersion === report.replayVersion
      ? ''
      : ` (recorded with engine ${report.recordedVersion}, replayed with ${report.replayVersion})`;
  const d = report.divergence;
  const web =
    (report.webFromRecord
      ? `; ${report.webFromRecord} web request(s) were answered from the record, offline — nothing was fetched`
      : '') +
    (report.mcpFromRecord
      ? `; ${report.mcpFromRecord} MCP listing(s) and call(s) were answered from the record, offline — no server was contacted`
      : '');
  const bounds = report.bounds ? `\nbounds: ${report.bounds}` : '';
  if (!d) {
    const eq = equivalentText(report);
    if (!eq) return `✓ reproduced: ${how}, every result and workspace matches the record${version}${web}${bounds}\n`;
    const steps = report.steps.filter((s) => s.equivalent);
    const detail = steps.map((s) => `step ${s.index} (${s.tool ?? 'no call'}): ${s.equivalent!.why}`);
    return `✓ reproduced: ${how}; ${eq}, every other result and workspace matches the record byte for byte${version}${web}\n${detail.join('\n')}${bounds}\n`;
  }
  const lines = [`✗ diverged at ${d.index === 0 ? 'the start' : `step ${d.index}`} (${d.kind}): ${d.why}`];
  if (d.diff) lines.push(d.diff);
  if (report.laterDivergences)
    lines.push(
      `${report.laterDivergences} later step${report.laterDivergences === 1 ? '' : 's'} differ too, most likely as a consequence.`,
    );
  lines.push(`replayed ${how}${version}${web}${bounds}`);
  return `${lines.join('\n')}\n`;
}
