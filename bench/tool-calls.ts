/**
 * The tool-call format corpus (tests/fixtures/tool-call-formats.json: native outputs from
 * llama.cpp, vLLM, Ollama and SGLang parser tests) through the loop's parser, beside the parser
 * as it was before it read native formats (bench/parse-before.ts). Right = exactly the expected
 * call, or no call where none is expected; wrong = a call other than the expected one.
 */
import { parseCall } from '../src/agent/parse.ts';
import { CORPUS_TOOLS, formatCases, scoreSplit, type CallOf, type FormatCase } from '../tests/support/tool-call-corpus.ts';
import { parseCall as parseBefore } from './parse-before.ts';
import { pct } from './stats.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

const callOf =
  (parse: typeof parseCall | typeof parseBefore): CallOf =>
  (raw) => {
    const o = parse(raw, { tools: CORPUS_TOOLS });
    return o.ok ? { tool: o.call.tool, args: o.call.args } : null;
  };

export function toolCallFormatsSection(): BenchSectionDef {
  return {
    title: 'tool-call-formats.json through parseCall vs the JSON-envelope parser before native formats',
    async run() {
      const cases = formatCases();
      const rows: BenchRow[] = [];
      const details: string[] = [];
      for (const split of ['held-out', 'dev'] as const) {
        const part = cases.filter((c: FormatCase) => c.split === split);
        const ours = scoreSplit(part, callOf(parseCall));
        const before = scoreSplit(part, callOf(parseBefore));
        const cell = (s: typeof ours): string => `${pct(s.right, s.total)} / ${s.wrong.length}`;
        rows.push({
          figure: `${split} (${part.length} cases) right % / wrong calls`,
          ours: cell(ours),
          baseline: cell(before),
          ...(split === 'held-out' && { target: { text: '≥ 97% / 0', met: ours.right / ours.total >= 0.97 && ours.wrong.length === 0 } }),
        });
        details.push(...ours.misses.map((m) => `${split} ${m}`));
      }
      return { title: this.title, unit: 'right % / wrong calls', rows, details };
    },
  };
}
