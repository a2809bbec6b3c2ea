/**
 * llama.cpp in WebAssembly, on the CPU — the only importer of `@wllama/wllama`. Imported only
 * by the llama.cpp model worker (gguf.worker.ts), through a dynamic import, so neither the
 * page nor the engine worker ever loads it; its wasm file is a Vite asset of this origin.
 *
 * - Threads: one per physical core, up to 8, when the page is cross-origin isolated
 *   (SharedArrayBuffer); otherwise one. WebGPU stays off (`n_gpu_layers: 0`): this is the engine for browsers where
 *   WebLLM cannot run.
 * - JSON mode: `response_format: json_schema` — llama.cpp turns the schema into a grammar
 *   (`tools`/`tool_choice` would constrain nothing). Byte tokens that can produce invalid UTF-8
 *   are banned with `logit_bias` (utf8-bans.ts). The seed goes with each request; none is given
 *   at load (a load-time seed would override them).
 * - One slot (`n_parallel: 1`) with `cache_prompt`, so each turn reuses the KV cache of the
 *   conversation so far and reads only its new tokens.
 * - The budget counts in the file's own tokens where its vocabulary allows (bpe-counter.ts): the
 *   vocabulary goes back with the loaded model, with the chat template's overhead as llama.cpp
 *   counted it on two probe conversations at load (a template that refuses them leaves the
 *   budget calibrated from the reported usage).
 * - Downloads are resumable (gguf-download.ts) and kept in the origin's private file system
 *   through wllama's cache; a file picked from disk is read in place.
 */
import { CacheManager, Wllama, type ChatCompletionChunk } from '@wllama/wllama';
import wasmUrl from '@wllama/wllama/esm/wasm/wllama.wasm?url';
import {
  ModelError,
  type ChatMessage,
  type Completion,
  type CompleteOptions,
  type EngineTimings,
  type FinishReason,
  type Usage,
} from '../model.ts';
import { TEMPLATE_PROBES, templateOverhead } from '../tokens.ts';
import { bpeCounter, bpeVocabulary } from './bpe-counter.ts';
import { contextError } from './context-errors.ts';
import { modelFamily } from './catalog.ts';
import { ggufFileName } from './gguf-catalog.ts';
import { downloadGguf } from './gguf-download.ts';
import { GgufFormatError, metaString, readGgufHeader, trainedContext, type GgufHeader } from './gguf-header.ts';
import { detectGpu } from './gpu.ts';
import { bannedTokenIds } from './utf8-bans.ts';
import { threadCount } from './wasm-threads.ts';
import type { HostedModel, ModelBackend } from './worker-host.ts';
import type { CachedFile, GgufSource, LoadProgress, LoadRequest, WireTokenizer } from './worker-protocol.ts';

export const wllamaBackend: ModelBackend = {
  load: loadGguf,
  isCached: async (url) => (await listCached()).some((f) => f.url === url && f.complete),
  deleteCached: async (url) => cache().delete(url),
  listCached,
  gpu: () => detectGpu(),
};

let cacheManager: CacheManager | undefined;
const cache = () => (cacheManager ??= new CacheManager());

async function listCached(): Promise<CachedFile[]> {
  const entries = await cache().list();
  return entries
    .filter((e) => e.metadata.originalURL)
    .map((e) => ({
      url: e.metadata.originalURL,
      name: ggufFileName(e.metadata.originalURL),
      bytes: e.size,
      complete: e.size === e.metadata.originalSize,
    }));
}

