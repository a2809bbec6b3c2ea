/**
 * The model worker's protocol (types only): `ModelApi`, one method per request, and the
 * events that come back. Errors cross as data (`{code, message}`) and are rethrown as
 * ModelError on the other side. Cancelling is explicit: `abort` names the completion to stop.
 * The messages are birpc's, wired where postMessage lives (src/worker/model-wire.ts).
 */
import type { ChatMessage, Completion, ModelErrorCode } from '../model.ts';
import type { BpeVocabulary } from './bpe-counter.ts';
import type { GpuReport } from './gpu.ts';

/** Download/compile progress of a model load. */
export interface LoadProgress {
  /** 0..1 */
  readonly progress: number;
  /** WebLLM's own line, e.g. "Fetching param cache[3/52]: 120MB fetched. 23% completed, 12 secs elapsed." */
  readonly text: string;
  readonly elapsedMs: number;
  /** Estimated time left, from the elapsed time and the progress so far. */
  readonly etaMs?: number;
  readonly loadedBytes?: number;
  /** Estimated from loadedBytes / progress. */
  readonly totalBytes?: number;
}

/** Weights served from a URL of one's own (Hugging Face layout: `resolve/main/…`). */
export interface CustomModel {
  readonly id: string;
  /** Absolute URL of the model directory. */
  readonly url: string;
  /** URL of the compiled model library (.wasm); else the library of `baseModelId` is reused. */
  readonly modelLib?: string;
  /** A catalog model with the same architecture and quantisation. */
  readonly baseModelId?: string;
}

/** A GGUF file for llama.cpp: downloaded from a URL (and cached), or a file picked from disk. */
export type GgufSource = { readonly url: string } | { readonly file: Blob; readonly name: string };

export interface LoadRequest {
  readonly modelId: string;
  readonly custom?: CustomModel;
  readonly cacheBackend?: 'cache' | 'indexeddb' | 'opfs';
  /** llama.cpp only: where the GGUF file comes from. */
  readonly gguf?: GgufSource;
  /** The context window asked for; the engine keeps it within what the model was trained on. */
  readonly contextTokens?: number;
}

/** A model file in the browser's cache, as the llama.cpp worker lists it. */
export interface CachedFile {
  readonly url: string;
  readonly name: string;
  readonly bytes: number;
  /** False for a download that was cut short (it is fetched again on use). */
  readonly complete: boolean;
}

export interface LoadedModel {
  readonly id: string;
  readonly family: string;
  readonly contextWindow?: number;
  /** The model's own tokenizer for the budget, when the engine can give it (llama.cpp, a BPE vocabulary). */
  readonly tokenizer?: WireTokenizer;
}

/**
 * A tokenizer as it crosses the boundary: the vocabulary, counted with on the calling side
 * (bpe-counter.ts), and the chat template's tokens per message and once per prompt.
 */
export interface WireTokenizer {
  readonly vocabulary: BpeVocabulary;
  readonly perMessage: number;
  readonly perPrompt: number;
}

export interface WireCompleteOptions {
  readonly jsonSchema?: object;
  readonly seed: number;
  readonly temperature: number;
  readonly maxTokens?: number;
}

/**
 * Every request the engine worker can make of a model worker, declared once: the calling side
 * holds a `ModelApi` (a birpc proxy), the worker implements it (worker-host.ts). `call` tags a
 * load's progress and a completion's tokens, which come back as `ModelEvents`.
 */
export interface ModelApi {
  /** Loads a model (downloading it on first use), unloading the one before; progress arrives as `progress` events. */
  load(call: number, load: LoadRequest): Promise<LoadedModel>;
  /** Completes with the loaded model; the text arrives as `token` events while it is written. */
  complete(call: number, messages: readonly ChatMessage[], options: WireCompleteOptions): Promise<Completion>;
  /** Stops completion `call` (sent as an event: the completion answers for itself). */
  abort(call: number): Promise<void>;
  isCached(modelId: string): Promise<boolean>;
  deleteCached(modelId: string): Promise<void>;
  /** Every model file in the cache (llama.cpp keeps one file per model). */
  listCached(): Promise<readonly CachedFile[]>;
  gpu(): Promise<GpuReport>;
  unload(): Promise<void>;
}

/** What a model worker sends unasked, tagged with the call it belongs to. */
export interface ModelEvents {
  progress(call: number, progress: LoadProgress): void;
  token(call: number, delta: string): void;
}

/** A model error as data: rethrown as the same ModelError on the other side. */
export interface WireError {
  readonly code: ModelErrorCode;
  readonly message: string;
}
