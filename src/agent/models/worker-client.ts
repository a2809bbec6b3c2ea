/**
 * The calling side of the model protocol: a Model implemented over messages to the model
 * worker, plus load/cache/GPU requests. Replies are matched by id; an error reply is rethrown
 * as the ModelError it was; aborting a completion sends `abort` and rejects at once.
 */
import { ModelError, type ChatMessage, type Completion, type CompleteOptions, type Model } from '../model.ts';
import type { GpuReport } from './gpu.ts';
import type {
  CachedFile,
  LoadedModel,
  LoadProgress,
  LoadRequest,
  ModelRequest,
  ModelResponse,
} from './worker-protocol.ts';

type Reply = Exclude<ModelResponse, { type: 'progress' | 'token' | 'error' }>;

interface Pending {
  resolve(reply: Reply): void;
  reject(error: ModelError): void;
  onProgress?: (p: LoadProgress) => void;
  onToken?: (delta: string) => void;
}

/** Distributes a request type over the union, so `id` can be left out of each member. */
type Unsent<T> = T extends unknown ? Omit<T, 'id'> : never;

export class ModelWorkerClient {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  /** `send` posts a request to the worker; feed every message from the worker to `receive`. */
  constructor(private readonly send: (message: ModelRequest) => void) {}

  receive(msg: ModelResponse): void {
    const p = this.pending.get(msg.id);
    if (!p) return; // a reply to a request already aborted
    if (msg.type === 'progress') p.onProgress?.(msg.progress);
    else if (msg.type === 'token') p.onToken?.(msg.delta);
    else {
      this.pending.delete(msg.id);
      if (msg.type === 'error') p.reject(new ModelError(msg.error.code, msg.error.message));
      else p.resolve(msg);
    }
  }

  /** Loads a model in the worker (downloading it on first use) and returns it as a Model. */
  async load(load: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<Model> {
    const reply = await this.request({ type: 'load', load }, { ...(onProgress && { onProgress }) });
    return this.remoteModel((reply as Extract<Reply, { type: 'loaded' }>).model);
  }

  async isCached(modelId: string): Promise<boolean> {
    return ((await this.request({ type: 'cached', modelId })) as Extract<Reply, { type: 'cached' }>).cached;
  }

  async deleteCached(modelId: string): Promise<void> {
    await this.request({ type: 'delete', modelId });
  }

  async listCached(): Promise<readonly CachedFile[]> {
    return ((await this.request({ type: 'cache-list' })) as Extract<Reply, { type: 'cache-list' }>).files;
  }

  async gpu(): Promise<GpuReport> {
    return ((await this.request({ type: 'gpu' })) as Extract<Reply, { type: 'gpu' }>).report;
  }

  async unload(): Promise<void> {
    await this.request({ type: 'unload' });
  }

  private remoteModel(info: LoadedModel): Model {
    return {
      id: info.id,
      family: info.family,
      ...(info.contextWindow !== undefined && { contextWindow: info.contextWindow }),
      complete: (messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> => {
        const options = {
          seed: o.seed,
          temperature: o.temperature,
          ...(o.jsonSchema && { jsonSchema: o.jsonSchema }),
          ...(o.maxTokens !== undefined && { maxTokens: o.maxTokens }),
        };
        return this.request(
          { type: 'complete', messages, options },
          { ...(o.onToken && { onToken: o.onToken }) },
          o.signal,
        ).then((r) => (r as Extract<Reply, { type: 'completed' }>).completion);
      },
    };
  }

  private request(
    req: Unsent<ModelRequest>,
    hooks: Pick<Pending, 'onProgress' | 'onToken'> = {},
    signal?: AbortSignal,
  ): Promise<Reply> {
    if (signal?.aborted) return Promise.reject(new ModelError('aborted', 'The model request was stopped.'));
    const id = this.nextId++;
    return new Promise<Reply>((resolve, reject) => {
      const onAbort = () => {
        this.pending.delete(id);
        this.send({ type: 'abort', id: this.nextId++, target: id });
        reject(new ModelError('aborted', 'The model request was stopped.'));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.pending.set(id, {
        ...hooks,
        resolve: (r) => (done(), resolve(r)),
        reject: (e) => (done(), reject(e)),
      });
      this.send({ ...req, id } as ModelRequest);
    });
  }
}
