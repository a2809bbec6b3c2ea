/**
 * The WebLLM models offered in the UI, with the VRAM each needs (MB, from WebLLM's prebuilt
 * config), what sizes their context window (architectures.ts), and the model-family names the edit-format bandit keys on for any model id (WebLLM
 * ids, Ollama tags, Hugging Face names). The q4f16 builds need the shader-f16 WebGPU feature;
 * the small models also come as q4f32 builds, which run where that feature is missing.
 */

import { ARCHITECTURES, kvBytesPerToken, type ArchitectureId } from './architectures.ts';

export interface CatalogModel {
  /** WebLLM model id (`model_id` in its app config). */
  readonly id: string;
  readonly label: string;
  readonly family: string;
  readonly params: string;
  readonly vramMB: number;
  /** The window WebLLM's prebuilt config sets, and measured `vramMB` at. */
  readonly contextWindow: number;
  /** The context length the model was trained for (its model card). */
  readonly trainedContext: number;
  /** KV-cache bytes per token of window: an f16 cache for the q4f16 builds, f32 for q4f32. */
  readonly kvBytesPerToken: number;
  /** VRAM the model needs apart from its KV cache (weights and buffers): `vramMB` less the cache at `contextWindow`. */
  readonly baseMB: number;
  /** Needs the shader-f16 WebGPU feature (every q4f16 build does). */
  readonly needsF16: boolean;
}

/** Known families, most specific first; the canonical spelling is the replacement. */
const FAMILIES: readonly (readonly [RegExp, string])[] = [
  [/qwen-?2\.5-?coder/, 'qwen2.5-coder'],
  [/qwen-?2\.5/, 'qwen2.5'],
  [/qwen-?3/, 'qwen3'],
  [/qwen-?2/, 'qwen2'],
  [/llama-?3\.2/, 'llama-3.2'],
  [/llama-?3\.1/, 'llama-3.1'],
  [/llama-?3/, 'llama-3'],
  [/codellama/, 'codellama'],
  [/smollm-?2/, 'smollm2'],
  [/phi-?3\.5/, 'phi-3.5'],
  [/phi-?4/, 'phi-4'],
  [/phi-?3/, 'phi-3'],
  [/gemma-?3/, 'gemma-3'],
  [/gemma-?2/, 'gemma-2'],
  [/deepseek-?coder/, 'deepseek-coder'],
  [/starcoder-?2/, 'starcoder2'],
  [/mistral/, 'mistral'],
];

export const DEFAULT_MODEL_ID = 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC';

/** WebLLM's prebuilt models run at this window unless asked for another. */
const PREBUILT_WINDOW = 4096;

function entry(id: string, label: string, params: string, vramMB: number, arch: ArchitectureId): CatalogModel {
  const needsF16 = id.includes('q4f16');
  const a = ARCHITECTURES[arch];
  const kv = kvBytesPerToken(a, needsF16 ? 2 : 4);
  return {
    id,
    label,
    family: modelFamily(id),
    params,
    vramMB,
    contextWindow: PREBUILT_WINDOW,
    trainedContext: a.trainedContext,
    kvBytesPerToken: kv,
    baseMB: Math.round(vramMB - (PREBUILT_WINDOW * kv) / 2 ** 20),
    needsF16,
  };
}

/**
 * Smallest first, so the list reads as a VRAM ladder. The q4f32 builds (for GPUs without
 * shader-f16) are kept to the smallest model and the coder models up to 3B: a GPU that lacks
 * the feature is usually an older or integrated one.
 */
export const CATALOG: readonly CatalogModel[] = [
  entry('SmolLM2-360M-Instruct-q4f16_1-MLC', 'SmolLM2 360M', '360M', 376, 'smollm2-360m'),
  entry('SmolLM2-360M-Instruct-q4f32_1-MLC', 'SmolLM2 360M (q4f32)', '360M', 580, 'smollm2-360m'),
  entry('Llama-3.2-1B-Instruct-q4f16_1-MLC', 'Llama 3.2 1B', '1B', 879, 'llama-3.2-1b'),
  entry('Qwen2.5-Coder-0.5B-Instruct-q4f16_1-MLC', 'Qwen2.5-Coder 0.5B', '0.5B', 945, 'qwen2.5-coder-0.5b'),
  entry('Qwen2.5-Coder-0.5B-Instruct-q4f32_1-MLC', 'Qwen2.5-Coder 0.5B (q4f32)', '0.5B', 1060, 'qwen2.5-coder-0.5b'),
  entry(DEFAULT_MODEL_ID, 'Qwen2.5-Coder 1.5B', '1.5B', 1630, 'qwen2.5-coder-1.5b'),
  entry('Qwen2.5-Coder-1.5B-Instruct-q4f32_1-MLC', 'Qwen2.5-Coder 1.5B (q4f32)', '1.5B', 1889, 'qwen2.5-coder-1.5b'),
  entry('Qwen3-1.7B-q4f16_1-MLC', 'Qwen3 1.7B', '1.7B', 2037, 'qwen3-1.7b'),
  entry('Llama-3.2-3B-Instruct-q4f16_1-MLC', 'Llama 3.2 3B', '3B', 2264, 'llama-3.2-3b'),
  entry('Qwen2.5-Coder-3B-Instruct-q4f16_1-MLC', 'Qwen2.5-Coder 3B', '3B', 2505, 'qwen2.5-coder-3b'),
  entry('Qwen2.5-Coder-3B-Instruct-q4f32_1-MLC', 'Qwen2.5-Coder 3B (q4f32)', '3B', 2894, 'qwen2.5-coder-3b'),
  entry('Qwen3-4B-q4f16_1-MLC', 'Qwen3 4B', '4B', 3432, 'qwen3-4b'),
  entry('Phi-3.5-mini-instruct-q4f16_1-MLC', 'Phi-3.5 mini', '3.8B', 3672, 'phi-3.5-mini'),
  entry('Qwen2.5-Coder-7B-Instruct-q4f16_1-MLC', 'Qwen2.5-Coder 7B', '7B', 5107, 'qwen2.5-coder-7b'),
];

export function catalogModel(id: string): CatalogModel | undefined {
  return CATALOG.find((m) => m.id === id);
}

/** The q4f32 build of a q4f16 catalog model, when the catalog offers one (for GPUs without shader-f16). */
export function f32Build(id: string): CatalogModel | undefined {
  return id.includes('q4f16') ? catalogModel(id.replace('q4f16', 'q4f32')) : undefined;
}

/**
 * The family of a model id: `Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC`, `qwen2.5-coder:1.5b` and
 * `Qwen/Qwen2.5-Coder-1.5B-Instruct-GGUF` are all `qwen2.5-coder`. Unknown ids keep their
 * first name part, lowercased.
 */
export function modelFamily(id: string): string {
  const name = id.toLowerCase().split('/').pop() ?? '';
  for (const [re, family] of FAMILIES) if (re.test(name)) return family;
  return name.split(/[-:_\s]/)[0] || 'unknown';
}
