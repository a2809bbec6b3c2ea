/**
 * The tool-call format corpus (tests/fixtures/tool-call-formats.json: native outputs from
 * llama.cpp, vLLM, Ollama and SGLang parser tests) through the loop's parser, beside the parser
 * reading JSON envelopes alone (`nativeFormats: false`, what the parser read before native formats). Right = exactly the expected
 * call, or no call where none is expected; wrong = a call other than the expected one.
 */
import { parseCall } from '../src/agent/parse.ts';
import {
  CORPUS_TOOLS,
  formatCases,
  scoreSplit,
  type CallOf,
  type FormatCase,
} from '../tests/support/tool-call-corpus.ts';
import { pct } from './stats.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

const callOf =
  (nativeFormats: boolean): CallOf =>
  (raw) => {
    const o = parseCall(raw, { tools: CORPUS_TOOLS, nativeFormats });
    return o.ok ? { tool: o.call.tool, args: o.call.args } : null;
  };

export function toolCallFormatsSection(): BenchSectionDef {
  return {
    title: 'tool-call-formats.json through parseCall vs JSON envelopes alone',
    async run() {
      const cases = formatCases();
      const rows: BenchRow[] = [];
      const details: string[] = [];
      for (const split of ['held-out', 'dev'] as const) {
        const part = cases.filter((c: FormatCase) => c.split === split);
        const ours = scoreSplit(part, callOf(true));
        const before = scoreSplit(part, callOf(false));
        const cell = (s: typeof ours): string => `${pct(s.right, s.total)} / ${s.wrong.length}`;
        rows.push({
          figure: `${split} (${part.length} cases) right % / wrong calls`,
          ours: cell(ours),
          baseline: cell(before),
          ...(split === 'held-out' && {
            target: { text: '≥ 97% / 0', met: ours.right / ours.total >= 0.97 && ours.wrong.length === 0 },
          }),
        });
        details.push(...ours.misses.map((m) => `${split} ${m}`));
      }
      return { title: this.title, unit: 'right % / wrong calls', rows, details };
    },
  };
}
