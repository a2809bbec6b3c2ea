/**
 * The model worker's protocol (types only). Requests carry an `id`; every reply names the
 * request it answers. Errors cross as data (`{code, message}`) and are rethrown as ModelError
 * on the other side. Cancelling is explicit: `abort` names the `complete` request to stop.
 *
 * Wiring (done where postMessage lives, in src/worker/): the worker side is
 * `createModelHost(send, loadBackend)` with `send = (m) => self.postMessage(m)` and
 * `self.onmessage = (e) => host.receive(e.data)`; the calling side is
 * `new ModelWorkerClient(send)` with `port.onmessage = (e) => client.receive(e.data)`.
 */
import type { ChatMessage, Completion, ModelErrorCode } from '../model.ts';
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
}

export interface WireCompleteOptions {
  readonly jsonSchema?: object;
  readonly seed: number;
  readonly temperature: number;
  readonly maxTokens?: number;
}

export type ModelRequest =
  | { readonly type: 'load'; readonly id: number; readonly load: LoadRequest }
  | {
      readonly type: 'complete';
      readonly id: number;
      readonly messages: readonly ChatMessage[];
      readonly options: WireCompleteOptions;
    }
  | { readonly type: 'abort'; readonly id: number; readonly target: number }
  | { readonly type: 'cached'; readonly id: number; readonly modelId: string }
  | { readonly type: 'delete'; readonly id: number; readonly modelId: string }
  | { readonly type: 'cache-list'; readonly id: number }
  | { readonly type: 'gpu'; readonly id: number }
  | { readonly type: 'unload'; readonly id: number };

export interface WireError {
  readonly code: ModelErrorCode;
  readonly message: string;
}

export type ModelResponse =
  | { readonly type: 'progress'; readonly id: number; readonly progress: LoadProgress }
  | { readonly type: 'loaded'; readonly id: number; readonly model: LoadedModel }
  | { readonly type: 'token'; readonly id: number; readonly delta: string }
  | { readonly type: 'completed'; readonly id: number; readonly completion: Completion }
  | { readonly type: 'cached'; readonly id: number; readonly cached: boolean }
  | { readonly type: 'cache-list'; readonly id: number; readonly files: readonly CachedFile[] }
  | { readonly type: 'done'; readonly id: number }
  | { readonly type: 'gpu'; readonly id: number; readonly report: GpuReport }
  | { readonly type: 'error'; readonly id: number; readonly error: WireError };