async function loadGguf(req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<HostedModel> {
  const source = req.gguf;
  if (!source)
    throw new ModelError('load', `llama.cpp needs a GGUF file for ${req.modelId}: a URL or a file picked from disk.`);
  const name = 'url' in source ? ggufFileName(source.url) : source.name;
  const started = Date.now();
  const file = await openSource(source, name, started, onProgress);
  let header: GgufHeader;
  try {
    header = await readGgufHeader(file);
  } catch (e) {
    if ('url' in source)
      await cache()
        .delete(source.url)
        .catch(() => {});
    throw new ModelError('load', `${name} cannot be loaded: ${e instanceof GgufFormatError ? e.message : String(e)}`);
  }
  const trained = trainedContext(header);
  const nCtx = Math.min(req.contextTokens ?? 4096, trained ?? Infinity);
  const threads = threadCount(globalThis.crossOriginIsolated === true, globalThis.navigator?.hardwareConcurrency ?? 1);
  const why = globalThis.crossOriginIsolated === true ? '' : ': this page is not cross-origin isolated';
  onProgress({
    progress: 1,
    text: `Starting llama.cpp (${threads === 1 ? `one thread${why}` : `${threads} threads`}) with ${name}…`,
    elapsedMs: Date.now() - started,
  });
  const wllama = new Wllama({ default: wasmUrl }, { suppressNativeLog: true });
  wllama.setCompat(null); // never fetch a compatibility build from a CDN
  try {
    await wllama.loadModel([file], { n_ctx: nCtx, n_threads: threads, n_gpu_layers: 0, n_parallel: 1, jinja: true });
  } catch (e) {
    await wllama.exit().catch(() => {});
    throw new ModelError(
      'load',
      `llama.cpp could not load ${name}: ${e instanceof Error ? e.message : String(e)}. The file may be damaged, too large for this browser's memory (about 4 GB at most), or of an architecture this llama.cpp build does not know.`,
    );
  }
  const modelName = metaString(header, 'general.name') ?? name.replace(/\.gguf$/i, '');
  const bans = bannedTokenIds(header).map((id) => [id, false] as const);
  const ask = (messages: readonly ChatMessage[], opts: CompleteOptions) => complete(wllama, name, bans, messages, opts);
  const tokenizer = await wireTokenizer(header, ask);
  return {
    id: `gguf:${'url' in source ? source.url : name}`,
    family: modelFamily(modelName),
    contextWindow: nCtx,
    ...(tokenizer && { wireTokenizer: tokenizer }),
    complete: ask,
    unload: () => wllama.exit(),
  };
}

/**
 * The file's tokenizer for the budget, when its vocabulary is one bpe-counter.ts applies: the
 * vocabulary, and its chat template's tokens per message and per prompt as llama.cpp renders and
 * counts them (two probe conversations answered with one token each; their prompt sizes are what
 * llama.cpp read). Undefined for another vocabulary, or when llama.cpp reports no prompt size or
 * refuses a probe.
 */
async function wireTokenizer(
  header: GgufHeader,
  ask: (messages: readonly ChatMessage[], opts: CompleteOptions) => Promise<Completion>,
): Promise<WireTokenizer | undefined> {
  const vocabulary = bpeVocabulary(header);
  if (!vocabulary) return undefined;
  const read = async (messages: readonly ChatMessage[]) =>
    (await ask(messages, { seed: 0, temperature: 0, maxTokens: 1 })).usage?.promptTokens;
  let one: number | undefined;
  let two: number | undefined;
  try {
    one = await read(TEMPLATE_PROBES.one);
    two = await read(TEMPLATE_PROBES.two);
  } catch {
    // A template that refuses the probes: the budget is calibrated, and the run's own first
    // request says what the engine refuses.
    return undefined;
  }
  if (one === undefined || two === undefined) return undefined;
  return { vocabulary, ...templateOverhead(one, two, bpeCounter(vocabulary)) };
}

/** The file to load: picked from disk as it is, or from the cache (downloading it first when missing or cut short). */
async function openSource(
  source: GgufSource,
  name: string,
  started: number,
  onProgress: (p: LoadProgress) => void,
): Promise<Blob> {
  if ('file' in source) {
    onProgress({
      progress: 1,
      text: `Reading ${name} from disk (${mbText(source.file.size)}); nothing is downloaded.`,
      elapsedMs: 0,
      loadedBytes: source.file.size,
      totalBytes: source.file.size,
    });
    return source.file;
  }
  const url = source.url;
  if (!(await wllamaBackend.isCached(url))) {
    onProgress({ progress: 0, text: `Downloading ${name} from ${new URL(url).host}…`, elapsedMs: 0 });
    const chunks = downloadGguf(url, {
      onProgress: (loaded, total) => onProgress(progressOf(name, loaded, total, Date.now() - started)),
    });
    const stream = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const next = await chunks.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (e) {
          controller.error(e);
        }
      },
    });
    let failure: unknown;
    const key = await cache().getNameFromURL(url);
    // A stream that errors ends the write with the download's own error, kept for the message.
    await cache()
      .write(key, stream, { originalURL: url, originalSize: 0, etag: '' })
      .catch((e: unknown) => (failure = e));
    if (failure !== undefined) {
      await cache()
        .delete(url)
        .catch(() => {});
      if (failure instanceof ModelError) throw failure;
      throw new ModelError(
        'storage',
        `${name} could not be stored in this browser (${failure instanceof Error ? failure.message : String(failure)}). Free some disk space, or pick the .gguf file from disk instead.`,
      );
    }
    const size = await cache().getSize(key);
    await cache().writeMetadata(key, { originalURL: url, originalSize: size, etag: '' });
  } else {
    onProgress({ progress: 1, text: `Reading ${name} from the browser's cache…`, elapsedMs: Date.now() - started });
  }
  const blob = await cache().open(url);
  if (!blob)
    throw new ModelError(
      'storage',
      `${name} was downloaded but cannot be read back from the browser's storage; delete it from the cache list and try again.`,
    );
  return blob;
}

