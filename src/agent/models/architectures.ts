/**
 * The architecture facts the catalogs need to size a context window: each base model's trained
 * context length and the shape of its KV cache, and from them the cache's bytes per token.
 *
 * Where the numbers come from: each model's `config.json` on Hugging Face (`num_hidden_layers`,
 * `num_key_value_heads`, and `head_dim`, or `hidden_size / num_attention_heads` where the config
 * has no `head_dim`), and the context length its model card states (the Qwen3 cards say 32,768
 * though their configs carry `max_position_embeddings: 40960`; the Qwen2.5-Coder 7B card's 131,072
 * needs YaRN, so its native 32,768 is used).
 */

export interface Architecture {
  readonly layers: number;
  readonly kvHeads: number;
  readonly headDim: number;
  /** The context length the model was trained for, in tokens. */
  readonly trainedContext: number;
}

/** By base model, as the catalogs name them. */
export const ARCHITECTURES = {
  // HuggingFaceTB/SmolLM2-*-Instruct: hidden 960, 15 heads / 2048, 32 heads.
  'smollm2-360m': { layers: 32, kvHeads: 5, headDim: 64, trainedContext: 8192 },
  'smollm2-1.7b': { layers: 24, kvHeads: 32, headDim: 64, trainedContext: 8192 },
  // Qwen/Qwen2.5-Coder-*-Instruct: hidden 896/14 heads, 1536/12, 2048/16, 3584/28.
  'qwen2.5-coder-0.5b': { layers: 24, kvHeads: 2, headDim: 64, trainedContext: 32768 },
  'qwen2.5-coder-1.5b': { layers: 28, kvHeads: 2, headDim: 128, trainedContext: 32768 },
  'qwen2.5-coder-3b': { layers: 36, kvHeads: 2, headDim: 128, trainedContext: 32768 },
  'qwen2.5-coder-7b': { layers: 28, kvHeads: 4, headDim: 128, trainedContext: 32768 },
  // Qwen/Qwen3-*: head_dim 128 in the config.
  'qwen3-0.6b': { layers: 28, kvHeads: 8, headDim: 128, trainedContext: 32768 },
  'qwen3-1.7b': { layers: 28, kvHeads: 8, headDim: 128, trainedContext: 32768 },
  'qwen3-4b': { layers: 36, kvHeads: 8, headDim: 128, trainedContext: 32768 },
  // meta-llama/Llama-3.2-*-Instruct: head_dim 64 / 128; 128K context.
  'llama-3.2-1b': { layers: 16, kvHeads: 8, headDim: 64, trainedContext: 131072 },
  'llama-3.2-3b': { layers: 28, kvHeads: 8, headDim: 128, trainedContext: 131072 },
  // microsoft/Phi-3.5-mini-instruct: hidden 3072, 32 heads, no grouped-query attention; 128K context.
  'phi-3.5-mini': { layers: 32, kvHeads: 32, headDim: 96, trainedContext: 131072 },
  // google/gemma-3-1b-it: head_dim 256, one KV head; most layers attend to a 512-token sliding
  // window, but the cache is sized here as if every layer kept the whole window (an upper bound).
  'gemma-3-1b': { layers: 26, kvHeads: 1, headDim: 256, trainedContext: 32768 },
} as const satisfies Record<string, Architecture>;

export type ArchitectureId = keyof typeof ARCHITECTURES;

/**
 * Bytes the KV cache takes per token of window: a key and a value vector per layer and KV head,
 * `2 × layers × kvHeads × headDim × bytesPerElement` (2 for an f16 cache, 4 for f32).
 */
export function kvBytesPerToken(a: Architecture, bytesPerElement: number): number {
  return 2 * a.layers * a.kvHeads * a.headDim * bytesPerElement;
}
