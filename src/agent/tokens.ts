/**
 * Counting a prompt in the model's own tokens. A model with a tokenizer at hand (llama.cpp in
 * Node) offers a `TokenCounter` that counts exactly, with its chat template's tokens per
 * message; for every other model the loop keeps a `CalibratedCounter`: a conservative estimate
 * until the model reports how many prompt tokens it read (`usage.prompt_tokens`), then that
 * estimate scaled by the largest ratio the reports have shown, plus a margin — so it errs high.
 * A model that never reports usage keeps the conservative estimate, and the budget says so.
 */
import type { ChatMessage, Counting, TokenCounter } from './model.ts';

/** Tokens of messages as the template renders them, with the reply's header. */
export function countPrompt(c: TokenCounter, messages: readonly ChatMessage[]): number {
  return c.perPrompt + messages.reduce((n, m) => n + c.text(m.content) + c.perMessage, 0);
}

/** Tokens of messages without the once-per-prompt part: what a slice of the history costs. */
export function countMessages(c: TokenCounter, messages: readonly ChatMessage[]): number {
  return messages.reduce((n, m) => n + c.text(m.content) + c.perMessage, 0);
}

/**
 * The two conversations a chat template's overhead is read off: `one` is a system and a user
 * message, `two` adds a reply and another user message; each is rendered with the reply's header.
 */
export const TEMPLATE_PROBES = {
  one: [
    { role: 'system', content: 'a' },
    { role: 'user', content: 'b' },
  ],
  two: [
    { role: 'system', content: 'a' },
    { role: 'user', content: 'b' },
    { role: 'assistant', content: 'c' },
    { role: 'user', content: 'd' },
  ],
} as const satisfies Record<string, readonly ChatMessage[]>;

/**
 * The template's tokens per message and once per prompt, from the rendered sizes of the two
 * probes (`one`, `two`) and the tokens of a text alone: what the probes hold beyond their texts.
 */
export function templateOverhead(
  one: number,
  two: number,
  text: (s: string) => number,
): { perMessage: number; perPrompt: number } {
  const perMessage = Math.max(0, Math.ceil((two - one - text('c') - text('d')) / 2));
  const perPrompt = Math.max(0, one - text('a') - text('b') - 2 * perMessage);
  return { perMessage, perPrompt };
}

/**
 * A conservative count. Real vocabularies read the bundled sessions' texts at 2.3 (Phi-3.5's 32k
 * vocabulary on numbered `ws_read` lines) to 3.5 ASCII characters a token, and Qwen's splits
 * every digit: so a digit is a token, other ASCII 2.2 characters a token, and a character outside
 * ASCII 1.5 (a byte-level vocabulary may spend several on one). Over every text of the bundled
 * sessions this errs high for the Qwen, Llama 3 and Phi vocabularies.
 */
function conservativeTokens(s: string): number {
  let digits = 0;
  let other = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) digits++;
    else if (c > 0x7f) other++;
  }
  return Math.ceil(digits + (s.length - digits - other) / CONSERVATIVE_CHARS_PER_TOKEN + other * 1.5);
}

const CONSERVATIVE_CHARS_PER_TOKEN = 2.2;
/** Role markers and end-of-turn tokens: ChatML and Llama 3 add 5 a message, Phi-3.5 4, Gemma 6. */
const TEMPLATE_PER_MESSAGE = 6;
const TEMPLATE_PER_PROMPT = 5;
/** New text is estimated at the densest ratio the reports have shown, plus this margin. */
const CALIBRATION_MARGIN = 1.03;
/** Texts whose real count is remembered (a run's messages; the oldest are forgotten past this). */
const KNOWN_LIMIT = 4096;

/**
 * The counter for a model without a tokenizer at hand, learning from the prompt sizes it
 * reports. Each report is attributed to the messages it covered: what the messages already
 * known account for is taken off, and the rest is shared among the new ones by their estimates,
 * so every message the model has read is known at its real size and a prompt is exact up to
 * its newest texts. Those are estimated conservatively, or at the densest real ÷ estimate
 * ratio seen (plus a margin) when that is higher: the count errs high.
 */
export class CalibratedCounter implements TokenCounter {
  readonly perMessage = TEMPLATE_PER_MESSAGE;
  readonly perPrompt = TEMPLATE_PER_PROMPT;
  private ratio = 0;
  private readonly known = new Map<string, number>();

  get counting(): Counting {
    return this.ratio === 0 ? 'estimated' : 'calibrated';
  }

  text(s: string): number {
    const k = this.known.get(s);
    if (k !== undefined) return k;
    return Math.ceil(conservativeTokens(s) * Math.max(1, this.ratio * CALIBRATION_MARGIN));
  }

  /** Learns from a prompt the model reported reading as `promptTokens` tokens. */
  observe(messages: readonly ChatMessage[], promptTokens: number): void {
    if (!(promptTokens > 0)) return;
    const fresh = [...new Set(messages.map((m) => m.content).filter((c) => !this.known.has(c)))];
    const knownPart = messages.reduce((n, m) => n + (this.known.get(m.content) ?? 0), 0);
    const left = promptTokens - this.perPrompt - messages.length * this.perMessage - knownPart;
    const estimate = fresh.reduce((n, c) => n + conservativeTokens(c), 0);
    if (!fresh.length || estimate <= 0 || left <= 0) return;
    this.ratio = Math.max(this.ratio, left / estimate);
    if (this.known.size + fresh.length > KNOWN_LIMIT) this.known.clear();
    // Shared by estimate, rounded up, so the parts never add up to less than the report.
    for (const c of fresh) this.known.set(c, Math.ceil((left * conservativeTokens(c)) / estimate));
  }
}

/** A counter that remembers each text's count (the budget counts the same history at every step). */
export function memoCounter(c: TokenCounter, limit = 4096): TokenCounter {
  const seen = new Map<string, number>();
  return {
    get counting() {
      return c.counting;
    },
    perMessage: c.perMessage,
    perPrompt: c.perPrompt,
    text(s) {
      const hit = seen.get(s);
      if (hit !== undefined) return hit;
      const n = c.text(s);
      if (seen.size >= limit) seen.clear();
      seen.set(s, n);
      return n;
    },
  };
}
