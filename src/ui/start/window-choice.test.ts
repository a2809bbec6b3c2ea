import { describe, expect, it } from 'vitest';
import {
  bytesText,
  optionText,
  planWindow,
  reportedMemory,
  type ReportedMemory,
  type WindowFacts,
} from './window-choice.ts';

const GiB = 2 ** 30;
const device = (gib: number): ReportedMemory => ({ bytes: gib * GiB, source: 'navigator.deviceMemory' });

// The catalogs' figures for these models (architectures.ts; base = memory apart from the KV cache).
const QWEN_CODER_15B: WindowFacts = { trainedContext: 32768, kvBytesPerToken: 28672, baseMB: 1518 };
const PHI_35: WindowFacts = { trainedContext: 131072, kvBytesPerToken: 393216, baseMB: 2136 };
const SMOLLM2_17B: WindowFacts = { trainedContext: 8192, kvBytesPerToken: 196608, baseMB: 1210 };
const QWEN3_4B: WindowFacts = { trainedContext: 32768, kvBytesPerToken: 147456, baseMB: 2856 };
// 2 GiB of weights and 1 GiB of KV cache at 16,384 tokens: exactly ¾ of 4 GiB.
const EXACT: WindowFacts = { trainedContext: 32768, kvBytesPerToken: 65536, baseMB: 2048 };

describe('planWindow', () => {
  it.each([
    // rule, facts, memory, chosen, windows offered, why
    [
      'the largest window that fits: 16,384 for a small cache',
      QWEN_CODER_15B,
      device(4),
      16384,
      [2048, 4096, 8192, 16384],
      /largest window up to 16,384 tokens whose weights and KV cache fit in ¾ of the 4 GiB navigator.deviceMemory reports/,
    ],
    [
      'a large cache on 4 GiB: only 2,048 fits',
      PHI_35,
      device(4),
      2048,
      [2048, 4096, 8192, 16384],
      /fit in ¾ of the 4 GiB/,
    ],
    [
      'a large cache on 8 GiB: 8,192 fits, 16,384 does not',
      PHI_35,
      device(8),
      8192,
      [2048, 4096, 8192, 16384],
      /fit in ¾ of the 8 GiB/,
    ],
    [
      'never beyond the trained context',
      SMOLLM2_17B,
      device(8),
      8192,
      [2048, 4096, 8192],
      /up to 8,192 tokens \(it was trained on 8,192\)/,
    ],
    [
      'no memory figure: the default 4,096',
      QWEN_CODER_15B,
      null,
      4096,
      [2048, 4096, 8192, 16384],
      /reports no memory figure, so the window is 4,096 tokens/,
    ],
    [
      'nothing fits: the smallest, said plainly',
      QWEN3_4B,
      device(2),
      2048,
      [2048, 4096, 8192, 16384],
      /Even 2,048 tokens need more than ¾ of the 2 GiB .* may not load here/,
    ],
    ['a total exactly at the budget fits', EXACT, device(4), 16384, [2048, 4096, 8192, 16384], /fit in ¾ of the 4 GiB/],
  ] as const)('%s', (_rule, facts, memory, chosen, windows, why) => {
    const plan = planWindow(facts, memory);
    expect(plan.chosen).toBe(chosen);
    expect(plan.options.map((o) => o.tokens)).toEqual(windows);
    expect(plan.why).toMatch(why);
    // Every option's cost is weights + KV cache, and it fits exactly when within ¾ of the memory.
    for (const o of plan.options) {
      expect(o.kvBytes).toBe(o.tokens * facts.kvBytesPerToken);
      expect(o.totalBytes).toBe(facts.baseMB * 2 ** 20 + o.kvBytes);
      expect(o.fits).toBe(memory ? o.totalBytes <= memory.bytes * 0.75 : null);
    }
    // The pick is the largest fitting window, when one fits.
    const fitting = plan.options.filter((o) => o.fits);
    if (fitting.length) expect(chosen).toBe(Math.max(...fitting.map((o) => o.tokens)));
  });
});

describe('reportedMemory', () => {
  it.each([
    [
      'device memory first, for either engine',
      { deviceMemoryGiB: 8, maxBufferMB: 4096 },
      'webllm',
      { bytes: 8 * GiB, source: 'navigator.deviceMemory' },
    ],
    [
      'device memory for llama.cpp',
      { deviceMemoryGiB: 4 },
      'gguf',
      { bytes: 4 * GiB, source: 'navigator.deviceMemory' },
    ],
    [
      "WebLLM without it: the adapter's maxBufferSize",
      { maxBufferMB: 2048 },
      'webllm',
      { bytes: 2 * GiB, source: 'maxBufferSize' },
    ],
    ['llama.cpp runs on the CPU: maxBufferSize says nothing of it', { maxBufferMB: 2048 }, 'gguf', null],
    ['nothing reported', {}, 'webllm', null],
    ['no report yet', null, 'gguf', null],
  ] as const)('%s', (_rule, report, engine, expected) => {
    expect(reportedMemory(report, engine)).toEqual(expected);
  });
});

describe('what an option costs, in words', () => {
  it.each([
    [
      { trainedContext: 32768, kvBytesPerToken: 114688, baseMB: 547 },
      4096,
      device(4),
      '4,096 tokens · KV cache 448 MiB · 995 MiB in all · fits ¾ of 4 GiB',
    ],
    [PHI_35, 16384, device(8), '16,384 tokens · KV cache 6 GiB · 8.1 GiB in all · more than ¾ of 8 GiB'],
    [QWEN_CODER_15B, 8192, null, '8,192 tokens · KV cache 224 MiB · 1.7 GiB in all · no memory figure to check'],
  ] as const)('%#: %s', (facts, tokens, memory, text) => {
    const option = planWindow(facts, memory).options.find((o) => o.tokens === tokens)!;
    expect(optionText(option, memory)).toBe(text);
  });

  it.each([
    [512 * 2 ** 20, '512 MiB'],
    [GiB, '1 GiB'],
    [1.25 * GiB, '1.3 GiB'],
  ])('%d bytes is %s', (bytes, text) => expect(bytesText(bytes)).toBe(text));

  it('names the maxBufferSize figure as what it is', () => {
    expect(planWindow(QWEN_CODER_15B, { bytes: 4 * GiB, source: 'maxBufferSize' }).why).toMatch(
      /the 4 GiB the WebGPU adapter allows in one buffer \(maxBufferSize; no device memory reported\)/,
    );
  });
});
