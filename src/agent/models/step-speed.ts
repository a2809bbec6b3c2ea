/**
 * How fast a live model answered one step: time to the first token, the whole reply's time,
 * and prefill/decode tokens per second — the engine's own figures when it reports them
 * (llama.cpp: only the prompt tokens it actually read, the KV cache's share apart), otherwise
 * worked out here from the token counts and the clock (first token = end of prefill).
 */
import type { ChatMessage, CompleteOptions, Completion, Model } from '../model.ts';

export interface StepSpeed {
  /** From the request to the first streamed piece of text. */
  readonly ttftMs: number;
  /** From the request to the end of the reply. */
  readonly elapsedMs: number;
  readonly prefillTps?: number;
  readonly decodeTps?: number;
  /** Prompt tokens reused from the KV cache (llama.cpp). */
  readonly cachedTokens?: number;
  /** Whether the tokens/s come from the engine or from the clock here. */
  readonly source: 'engine' | 'clock';
}

/** `model`, reporting each completed reply's speed to `onSpeed`. `now` is injectable for tests. */
export function timedModel(
  model: Model,
  onSpeed: (speed: StepSpeed) => void,
  now: () => number = () => performance.now(),
): Model {
  return {
    id: model.id,
    family: model.family,
    ...(model.contextWindow !== undefined && { contextWindow: model.contextWindow }),
    // The budget counts with the wrapped model's tokenizer (llama.cpp in Node), not an estimate.
    ...(model.tokenizer && { tokenizer: model.tokenizer }),
    async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
      const start = now();
      let first: number | undefined;
      const completion = await model.complete(messages, {
        ...o,
        onToken: (delta) => {
          first ??= now();
          o.onToken?.(delta);
        },
      });
      const end = now();
      onSpeed(speedOf(completion, start, first ?? end, end));
      return completion;
    },
  };
}

export function speedOf(c: Completion, start: number, first: number, end: number): StepSpeed {
  const ttftMs = first - start;
  const elapsedMs = end - start;
  if (c.timings) {
    return {
      ttftMs,
      elapsedMs,
      prefillTps: c.timings.prefillTps,
      decodeTps: c.timings.decodeTps,
      cachedTokens: c.timings.cachedTokens,
      source: 'engine',
    };
  }
  const rate = (tokens: number | undefined, ms: number) =>
    tokens !== undefined && ms > 0 ? (tokens * 1000) / ms : undefined;
  const prefillTps = rate(c.usage?.promptTokens, ttftMs);
  // The first token came with the prefill; the rest were decoded after it.
  const decodeTps = rate(c.usage ? Math.max(0, c.usage.completionTokens - 1) : undefined, end - first);
  return {
    ttftMs,
    elapsedMs,
    ...(prefillTps !== undefined && { prefillTps }),
    ...(decodeTps !== undefined && { decodeTps }),
    source: 'clock',
  };
}
