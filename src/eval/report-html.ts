/**
 * The static HTML report of an eval (`report.html`): one self-contained page — no script, no
 * remote resource — with the warning when the numbers mean nothing, pass rate per arm as bars
 * with their 95% intervals, and the tables; each per-task cell links the session files behind it.
 */
import type { EvalResults } from './results-schema.ts';
import {
  armTable,
  failureTable,
  headerLines,
  HOW_TO_READ,
  HOW_TO_READ_PAIRED,
  mechanismTable,
  pairedTable,
  percent,
  taskCells,
  type Table,
} from './report-rows.ts';

const escape = (s: string): string =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function table(t: Table, caption?: string): string {
  const head = t.head.map((h) => `<th>${escape(h)}</th>`).join('');
  const rows = t.rows.map((r) => `<tr>${r.map((c) => `<td>${escape(c)}</td>`).join('')}</tr>`).join('\n');
  return `<table>${caption ? `<caption>${escape(caption)}</caption>` : ''}<thead><tr>${head}</tr></thead><tbody>\n${rows}\n</tbody></table>`;
}

const BAR_W = 420;
const ROW_H = 26;
const LABEL_W = 150;

/** Pass rate per arm: a bar to the rate, a whisker over the Wilson interval. */
function chart(r: EvalResults): string {
  const arms = r.summary.arms;
  const h = arms.length * ROW_H + 24;
  const x = (v: number) => LABEL_W + v * BAR_W;
  const rows = arms.map((a, i) => {
    const y = i * ROW_H + 4;
    const mid = y + ROW_H / 2 - 2;
    return [
      `<text x="${LABEL_W - 8}" y="${mid + 4}" text-anchor="end">${escape(a.arm)}</text>`,
      `<rect x="${LABEL_W}" y="${y}" width="${(a.passRate * BAR_W).toFixed(1)}" height="${ROW_H - 8}" class="bar"><title>${escape(`${a.arm}: ${a.passed}/${a.runs}`)}</title></rect>`,
      a.runs
        ? `<line x1="${x(a.ci95[0]).toFixed(1)}" x2="${x(a.ci95[1]).toFixed(1)}" y1="${mid}" y2="${mid}" class="ci"/>`
        : '',
      `<text x="${x(1) + 8}" y="${mid + 4}">${a.runs ? escape(percent(a.passRate)) : '—'}</text>`,
    ].join('');
  });
  const ticks = [0, 0.25, 0.5, 0.75, 1].map(
    (t) =>
      `<line x1="${x(t)}" x2="${x(t)}" y1="0" y2="${h - 18}" class="tick"/><text x="${x(t)}" y="${h - 4}" text-anchor="middle">${t * 100}%</text>`,
  );
  return `<svg role="img" aria-label="pass rate per arm with 95% intervals" width="${LABEL_W + BAR_W + 70}" height="${h}">${ticks.join('')}${rows.join('')}</svg>`;
}

function taskTable(r: EvalResults): string {
  const t = taskCells(r);
  const head = t.head.map((h) => `<th>${escape(h)}</th>`).join('');
  const rows = t.rows.map((row) => {
    const cells = row.cells.map((c) => {
      const links = c.sessions.map((s, i) => `<a href="${escape(s)}" title="${escape(s)}">s${i}</a>`).join(' ');
      return `<td>${escape(c.text)}${links ? ` <small>${links}</small>` : ''}</td>`;
    });
    const winners = row.winners.map((w) => `<td>${escape(w)}</td>`).join('');
    return `<tr><td>${escape(row.task)}</td><td><small>${escape(row.mechanisms)}</small></td>${cells.join('')}${winners}</tr>`;
  });
  return `<table><thead><tr>${head}</tr></thead><tbody>\n${rows.join('\n')}\n</tbody></table>`;
}

const STYLE = `
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; padding: 0 1rem; color: #1b1b1b; }
.warning { border: 2px solid #b00020; background: #fff0f0; color: #7a0014; padding: .75rem 1rem; font-weight: 600; border-radius: 6px; }
table { border-collapse: collapse; margin: .75rem 0 1.5rem; }
th, td { border: 1px solid #ccc; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f3f3f3; }
caption { text-align: left; font-weight: 600; padding-bottom: .25rem; }
svg text { font-size: 12px; fill: #333; }
.bar { fill: #4a78c2; }
.ci { stroke: #111; stroke-width: 2; }
.tick { stroke: #e3e3e3; }
code { background: #f3f3f3; padding: 0 .25rem; }
`;

/** Settings as `name: value` pairs, which wrap where a JSON line would not. */
function settingsText(settings: Readonly<Record<string, unknown>>): string {
  const pairs = Object.entries(settings).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join(' ') : String(v)}`);
  return pairs.length ? pairs.join(', ') : '(none: the defaults)';
}

export function htmlReport(r: EvalResults): string {
  const [first, ...rest] = headerLines(r);
  const warn = first!.startsWith('NOT A MEASUREMENT');
  const mechanisms = mechanismTable(r);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
<title>Eval: ${escape(r.suite)} suite — ${escape(r.model.id)}${warn ? ` (${escape(r.model.label)}, not a measurement)` : ''}</title>
<style>${STYLE}</style>
</head>
<body>
<h1>Eval: ${escape(r.suite)} suite</h1>
${warn ? `<p class="warning" role="alert">${escape(first!)}</p>` : `<p>${escape(first!)}</p>`}
${rest.map((l) => `<p>${escape(l)}</p>`).join('\n')}
<h2>Pass rate per arm</h2>
${chart(r)}
${table(armTable(r))}
<p>${escape(HOW_TO_READ)}</p>
${r.summary.paired?.length ? `<h2>Paired comparison</h2>\n${table(pairedTable(r.summary.paired))}\n<p>${escape(HOW_TO_READ_PAIRED)}</p>` : ''}
<h2>Failures</h2>
${table(failureTable(r))}
<h2>ACI mechanisms that fired (steps)</h2>
${mechanisms.rows.length ? table(mechanisms) : '<p>No mechanism fired in any step.</p>'}
<h2>Per task (passed / seeds)</h2>
<p>Each s<i>N</i> opens the session file of seed <i>N</i>; <code>slm replay FILE</code> replays it, and the playground opens it.</p>
${taskTable(r)}
<h2>Arms</h2>
${table({ head: ['arm', 'what it changes', 'engine settings over the defaults'], rows: r.arms.map((a) => [a.id, a.label, settingsText(a.settings)]) })}
</body>
</html>
`;
}
