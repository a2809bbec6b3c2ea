/**
 * The prefix cache on llama.cpp: a 45-step read-heavy run at a 4,096 window (scripted turns,
 * tests/support/gguf/counted-run.ts) on the test model with Qwen's real vocabulary, every prompt
 * evaluated by node-llama-cpp against its KV cache. Printed: the prompt tokens llama.cpp
 * evaluated beside the tokens that were new (target: evaluated ≤ 1.5 × new), with the loop's
 * cache-friendly trimming and — the baseline, in the same run — trimming one step at a time
 * (`trimTo: 1`); and the context refusals of each (target 0).
 */
import { defaultThreads, loadGgufNode } from '../src/agent/models/gguf-node.ts';
import { prefillCost, READ_HEAVY_STEPS, runReadHeavy } from '../tests/support/gguf/counted-run.ts';
import { testModelFile } from '../tests/support/gguf/test-model-file.ts';
import type { BenchRow, BenchSectionDef } from './table.ts';

const WINDOW = 4096;
const TARGET = 1.5;

interface Arm {
  readonly steps: number;
  readonly evaluated: number;
  readonly fresh: number;
  readonly refusals: number;
}

async function measure(file: string, trimTo: number | undefined): Promise<Arm> {
  // A fresh engine for each arm, so neither starts with the other's KV cache.
  const llama = await loadGgufNode({ file, contextTokens: WINDOW, threads: defaultThreads() });
  try {
    const { scripted, result } = await runReadHeavy(llama, { window: WINDOW, ...(trimTo !== undefined && { trimTo }) });
    return { steps: result.steps.length, ...prefillCost(scripted), refusals: scripted.refusals };
  } finally {
    await llama.dispose();
  }
}

const ratio = (a: Arm) => a.evaluated / Math.max(1, a.fresh);
const cell = (a: Arm, how: string) =>
  `${ratio(a).toFixed(2)}× (${a.evaluated.toLocaleString('en')} evaluated / ${a.fresh.toLocaleString('en')} new${how})`;

export function prefixCacheSection(): BenchSectionDef {
  return {
    title: `Real tokens: prefix cache on llama.cpp (Qwen-vocabulary test model, ${READ_HEAVY_STEPS}+ read-heavy steps at 4,096)`,
    async run() {
      const file = await testModelFile({ vocabulary: 'qwen' });
      const ours = await measure(file, undefined);
      const oneByOne = await measure(file, 1);
      const rows: BenchRow[] = [
        {
          figure: `prompt tokens evaluated ÷ new, ${ours.steps} steps`,
          ours: cell(ours, ''),
          baseline: cell(oneByOne, ', trimming one step at a time'),
          target: { text: `≤ ${TARGET}×`, met: ratio(ours) <= TARGET },
        },
        {
          figure: 'context refusals in the run',
          ours: String(ours.refusals),
          baseline: `${oneByOne.refusals} (one step at a time)`,
          target: { text: '0', met: ours.refusals === 0 },
        },
      ];
      return { title: this.title, unit: 'tokens', rows };
    },
  };
}
