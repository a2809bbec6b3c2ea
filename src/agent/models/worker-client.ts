/**
 * The calling side of the model protocol: a loaded model as a `Model` over a model worker's
 * `ModelApi`. Its other requests are made on `remote` directly. A load's progress and a
 * completion's tokens come back as events tagged with their call; aborting a completion sends
 * `abort` and rejects at once.
 */
import { ModelError, type ChatMessage, type Completion, type CompleteOptions, type Model } from '../model.ts';
import type { LoadedModel, LoadProgress, LoadRequest, ModelApi, ModelEvents } from './worker-protocol.ts';

export class ModelWorkerClient {
  #nextCall = 1;
  readonly #progress = new Map<number, (p: LoadProgress) => void>();
  readonly #tokens = new Map<number, (delta: string) => void>();

  /** The worker's events: the wire hands each one here. */
  readonly events: ModelEvents = {
    progress: (call, p) => this.#progress.get(call)?.(p),
    token: (call, delta) => this.#tokens.get(call)?.(delta),
  };

  /** `remote` is the model worker's API (a birpc proxy, or a host in the same thread). */
  constructor(readonly remote: ModelApi) {}

  /** Loads a model in the worker (downloading it on first use) and returns it as a Model. */
  async load(load: LoadRequest, onProgress?: (p: LoadProgress) => void): Promise<Model> {
    const call = this.#nextCall++;
    if (onProgress) this.#progress.set(call, onProgress);
    try {
      return this.#remoteModel(await this.remote.load(call, load));
    } finally {
      this.#progress.delete(call);
    }
  }

  #remoteModel(info: LoadedModel): Model {
    return {
      id: info.id,
      family: info.family,
      ...(info.contextWindow !== undefined && { contextWindow: info.contextWindow }),
      complete: (messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> => {
        const stopped = () => new ModelError('aborted', 'The model request was stopped.');
        if (o.signal?.aborted) return Promise.reject(stopped());
        const call = this.#nextCall++;
        if (o.onToken) this.#tokens.set(call, o.onToken);
        const options = {
          seed: o.seed,
          temperature: o.temperature,
          ...(o.jsonSchema && { jsonSchema: o.jsonSchema }),
          ...(o.maxTokens !== undefined && { maxTokens: o.maxTokens }),
        };
        return new Promise<Completion>((resolve, reject) => {
          const onAbort = () => {
            this.#tokens.delete(call);
            void this.remote.abort(call);
            reject(stopped());
          };
          o.signal?.addEventListener('abort', onAbort, { once: true });
          this.remote
            .complete(call, messages, options)
            .then(resolve, reject)
            .finally(() => {
              o.signal?.removeEventListener('abort', onAbort);
              this.#tokens.delete(call);
            });
        });
      },
    };
  }
}
