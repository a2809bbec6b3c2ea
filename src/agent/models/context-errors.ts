/**
 * A prompt too long for the model's window, as each engine words its refusal. Recognised here,
 * in one table, so every adapter turns it into the same ModelError (`context`) and the loop can
 * rebuild the step with a smaller budget instead of calling the model broken. Where the refusal
 * names the prompt's size and the window, both are read out: the loop calibrates its count with
 * the prompt's size and budgets for the window the engine really has.
 */
import { ModelError } from '../model.ts';

/** What a refusal said about the prompt and the window, when it said it. */
interface Overflow {
  readonly promptTokens?: number;
  readonly window?: number;
}

interface Rule {
  /** For the table and the tests: which engine words it this way. */
  readonly engine: string;
  readonly pattern: RegExp;
  /** Group numbers of the prompt's size and the window in `pattern`, when it has them. */
  readonly prompt?: number;
  readonly window?: number;
}

/** First match wins; the rules with numbers come before the bare wordings. */
export const CONTEXT_OVERFLOW_RULES: readonly Rule[] = [
  {
    engine: 'WebLLM (ContextWindowSizeExceededError)',
    pattern: /Prompt tokens exceed context window size: number of prompt tokens: (\d+); context window size: (\d+)/,
    prompt: 1,
    window: 2,
  },
  {
    engine: 'llama.cpp server, wllama (exceed_context_size_error)',
    pattern: /request \((\d+) tokens\) exceeds the available context size \((\d+) tokens\)/,
    prompt: 1,
    window: 2,
  },
  {
    engine: 'llama.cpp server (input larger than the context)',
    pattern: /input \((\d+) tokens\) is larger than the max context size \((\d+) tokens\)/,
    prompt: 1,
    window: 2,
  },
  {
    engine: 'vLLM, OpenAI (maximum context length … requested)',
    pattern: /maximum context length is (\d+) tokens\. However, you requested \d+ tokens \((\d+) in the messages/,
    window: 1,
    prompt: 2,
  },
  {
    engine: 'vLLM (maximum context length … input tokens)',
    pattern: /maximum context length is (\d+) tokens and your request has (\d+) input tokens/,
    window: 1,
    prompt: 2,
  },
  {
    engine: 'node-llama-cpp (context shift)',
    pattern:
      /Failed to compress chat history|context size is too small to generate|did not return a history that fits the context size/,
  },
  {
    engine: 'any server (context length exceeded)',
    pattern:
      /maximum context length|context[_ ]length[_ ]exceeded|exceed_context_size_error|exceeds? the (?:available |max(?:imum)? )?context|Context size has been exceeded|context window (?:size )?exceeded/i,
  },
];

/** What a refusal says about the overflow, or null when the text is not a context refusal. */
export function contextOverflow(message: string): Overflow | null {
  for (const r of CONTEXT_OVERFLOW_RULES) {
    const m = r.pattern.exec(message);
    if (!m) continue;
    return {
      ...(r.prompt !== undefined && { promptTokens: Number(m[r.prompt]) }),
      ...(r.window !== undefined && { window: Number(m[r.window]) }),
    };
  }
  return null;
}

/** The ModelError for a context refusal from `engine`, or null when `message` is not one. */
export function contextError(engine: string, message: string): ModelError | null {
  const o = contextOverflow(message);
  if (!o) return null;
  const size =
    o.promptTokens !== undefined && o.window !== undefined
      ? ` (a prompt of ${o.promptTokens} tokens for a window of ${o.window})`
      : '';
  return new ModelError(
    'context',
    `${engine} refused the prompt as longer than its context window${size}: ${message.trim()}`,
  );
}

/** Reads the overflow back out of a `context` ModelError's message (the numbers travel in its text across the worker). */
export function overflowOf(e: ModelError): Overflow {
  return e.code === 'context' ? (contextOverflow(e.message) ?? {}) : {};
}