function progressOf(name: string, loaded: number, total: number, elapsedMs: number): LoadProgress {
  const progress = total > 0 ? loaded / total : 0;
  return {
    progress,
    text: `Downloading ${name}: ${mbText(loaded)}${total > 0 ? ` of ${mbText(total)}` : ''}`,
    elapsedMs,
    loadedBytes: loaded,
    ...(total > 0 && { totalBytes: total }),
    ...(progress > 0 && progress < 1 && { etaMs: (elapsedMs * (1 - progress)) / progress }),
  };
}

async function complete(
  wllama: Wllama,
  name: string,
  bans: readonly (readonly [number, false])[],
  messages: readonly ChatMessage[],
  o: CompleteOptions,
): Promise<Completion> {
  let text = '';
  let last: ChatCompletionChunk | undefined;
  const params = {
    messages: messages.map((m) => ({ role: m.role, content: m.content })),
    stream: true as const,
    seed: o.seed,
    temperature: o.temperature,
    cache_prompt: true,
    // Qwen3's template would otherwise open a thinking block before the JSON.
    chat_template_kwargs: { enable_thinking: false },
    ...(o.maxTokens !== undefined && { max_tokens: o.maxTokens }),
    ...(o.jsonSchema && {
      response_format: {
        type: 'json_schema' as const,
        json_schema: { name: 'tool_call', schema: o.jsonSchema, strict: true },
      },
    }),
    ...(o.signal && { abortSignal: o.signal }),
    onData: (chunk: ChatCompletionChunk) => {
      last = chunk;
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        text += delta;
        o.onToken?.(delta);
      }
    },
  };
  try {
    // llama-server's JSON accepts [[token, false]] pairs (false = never); the typings, an
    // intersection of two shapes, admit no value at all.
    type Params = Parameters<Wllama['createChatCompletion']>[0];
    await wllama.createChatCompletion({ ...params, logit_bias: bans } as unknown as Params & {
      stream: true;
      onData: (c: ChatCompletionChunk) => void;
    });
  } catch (e) {
    if (o.signal?.aborted) throw new ModelError('aborted', 'The model request was stopped.');
    const said = e instanceof Error ? e.message : String(e);
    throw (
      contextError(`llama.cpp (${name})`, said) ??
      new ModelError('load', `llama.cpp failed while answering with ${name}: ${said}`)
    );
  }
  if (o.signal?.aborted) throw new ModelError('aborted', 'The model request was stopped.');
  const t = last?.timings;
  // The token counts as llama.cpp's tokenizer made them; the timings have them when usage is absent.
  const usage: Usage | undefined = last?.usage
    ? { promptTokens: last.usage.prompt_tokens, completionTokens: last.usage.completion_tokens }
    : t && { promptTokens: t.prompt_n + t.cache_n, completionTokens: t.predicted_n };
  const timings: EngineTimings | undefined = t
    ? {
        promptTokens: t.prompt_n,
        cachedTokens: t.cache_n,
        prefillTps: t.prompt_per_second,
        decodeTps: t.predicted_per_second,
      }
    : undefined;
  const finish = last?.choices[0]?.finish_reason;
  const finishReason: FinishReason | undefined = finish ? (finish === 'length' ? 'length' : 'stop') : undefined;
  return { text, ...(finishReason && { finishReason }), ...(usage && { usage }), ...(timings && { timings }) };
}

function mbText(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}
