/**
 * WebLLM on WebGPU — the only importer of `@mlc-ai/web-llm` (a 6.8 MB module). It is imported
 * only by the model worker, through a dynamic import, so the main bundle never contains it.
 * JSON mode uses `response_format: {type: "json_object", schema}` (xgrammar, any model);
 * `seed` + `temperature` give best-effort determinism. Errors become ModelErrors that say
 * what to do (webllm-errors.ts): no WebGPU, no adapter, no shader-f16, device lost, quota, a
 * model host that cannot be reached.
 */
import {
  CreateMLCEngine,
  deleteModelAllInfoInCache,
  hasModelInCache,
  prebuiltAppConfig,
  type AppConfig,
  type InitProgressReport,
  type MLCEngine,
  type ModelRecord,
} from '@mlc-ai/web-llm';
import {
  ModelError,
  type ChatMessage,
  type Completion,
  type CompleteOptions,
  type FinishReason,
  type Usage,
} from '../model.ts';
import { catalogModel, DEFAULT_MODEL_ID, modelFamily } from './catalog.ts';
import { detectGpu } from './gpu.ts';
import { explainWebLLMError } from './webllm-errors.ts';
import { failedFileText, firstFailingFile } from './webllm-probe.ts';
import type { HostedModel, ModelBackend } from './worker-host.ts';
import type { CustomModel, LoadProgress, LoadRequest } from './worker-protocol.ts';

/** The backend the model worker serves. */
export const webllmBackend: ModelBackend = {
  load: loadWebLLM,
  isCached: (modelId) => hasModelInCache(modelId, prebuiltAppConfig),
  deleteCached: (modelId) => deleteModelAllInfoInCache(modelId, prebuiltAppConfig),
  gpu: () => detectGpu(),
};

/** Creates the WebLLM engine for a model: downloads (or reads from the cache) its weights and library, then compiles it. */
export async function loadWebLLM(req: LoadRequest, onProgress: (p: LoadProgress) => void): Promise<HostedModel> {
  const appConfig = buildAppConfig(req);
  const hosts = modelHosts(appConfig, req.modelId);
  // The window asked for (the start screen sizes it to the device), within what the model was trained on.
  const listed = catalogModel(req.custom?.baseModelId ?? req.modelId);
  const contextWindow = Math.min(
    req.contextTokens ?? listed?.contextWindow ?? 4096,
    listed?.trainedContext ?? Infinity,
  );
  // WebLLM reports nothing until its first file arrives: say where the files come from meanwhile.
  onProgress({
    progress: 0,
    text: `Fetching the model's files from ${hosts.join(' and ') || 'its host'} (or the browser's cache)…`,
    elapsedMs: 0,
  });
  let engine: MLCEngine;
  try {
    engine = await CreateMLCEngine(
      req.modelId,
      { appConfig, initProgressCallback: (r) => onProgress(toProgress(r)) },
      { context_window_size: contextWindow },
    );
  } catch (e) {
    const explained = explainWebLLMError(e, req.modelId, hosts);
    // "Request failed" names no file: ask the host for each file again to say which one, and how it answered.
    const record = appConfig.model_list.find((r) => r.model_id === req.modelId);
    const refused = explained.code === 'http' && record ? await firstFailingFile(record.model, record.model_lib) : null;
    throw refused ? explainWebLLMError(e, req.modelId, hosts, failedFileText(refused)) : explained;
  }
  return {
    id: `webllm:${req.modelId}`,
    family: modelFamily(req.custom?.baseModelId ?? req.modelId),
    contextWindow,
    complete: (messages, opts) => complete(engine, req.modelId, messages, opts),
    unload: () => engine.unload(),
  };
}

/** The hosts a model's weights and library are fetched from (e.g. huggingface.co, raw.githubusercontent.com). */
function modelHosts(appConfig: AppConfig, modelId: string): string[] {
  const record = appConfig.model_list.find((r) => r.model_id === modelId);
  const hosts = [record?.model, record?.model_lib].flatMap((url) =>
    url && URL.canParse(url) ? [new URL(url).host] : [],
  );
  return [...new Set(hosts)];
}

