/**
 * The context window for a catalog model on this device: the largest of 2,048–16,384 tokens (and
 * at most what the model was trained on) whose weights and KV cache fit in three quarters of the
 * memory the device reports — the rest is left to the page, the browser and the system. What each
 * window costs is said beside it, so a person can pick another.
 *
 * Which memory figure: `navigator.deviceMemory` (the device's RAM in GiB, rounded to a power of
 * two and capped by the browser) when the browser gives it; for WebLLM without it, the
 * largest buffer the WebGPU adapter allows (`maxBufferSize`), the one memory figure WebGPU
 * exposes. Neither is a GPU's own memory, which no browser reports; the figure used is named.
 */
import type { GpuReport } from '../../worker/client.ts';

/** What sizes a model's window: from its catalog entry. */
export interface WindowFacts {
  readonly trainedContext: number;
  readonly kvBytesPerToken: number;
  /** Memory apart from the KV cache (weights and buffers), MiB. */
  readonly baseMB: number;
}

export type MemorySource = 'navigator.deviceMemory' | 'maxBufferSize';

/** A memory figure the device reported, and which one it is. */
export interface ReportedMemory {
  readonly bytes: number;
  readonly source: MemorySource;
}

/** One window a person can pick, with what it costs. */
export interface WindowOption {
  readonly tokens: number;
  readonly kvBytes: number;
  /** Weights, buffers and KV cache. */
  readonly totalBytes: number;
  /** Within the budget; null when no memory figure is known. */
  readonly fits: boolean | null;
}

export interface WindowPlan {
  readonly options: readonly WindowOption[];
  /** The window picked for this device. */
  readonly chosen: number;
  readonly memory: ReportedMemory | null;
  /** How `chosen` was picked, in a sentence. */
  readonly why: string;
}

/** The windows offered, smallest first. */
const WINDOW_SIZES = [2048, 4096, 8192, 16384] as const;
const MAX_WINDOW = 16384;
/** The window used when the device reports no memory (the loop's default). */
const UNKNOWN_MEMORY_WINDOW = 4096;
/** The share of the reported memory a model may take. */
const BUDGET_SHARE = 0.75;

const MiB = 2 ** 20;
const GiB = 2 ** 30;

/** The memory figure for an engine: WebLLM runs on the GPU, llama.cpp here on the CPU (maxBufferSize says nothing of it). */
export function reportedMemory(
  report: Pick<GpuReport, 'deviceMemoryGiB' | 'maxBufferMB'> | null,
  engine: 'webllm' | 'gguf',
): ReportedMemory | null {
  if (report?.deviceMemoryGiB) return { bytes: report.deviceMemoryGiB * GiB, source: 'navigator.deviceMemory' };
  if (engine === 'webllm' && report?.maxBufferMB) return { bytes: report.maxBufferMB * MiB, source: 'maxBufferSize' };
  return null;
}

/** The windows for a model on a device, and the one picked (the rules are the module's doc comment). */
export function planWindow(facts: WindowFacts, memory: ReportedMemory | null): WindowPlan {
  const sizes = WINDOW_SIZES.filter((t) => t <= facts.trainedContext);
  const candidates = sizes.length ? sizes : [WINDOW_SIZES[0]];
  const budget = memory ? memory.bytes * BUDGET_SHARE : null;
  const options = candidates.map((tokens): WindowOption => {
    const kvBytes = tokens * facts.kvBytesPerToken;
    const totalBytes = facts.baseMB * MiB + kvBytes;
    return { tokens, kvBytes, totalBytes, fits: budget === null ? null : totalBytes <= budget };
  });
  const largest = candidates[candidates.length - 1]!;
  const cap = facts.trainedContext < MAX_WINDOW ? ` (it was trained on ${n(facts.trainedContext)})` : '';
  if (!memory) {
    const chosen = Math.min(UNKNOWN_MEMORY_WINDOW, largest);
    return {
      options,
      chosen,
      memory,
      why: `This browser reports no memory figure, so the window is ${n(chosen)} tokens${cap}; pick a larger one if the device has room.`,
    };
  }
  const fitting = options.filter((o) => o.fits);
  const said = memoryText(memory);
  if (!fitting.length) {
    const chosen = candidates[0]!;
    return {
      options,
      chosen,
      memory,
      why: `Even ${n(chosen)} tokens need more than ¾ of ${said}: the model may not load here; pick a smaller model, or an endpoint.`,
    };
  }
  const chosen = fitting[fitting.length - 1]!.tokens;
  return {
    options,
    chosen,
    memory,
    why: `The largest window up to ${n(largest)} tokens${cap} whose weights and KV cache fit in ¾ of ${said}.`,
  };
}

/** One option in words, e.g. "8,192 tokens · KV cache 448 MiB · 1.9 GiB in all · fits ¾ of 4 GiB". */
export function optionText(o: WindowOption, memory: ReportedMemory | null): string {
  const verdict =
    o.fits === null ? 'no memory figure to check' : `${o.fits ? 'fits' : 'more than'} ¾ of ${bytesText(memory!.bytes)}`;
  return `${n(o.tokens)} tokens · KV cache ${bytesText(o.kvBytes)} · ${bytesText(o.totalBytes)} in all · ${verdict}`;
}

/** The memory figure and where it came from, e.g. "the 4 GiB navigator.deviceMemory reports". */
function memoryText(m: ReportedMemory): string {
  return m.source === 'navigator.deviceMemory'
    ? `the ${bytesText(m.bytes)} navigator.deviceMemory reports`
    : `the ${bytesText(m.bytes)} the WebGPU adapter allows in one buffer (maxBufferSize; no device memory reported)`;
}

/** MiB below 1 GiB, else GiB with at most one decimal. */
export function bytesText(bytes: number): string {
  if (bytes < GiB) return `${Math.round(bytes / MiB)} MiB`;
  return `${Number((bytes / GiB).toFixed(1))} GiB`;
}

function n(tokens: number): string {
  return tokens.toLocaleString('en-US');
}
