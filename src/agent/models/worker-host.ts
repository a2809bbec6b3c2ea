/**
 * The worker side of the model protocol: holds one loaded model and answers requests. The
 * backend (WebLLM in the browser) is loaded lazily through `loadBackend`, so its module is
 * fetched on the first request that needs it, and failures go back as data.
 */
import { ModelError, toModelError, type Model } from '../model.ts';
import type { GpuReport } from './gpu.ts';
import type { CachedFile, LoadProgress, LoadRequest, ModelRequest, ModelResponse } from './worker-protocol.ts';

/** A loaded model that can free its GPU memory. */
export interface HostedModel extends Model {
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

export interface ModelHost {
  receive(message: ModelRequest): void;
}

export function createModelHost(
  send: (message: ModelResponse) => void,
  loadBackend: () => Promise<ModelBackend>,
): ModelHost {
  let backend: Promise<ModelBackend> | undefined;
  let model: HostedModel | undefined;
  const running = new Map<number, AbortController>();
  const getBackend = () => (backend ??= loadBackend());

  async function handle(msg: ModelRequest): Promise<ModelResponse | null> {
    switch (msg.type) {
      case 'load': {
        const b = await getBackend();
        if (model) await model.unload();
        model = undefined;
        model = await b.load(msg.load, (progress) => send({ type: 'progress', id: msg.id, progress }));
        return {
          type: 'loaded',
          id: msg.id,
          model: {
            id: model.id,
            family: model.family,
            ...(model.contextWindow !== undefined && { contextWindow: model.contextWindow }),
          },
        };
      }
      case 'complete': {
        if (!model)
          throw new ModelError(
            'load',
            'No model is loaded in the model worker. Load one first (pick a model and press Load).',
          );
        const ac = new AbortController();
        running.set(msg.id, ac);
        try {
          const completion = await model.complete(msg.messages, {
            ...msg.options,
            signal: ac.signal,
            onToken: (delta) => send({ type: 'token', id: msg.id, delta }),
          });
          return { type: 'completed', id: msg.id, completion };
        } finally {
          running.delete(msg.id);
        }
      }
      case 'abort':
        running.get(msg.target)?.abort();
        return null; // the aborted request answers for itself
      case 'cached':
        return { type: 'cached', id: msg.id, cached: await (await getBackend()).isCached(msg.modelId) };
      case 'delete':
        await (await getBackend()).deleteCached(msg.modelId);
        return { type: 'done', id: msg.id };
      case 'cache-list': {
        const b = await getBackend();
        if (!b.listCached) throw new ModelError('load', 'This model engine keeps no list of cached files.');
        return { type: 'cache-list', id: msg.id, files: await b.listCached() };
      }
      case 'gpu':
        return { type: 'gpu', id: msg.id, report: await (await getBackend()).gpu() };
      case 'unload':
        await model?.unload();
        model = undefined;
        return { type: 'done', id: msg.id };
      default: {
        const never: never = msg;
        throw new Error(`unknown model request ${JSON.stringify(never)}`);
      }
    }
  }

  return {
    receive(msg) {
      handle(msg).then(
        (reply) => reply && send(reply),
        (e: unknown) => {
          const err = toModelError(e);
          send({ type: 'error', id: msg.id, error: { code: err.code, message: err.message } });
        },
      );
    },
  };
}
