/**
 * The models a run can use, built in the engine worker: the scripted model over a recorded run,
 * an OpenAI-compatible endpoint (fetched from the worker), or WebLLM or llama.cpp (WebAssembly)
 * each in its own model worker, which this worker spawns on first use and talks to through
 * ModelWorkerClient (model-wire.ts). Live models are timed per step (step-speed.ts). Also the labels the page
 * shows, and the start screen's model look-ups: an endpoint's model list, WebLLM's cache and
 * llama.cpp's cached files.
 */
import { ModelError, type Model } from '../agent/model.ts';
import { CATALOG } from '../agent/models/catalog.ts';
import { ggufFileName, GGUF_CATALOG } from '../agent/models/gguf-catalog.ts';
import { timedModel, type StepSpeed } from '../agent/models/step-speed.ts';
import { ANSWER_TIMEOUT_MS, fetchError, normalizeBaseUrl, OpenAIModel } from '../agent/models/openai.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import type { ModelWorkerClient } from '../agent/models/worker-client.ts';
import type { CachedFile, GgufSource, LoadProgress, LoadRequest } from '../agent/models/worker-protocol.ts';
import { modelClient } from './model-wire.ts';
import { recordedRunById } from '../agent/scripts/starter-run.ts';
import type { EndpointProbe, ModelChoice, RunInfo } from './protocol.ts';

/** The part of a Worker the model link uses. */
export interface ModelPort {
  postMessage(message: unknown, transfer: Transferable[]): void;
  addEventListener(type: 'message' | 'error', listener: (event: Event) => void): void;
  terminate(): void;
}

/** How the page labels a model choice before it is loaded. */
export function modelLabel(choice: ModelChoice): RunInfo['model'] {
  switch (choice.kind) {
    case 'scripted':
      return { label: `scripted: ${recordedRunById(choice.recordedId)?.title ?? choice.recordedId}`, scripted: true };
    case 'openai':
      return {
        label: `${choice.model} at ${normalizeBaseUrl(choice.baseUrl)}`,
        scripted: false,
        answerLimitMs: ANSWER_TIMEOUT_MS,
      };
    case 'webllm':
      if (choice.custom) return { label: `WebLLM custom model at ${choice.custom.url}`, scripted: false };
      return {
        label: `WebLLM ${CATALOG.find((m) => m.id === choice.modelId)?.label ?? choice.modelId}`,
        scripted: false,
      };
    case 'gguf':
      return { label: `llama.cpp (CPU) ${choice.label ?? ggufSourceName(choice.source)}`, scripted: false };
    default: {
      const never: never = choice;
      throw new TypeError(`unknown model choice ${JSON.stringify(never)}`);
    }
  }
}

/** A replay-only run's model: the record's own turns, named by the model that made them when it was a live one. */
export function replayLabel(recordedId: string): RunInfo['model'] {
  if (recordedId.startsWith('scripted:')) return { label: 'the recorded outputs, replayed', scripted: true };
  return { label: `the recorded outputs of ${recordedId}, replayed`, scripted: true, recordedFrom: recordedId };
}

/** A GGUF source's file name (a URL's last part, or the picked file's name); a catalog model's label when it is one. */
export function ggufSourceName(source: GgufSource): string {
  if ('file' in source) return `${source.name} (file from disk)`;
  return GGUF_CATALOG.find((m) => m.url === source.url)?.label ?? ggufFileName(source.url);
}

/** What makes two loads the same model: the request, a picked file by its name, size and date. */
function loadKey(req: LoadRequest): string {
  const gguf =
    req.gguf &&
    ('file' in req.gguf
      ? { name: req.gguf.name, size: req.gguf.file.size, modified: (req.gguf.file as Partial<File>).lastModified ?? 0 }
      : req.gguf);
  return JSON.stringify([req.modelId, req.custom ?? null, gguf ?? null, req.contextTokens ?? null]);
}

