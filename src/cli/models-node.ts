/**
 * The CLI's model list for find_models: the GGUF catalog judged against this machine's free
 * memory (llama.cpp runs here), and the WebLLM catalog, which needs WebGPU in a tab — the CLI
 * has none, so those are listed as not fitting here. Whether weights are cached is not known here.
 * With an endpoint (`slm run --model openai:BASE#MODEL`), its own list comes too (endpoint-models.ts).
 */
import { freemem } from 'node:os';
import { CATALOG } from '../agent/models/catalog.ts';
import { GGUF_CATALOG } from '../agent/models/gguf-catalog.ts';
import type { ModelListing, ModelsAccess } from '../engine/models-listing.ts';
import { endpointModels } from './endpoint-models.ts';

/** The Node host's model list; `endpoint`: the base URL of an OpenAI-compatible endpoint whose own list is added. */
export function nodeModels(endpoint?: string): ModelsAccess {
  return async () => {
    const local = catalogModels();
    if (endpoint === undefined) return { models: local };
    const remote = await endpointModels(endpoint);
    return { models: [...remote.models, ...local], notes: remote.notes };
  };
}

function catalogModels(): ModelListing[] {
  const freeMB = Math.floor(freemem() / 1024 / 1024);
  const gguf: ModelListing[] = GGUF_CATALOG.map((m) => ({
    id: `gguf:${m.id}`,
    engine: 'gguf',
    label: `${m.label} (${m.params})`,
    sizeMB: m.sizeMB,
    fits: m.memoryMB <= freeMB,
    why: `needs about ${m.memoryMB} MB of memory, ${freeMB} MB free`,
  }));
  const webllm: ModelListing[] = CATALOG.map((m) => ({
    id: m.id,
    engine: 'webllm',
    label: `${m.label} (${m.params})`,
    sizeMB: m.vramMB,
    contextWindow: m.contextWindow,
    fits: false,
    why: `WebGPU in a browser tab${m.needsF16 ? ' with shader-f16' : ''}; the CLI has none`,
  }));
  return [...gguf, ...webllm];
}
