/**
 * The header of the GGUF URL or file on the start screen: read through the engine worker (only
 * the first bytes: `File.slice`, or HTTP Range requests), so the screen can say what the model
 * was trained on and size its window like a catalog model's. A read belongs to the source it
 * was asked for: one that comes back after the source changed is dropped.
 */
import type { GgufFacts } from '../../worker/client.ts';
import type { WindowFacts } from './window-choice.ts';

/** One read of a header: under way, its facts, or why it failed. */
export type HeaderRead =
  | { readonly key: string; readonly state: 'reading' }
  | { readonly key: string; readonly state: 'read'; readonly facts: GgufFacts }
  | { readonly key: string; readonly state: 'failed'; readonly error: string };

export class GgufHeaderState {
  current = $state.raw<HeaderRead | null>(null);

  /** Reads (with `read`) the header of the source named `key`; `keyNow` names the source on screen when the answer comes. */
  async load(
    key: string,
    read: () => Promise<GgufFacts | { readonly error: string }>,
    keyNow: () => string | null,
  ): Promise<void> {
    this.current = { key, state: 'reading' };
    let answer: GgufFacts | { readonly error: string };
    try {
      answer = await read();
    } catch (e) {
      answer = { error: e instanceof Error ? e.message : String(e) };
    }
    if (keyNow() !== key) return;
    this.current =
      'error' in answer ? { key, state: 'failed', error: answer.error } : { key, state: 'read', facts: answer };
  }

  /** The read for the source named `key`, when it is the one on record. */
  readFor(key: string | null): HeaderRead | null {
    return key !== null && this.current?.key === key ? this.current : null;
  }
}

/** The window facts a header gives: all three needed (trained context, KV cache per token, the file's size), else null. */
export function headerWindowFacts(f: GgufFacts): WindowFacts | null {
  if (!f.trained || f.kvBytesPerToken === undefined || f.baseMB === undefined) return null;
  return { trainedContext: f.trained.tokens, kvBytesPerToken: f.kvBytesPerToken, baseMB: f.baseMB };
}

/** The header in a line, e.g. "Qwen2.5 Coder 0.5B Instruct (qwen2, 494M) · trained on 32,768 tokens (qwen2.context_length)". */
export function headerText(f: GgufFacts): string {
  const what = [f.architecture, f.params].filter(Boolean).join(', ');
  const name = `${f.name ?? 'unnamed model'}${what ? ` (${what})` : ''}`;
  const trained = f.trained
    ? `trained on ${f.trained.tokens.toLocaleString('en-US')} tokens (${f.trained.key})`
    : 'the header names no trained context: the window field applies as given';
  return `${name} · ${trained}`;
}