async function complete(
  engine: MLCEngine,
  modelId: string,
  messages: readonly ChatMessage[],
  o: CompleteOptions,
): Promise<Completion> {
  const stop = () => void engine.interruptGenerate();
  o.signal?.addEventListener('abort', stop, { once: true });
  try {
    const chunks = await engine.chat.completions.create({
      messages: messages.map((m) => ({ role: m.role, content: m.content })),
      stream: true,
      stream_options: { include_usage: true },
      seed: o.seed,
      temperature: o.temperature,
      ...(o.maxTokens !== undefined && { max_tokens: o.maxTokens }),
      ...(o.jsonSchema && { response_format: { type: 'json_object' as const, schema: JSON.stringify(o.jsonSchema) } }),
    });
    let text = '';
    let usage: Usage | undefined;
    let finishReason: FinishReason | undefined;
    for await (const chunk of chunks) {
      const finish = chunk.choices[0]?.finish_reason;
      if (finish) finishReason = finish === 'length' ? 'length' : 'stop';
      const delta = chunk.choices[0]?.delta?.content;
      if (delta) {
        text += delta;
        o.onToken?.(delta);
      }
      if (chunk.usage)
        usage = { promptTokens: chunk.usage.prompt_tokens, completionTokens: chunk.usage.completion_tokens };
    }
    if (o.signal?.aborted) throw new ModelError('aborted', 'The model request was stopped.');
    return { text, ...(finishReason && { finishReason }), ...(usage && { usage }) };
  } catch (e) {
    if (e instanceof ModelError) throw e;
    throw explainWebLLMError(e, modelId);
  } finally {
    o.signal?.removeEventListener('abort', stop);
  }
}

/** The prebuilt model list, plus a custom model served from its own URL. */
function buildAppConfig(req: LoadRequest): AppConfig {
  const list: ModelRecord[] = [...prebuiltAppConfig.model_list];
  if (req.custom) list.push(customRecord(req.custom, list));
  return { ...prebuiltAppConfig, model_list: list, ...(req.cacheBackend && { cacheBackend: req.cacheBackend }) };
}

function customRecord(custom: CustomModel, prebuilt: readonly ModelRecord[]): ModelRecord {
  const base = prebuilt.find((r) => r.model_id === (custom.baseModelId ?? DEFAULT_MODEL_ID));
  const lib = custom.modelLib ?? (custom.baseModelId ? base?.model_lib : undefined);
  if (!lib) {
    throw new ModelError(
      'load',
      `The custom model ${custom.id} needs its compiled model library: give modelLib (the .wasm URL) or baseModelId (a catalog model with the same architecture and quantisation, e.g. ${DEFAULT_MODEL_ID}).`,
    );
  }
  if (!/^https?:\/\//.test(custom.url)) {
    throw new ModelError(
      'load',
      `The custom model URL must be absolute (https://…), serving resolve/main/ files; got ${JSON.stringify(custom.url)}.`,
    );
  }
  return {
    model: custom.url,
    model_id: custom.id,
    model_lib: lib,
    ...(base?.overrides && { overrides: base.overrides }),
    ...(base?.vram_required_MB && { vram_required_MB: base.vram_required_MB }),
  };
}

/** Progress with bytes and an ETA: WebLLM reports a fraction, seconds elapsed and "NNNMB fetched" in its text. */
export function toProgress(r: InitProgressReport): LoadProgress {
  const elapsedMs = r.timeElapsed * 1000;
  const mb = /(\d+)MB (?:fetched|loaded)/.exec(r.text)?.[1];
  const loadedBytes = mb ? Number(mb) * 2 ** 20 : undefined;
  const p = r.progress;
  return {
    progress: p,
    text: r.text,
    elapsedMs,
    ...(p > 0 && p < 1 && elapsedMs > 0 && { etaMs: (elapsedMs * (1 - p)) / p }),
    ...(loadedBytes !== undefined && { loadedBytes }),
    ...(loadedBytes !== undefined && p > 0 && { totalBytes: Math.round(loadedBytes / p) }),
  };
}
