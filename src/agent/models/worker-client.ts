/**
 * The calling side of the model protocol: a loaded model as a `Model` over a model worker's
 * `ModelApi`, counting with the model's own tokenizer when the worker sent one. Its other
 * requests are made on `remote` directly. A load's progress and a completion's tokens come back
 * as events tagged with their call; aborting a completion sends `abort` and rejects at once.
 */
import { z } from 'zod';
import {
  ModelError,
  type ChatMessage,
  type Completion,
  type CompleteOptions,
  type Model,
  type TokenCounter,
} from '../model.ts';
import { bpeCounter, bpeVocabularySchema } from './bpe-counter.ts';
import type {
  LoadedModel,
  LoadProgress,
  LoadRequest,
  ModelApi,
  ModelEvents,
  WireTokenizer,
} from './worker-protocol.ts';

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
    const tokenizer = info.tokenizer && tokenCounter(info.tokenizer);
    return {
      id: info.id,
      family: info.family,
      ...(info.contextWindow !== undefined && { contextWindow: info.contextWindow }),
      ...(tokenizer && { tokenizer }),
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

const wireTokenizerSchema = z.object({
  vocabulary: bpeVocabularySchema,
  perMessage: z.int().min(0),
  perPrompt: z.int().min(0),
});

/**
 * The counter of a tokenizer the worker sent with its model, counting here, with no request per
 * text. What arrived is checked first: a malformed one fails the load, saying so, rather than
 * leaving a budget to count with it.
 */
function tokenCounter(wire: WireTokenizer): TokenCounter {
  const checked = wireTokenizerSchema.safeParse(wire);
  if (!checked.success)
    throw new ModelError(
      'bad-response',
      `The model worker sent a tokenizer that cannot be counted with (${z.prettifyError(checked.error).replace(/\n/g, ' ')}); load the model again, or report this with the model file's name.`,
    );
  const { vocabulary, perMessage, perPrompt } = checked.data;
  const text = bpeCounter(vocabulary);
  return { counting: 'counted', text, perMessage, perPrompt };
}
