/**
 * The worker side of the model protocol: holds one loaded model and implements `ModelApi`. The
 * backend (WebLLM or llama.cpp in the browser) is loaded lazily through `loadBackend`, so its
 * module is fetched on the first request that needs it; a failure rejects the request, and the
 * wire sends it back as data.
 */
import { ModelError, type Model } from '../model.ts';
import type { GpuReport } from './gpu.ts';
import type { CachedFile, LoadProgress, LoadRequest, ModelApi, ModelEvents, WireTokenizer } from './worker-protocol.ts';

/** A loaded model that can free its GPU memory. */
export interface HostedModel extends Model {
  /** The tokenizer sent back with the loaded model, for the budget on the calling side. */
  readonly wireTokenizer?: WireTokenizer;
  unload(): Promise<void>;
}

/** What a model runtime offers the host. */
export interface ModelBackend {
  load(req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<HostedModel>;
  isCached(modelId: string): Promise<boolean>;
  deleteCached(modelId: string): Promise<void>;
  /** Every model file in the cache (llama.cpp keeps one file per model). */
  listCached?(): Promise<readonly CachedFile[]>;
  gpu(): Promise<GpuReport>;
}

/** The model worker's requests over `loadBackend`'s runtime; progress and tokens go out through `events`. */
export function createModelHost(loadBackend: () => Promise<ModelBackend>, events: ModelEvents): ModelApi {
  let backend: Promise<ModelBackend> | undefined;
  let model: HostedModel | undefined;
  const running = new Map<number, AbortController>();
  const getBackend = () => (backend ??= loadBackend());

  return {
    async load(call, req) {
      const b = await getBackend();
      if (model) await model.unload();
      model = undefined;
      model = await b.load(req, (progress) => events.progress(call, progress));
      return {
        id: model.id,
        family: model.family,
        ...(model.contextWindow !== undefined && { contextWindow: model.contextWindow }),
        ...(model.wireTokenizer && { tokenizer: model.wireTokenizer }),
      };
    },
    async complete(call, messages, options) {
      if (!model)
        throw new ModelError(
          'load',
          'No model is loaded in the model worker. Load one first (pick a model and press Load).',
        );
      const ac = new AbortController();
      running.set(call, ac);
      try {
        return await model.complete(messages, {
          ...options,
          signal: ac.signal,
          onToken: (delta) => events.token(call, delta),
        });
      } finally {
        running.delete(call);
      }
    },
    async abort(call) {
      running.get(call)?.abort();
    },
    isCached: async (modelId) => (await getBackend()).isCached(modelId),
    deleteCached: async (modelId) => (await getBackend()).deleteCached(modelId),
    async listCached() {
      const b = await getBackend();
      if (!b.listCached) throw new ModelError('load', 'This model engine keeps no list of cached files.');
      return b.listCached();
    },
    gpu: async () => (await getBackend()).gpu(),
    async unload() {
      await model?.unload();
      model = undefined;
    },
  };
}