/**
 * One model worker (WebLLM's or llama.cpp's), spawned on first use and kept, with the last
 * loaded model reused while the same one is asked for (loading again would recompile or
 * re-read the weights). A worker that dies rejects whatever was waiting on it, and the next
 * use spawns a new one.
 */
interface ModelWorker {
  readonly client: ModelWorkerClient;
  readonly port: ModelPort;
  /** Rejects when the worker dies. */
  readonly crashed: Promise<never>;
}

export class ModelLink {
  #worker: ModelWorker | null = null;
  #loaded: { modelId: string; key: string; model: Model } | null = null;

  constructor(private readonly spawn: () => ModelPort) {}

  /** `custom`: weights served from their own URL (`modelId` is then `custom.id`); `gguf`: llama.cpp's file. */
  async load(req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<Model> {
    // A custom model is the same one only with the same URL and library: key on all of it.
    const key = loadKey(req);
    if (this.#loaded?.key === key) return this.#loaded.model;
    this.#loaded = null;
    const model = this.#guarded(await this.#call((c) => c.load(req, onProgress)));
    this.#loaded = { modelId: req.modelId, key, model };
    return model;
  }

  /** `model` with its completions ended by the death of the worker that holds it, as every request to that worker is. */
  #guarded(model: Model): Model {
    const crashed = this.#worker?.crashed;
    if (!crashed) return model;
    return { ...model, complete: (messages, o) => Promise.race([model.complete(messages, o), crashed]) };
  }

  /** Every model file in the worker's cache (llama.cpp). */
  async listCached(): Promise<readonly CachedFile[]> {
    return this.#call((c) => c.remote.listCached());
  }

  /** Catalog ids whose weights are cached. */
  async cached(): Promise<string[]> {
    const out: string[] = [];
    for (const m of CATALOG) if (await this.#call((c) => c.remote.isCached(m.id))) out.push(m.id);
    return out;
  }

  async deleteCached(modelId: string): Promise<void> {
    if (this.#loaded?.modelId === modelId) {
      this.#loaded = null;
      await this.#call((c) => c.remote.unload());
    }
    await this.#call((c) => c.remote.deleteCached(modelId));
  }

  #call<T>(work: (client: ModelWorkerClient) => Promise<T>): Promise<T> {
    const w = (this.#worker ??= this.#start());
    return Promise.race([work(w.client), w.crashed]);
  }

  #start(): ModelWorker {
    const port = this.spawn();
    const client = modelClient({
      post: (message, transfer) => port.postMessage(message, transfer),
      listen: (receive) => port.addEventListener('message', (e) => receive((e as MessageEvent).data)),
    });
    let fail: (e: Error) => void = () => {};
    const crashed = new Promise<never>((_, reject) => (fail = reject));
    crashed.catch(() => {}); // observed through Promise.race only
    port.addEventListener('error', (e) => {
      const message = (e as ErrorEvent).message;
      port.terminate();
      if (this.#worker?.port === port) {
        this.#worker = null;
        this.#loaded = null;
      }
      fail(
        new ModelError(
          'load',
          `The model worker stopped (${message || 'its script failed to load'}), so the model is gone from this tab; run again to load it in a new worker, or pick a smaller model if it ran out of memory.`,
        ),
      );
    });
    return { client, port, crashed };
  }
}

export interface ModelContext {
  readonly contextTokens: number;
  readonly onProgress: (p: LoadProgress) => void;
  /** Absent where there is no model worker (Node tests): WebLLM is then refused with a reason. */
  readonly webllm?: ModelLink;
  /** llama.cpp's model worker; absent in Node. */
  readonly gguf?: ModelLink;
  /** Called with each live reply's speed (scripted turns have none). */
  readonly onSpeed?: (speed: StepSpeed) => void;
  readonly fetch?: typeof fetch;
}

/** The Model for a choice, timed when it is live. Throws a ModelError (or an Error) that says what to do; the run ends with it. */
export async function createModel(choice: ModelChoice, ctx: ModelContext): Promise<Model> {
  const model = await untimedModel(choice, ctx);
  return ctx.onSpeed && choice.kind !== 'scripted' ? timedModel(model, ctx.onSpeed) : model;
}

async function untimedModel(choice: ModelChoice, ctx: ModelContext): Promise<Model> {
  switch (choice.kind) {
    case 'scripted': {
      const recorded = recordedRunById(choice.recordedId);
      if (!recorded)
        throw new Error(`There is no recorded run "${choice.recordedId}"; pick one of the listed scripted runs.`);
      return new ScriptedModel(recorded.outputs, { name: recorded.id, contextWindow: ctx.contextTokens });
    }
    case 'openai':
      return new OpenAIModel({
        baseUrl: choice.baseUrl,
        model: choice.model,
        contextWindow: ctx.contextTokens,
        ...(choice.apiKey && { apiKey: choice.apiKey }),
        ...(choice.toolsApi && { toolsApi: true }),
        ...(ctx.fetch && { fetch: ctx.fetch }),
      });
    case 'webllm':
      if (!ctx.webllm)
        throw new Error('WebLLM runs only in a browser with a model worker; pick the scripted model or an endpoint.');
      return ctx.webllm.load(
        { modelId: choice.modelId, ...(choice.custom && { custom: choice.custom }), contextTokens: ctx.contextTokens },
        ctx.onProgress,
      );
    case 'gguf':
      if (!ctx.gguf)
        throw new Error(
          'llama.cpp in WebAssembly runs only in a browser with its model worker; in Node, use `slm run --model gguf:FILE`.',
        );
      return ctx.gguf.load(
        {
          modelId: 'url' in choice.source ? choice.source.url : choice.source.name,
          gguf: choice.source,
          contextTokens: ctx.contextTokens,
        },
        ctx.onProgress,
      );
    default: {
      const never: never = choice;
      throw new TypeError(`unknown model choice ${JSON.stringify(never)}`);
    }
  }
}

/** How long the connection check waits for an answer. */
export const PROBE_TIMEOUT_MS = 8000;

/** Asks an OpenAI-compatible endpoint for its models (`GET /models`): a quick check that the URL, the key and CORS are right. */
export async function probeEndpoint(
  baseUrl: string,
  apiKey: string | undefined,
  fetchFn: typeof fetch = fetch,
): Promise<EndpointProbe> {
  const url = `${normalizeBaseUrl(baseUrl)}/models`;
  if (!/^https?:\/\/[^/]/.test(url))
    return {
      ok: false,
      message: `The base URL must start with http:// or https://, e.g. http://127.0.0.1:11434/v1 (got ${JSON.stringify(baseUrl)}).`,
    };
  let res: Response;
  // A host that swallows packets would hold the worker's request queue: give up in time.
  const signal = AbortSignal.timeout(PROBE_TIMEOUT_MS);
  try {
    res = await fetchFn(url, { headers: apiKey ? { authorization: `Bearer ${apiKey}` } : {}, signal });
  } catch (e) {
    if (signal.aborted)
      return {
        ok: false,
        message: `${url} did not answer within ${PROBE_TIMEOUT_MS / 1000} s. Check the host and port, and that the server is running.`,
      };
    return { ok: false, message: fetchError(url, e).message };
  }
  if (!res.ok) {
    const hint =
      res.status === 401 || res.status === 403
        ? ' Check the API key.'
        : res.status === 404
          ? ' Check the base URL: it usually ends in /v1.'
          : '';
    return { ok: false, message: `${url} answered HTTP ${res.status}.${hint}` };
  }
  const body = (await res.json().catch(() => null)) as { data?: { id?: unknown }[] } | null;
  const models = (body?.data ?? []).map((m) => m.id).filter((id): id is string => typeof id === 'string');
  return { ok: true, models };
}
