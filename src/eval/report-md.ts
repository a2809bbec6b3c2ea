/** The Markdown report of an eval (`results.md`): the warning when the numbers mean nothing, then the tables. */
import type { EvalResults } from './results-schema.ts';
import {
  armTable,
  failureTable,
  headerLines,
  HOW_TO_READ,
  HOW_TO_READ_PAIRED,
  mechanismTable,
  pairedTable,
  taskCells,
  type Table,
} from './report-rows.ts';

const cell = (s: string): string => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(t: Table): string {
  const line = (cells: readonly string[]) => `| ${cells.map(cell).join(' | ')} |`;
  return [line(t.head), line(t.head.map(() => '---')), ...t.rows.map(line)].join('\n');
}

export function markdownReport(r: EvalResults): string {
  const [first, ...rest] = headerLines(r);
  const lead = first!.startsWith('NOT A MEASUREMENT') ? [`> **${cell(first!)}**`, '', ...rest] : [first!, ...rest];
  const tasks = taskCells(r);
  const mechanisms = mechanismTable(r);
  return [
    `# Eval: ${r.suite} suite`,
    '',
    ...lead.map((l) => (l.startsWith('>') || l === '' ? l : `${l}  `)),
    '',
    table(armTable(r)),
    '',
    HOW_TO_READ,
    '',
    ...(r.summary.paired?.length
      ? ['## Paired comparison', '', table(pairedTable(r.summary.paired)), '', HOW_TO_READ_PAIRED, '']
      : []),
    '## Failures',
    '',
    table(failureTable(r)),
    '',
    '## ACI mechanisms that fired (steps)',
    '',
    mechanisms.rows.length ? table(mechanisms) : 'No mechanism fired in any step.',
    '',
    '## Per task (passed / seeds)',
    '',
    table({
      head: tasks.head,
      rows: tasks.rows.map((t) => [t.task, t.mechanisms, ...t.cells.map((c) => c.text), ...t.winners]),
    }),
    '',
  ].join('\n');
}
