/**
 * The Model interface the loop drives, owned here and implemented by the adapters in
 * `models/` (scripted, OpenAI-compatible, WebLLM, the worker proxy). A model turns the exact
 * messages of one step into one completion; everything else (parsing, tools, budget) is the
 * loop's business.
 */

export type Role = 'system' | 'user' | 'assistant';

export interface ChatMessage {
  readonly role: Role;
  readonly content: string;
}

export interface CompleteOptions {
  /** A JSON schema the output must follow (JSON mode); adapters that cannot enforce it ignore it. */
  readonly jsonSchema?: object;
  /** Integer seed for best-effort determinism. */
  readonly seed: number;
  readonly temperature: number;
  /** Upper bound on generated tokens. */
  readonly maxTokens?: number;
  readonly signal?: AbortSignal;
  /** Called with each streamed piece of text, for a live view. */
  readonly onToken?: (delta: string) => void;
}

/** How a budget's numbers were made: the model's tokenizer, calibrated from its reports, or a conservative estimate. */
export type Counting = 'counted' | 'calibrated' | 'estimated';

/** Counts tokens as one model reads them (tokens.ts has the counters the loop keeps). */
export interface TokenCounter {
  readonly counting: Counting;
  /** Tokens of one message's text. */
  text(s: string): number;
  /** Tokens the chat template adds around each message (role markers, end of turn). */
  readonly perMessage: number;
  /** Tokens the template adds once (a begin-of-text token, the reply's header). */
  readonly perPrompt: number;
}

/** Token counts as the model's own tokenizer reported them. */
export interface Usage {
  readonly promptTokens: number;
  readonly completionTokens: number;
}

/** The engine's own account of one completion (llama.cpp reports it): what it read and how fast. */
export interface EngineTimings {
  /** Prompt tokens read for this turn; `cachedTokens` more were reused from the KV cache. */
  readonly promptTokens: number;
  readonly cachedTokens: number;
  /** Prompt tokens read per second (prefill). */
  readonly prefillTps: number;
  /** Tokens written per second (decode). */
  readonly decodeTps: number;
}

/**
 * One model call as it went over the wire, for the inspector: the request body with the
 * messages elided to their count and sizes (parameters, response_format or tools), and a
 * summary of the response (finish_reason, usage, tool_calls), in the server's own field names.
 */
export interface ModelExchange {
  readonly request: { readonly [key: string]: unknown };
  readonly response: { readonly [key: string]: unknown };
}

/** Why decoding ended: the reply was complete (`stop`), or it was cut at `maxTokens` (`length`). */
export type FinishReason = 'stop' | 'length';

export interface Completion {
  readonly text: string;
  /** Present when the engine says why it stopped writing. */
  readonly finishReason?: FinishReason;
  readonly usage?: Usage;
  readonly timings?: EngineTimings;
  /** Present when the adapter calls a server (the OpenAI-compatible one). */
  readonly exchange?: ModelExchange;
}

export interface Model {
  /** Stable id recorded in sessions, e.g. `openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b` or `scripted:3-outputs`. */
  readonly id: string;
  /** Model family the edit-format bandit keys on (`qwen2.5-coder`, `llama-3.2`, `scripted` …). */
  readonly family: string;
  /** Context window in tokens when the adapter knows it. */
  readonly contextWindow?: number;
  /** Counts text in this model's own tokens, when its tokenizer is at hand (llama.cpp in Node). */
  readonly tokenizer?: TokenCounter;
  complete(messages: readonly ChatMessage[], opts: CompleteOptions): Promise<Completion>;
}

/** Why a model call failed; the loop turns any of these into a stop reason. */
export type ModelErrorCode =
  | 'exhausted' // a scripted model has no outputs left
  | 'connection' // the endpoint could not be reached
  | 'cors' // the browser blocked the request (Failed to fetch)
  | 'http' // the endpoint answered with an error status
  | 'bad-response' // the endpoint answered with something that is not a completion
  | 'gpu' // WebGPU missing, no adapter, no shader-f16, device lost
  | 'storage' // the browser refused to store the weights (quota)
  | 'load' // the model could not be loaded for another reason
  | 'context' // the prompt did not fit the model's context window (the engine refused it)
  | 'aborted'; // the caller stopped the request

/**
 * The one error type model adapters throw. `message` is written for a person: it names the
 * cause and what to do next (start the server, enable CORS, pick a smaller model …).
 */
export class ModelError extends Error {
  constructor(
    readonly code: ModelErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ModelError';
  }
}

export function isModelError(e: unknown): e is ModelError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { name?: unknown }).name === 'ModelError' &&
    typeof (e as { code?: unknown }).code === 'string'
  );
}

/** Normalises anything an adapter threw into a ModelError (an AbortError becomes `aborted`). */
export function toModelError(e: unknown): ModelError {
  if (isModelError(e)) return e;
  if (e instanceof Error && e.name === 'AbortError') return new ModelError('aborted', 'The model request was stopped.');
  const msg = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
  return new ModelError('load', `The model failed: ${msg}`);
}
