/**
 * The GGUF models llama.cpp (WebAssembly, on the CPU) offers in the UI: small instruct models
 * at Q4_K_M, each with its download, the memory it needs and the speed to expect.
 *
 * Where the figures come from:
 * - `sizeMB`: the file's size as its Hugging Face repository lists it (a fact; `sizeNote` says
 *   when the figure is taken from the same quantisation of the same architecture in another repo);
 * - `memoryMB`: an estimate — `baseMB` (the weights, i.e. the file, and about 150 MB of compute
 *   buffers) plus an f16 KV cache for 4,096 tokens (`kvBytesPerToken`, from the architecture's
 *   layers × KV heads × head size: architectures.ts, which also gives `trainedContext`);
 * - `decodeTps`: an estimate, not a measurement — tokens per second while writing on a 4-core
 *   laptop CPU with the multi-threaded build (cross-origin isolated page); single-threaded, expect
 *   about a third. Reading the prompt (prefill) runs several times faster than writing.
 */

import { ARCHITECTURES, kvBytesPerToken, type ArchitectureId } from './architectures.ts';

export interface GgufModel {
  /** Stable id used on the start screen and in `?model=`. */
  readonly id: string;
  readonly label: string;
  readonly params: string;
  /** Hugging Face repository and file. */
  readonly repo: string;
  readonly file: string;
  /** The file's download URL (Hugging Face serves it with CORS). */
  readonly url: string;
  readonly sizeMB: number;
  readonly sizeNote?: string;
  /** Memory at a 4,096-token window: `baseMB` + 4,096 × `kvBytesPerToken`. */
  readonly memoryMB: number;
  /** Memory apart from the KV cache: the weights and llama.cpp's compute buffers. */
  readonly baseMB: number;
  /** The context length the model was trained for (its model card). */
  readonly trainedContext: number;
  /** KV-cache bytes per token of window (llama.cpp's default f16 cache). */
  readonly kvBytesPerToken: number;
  readonly decodeTps: number;
}

/** llama.cpp's compute buffers, about the same for these small models. */
export const BUFFERS_MB = 150;

type Entry = Omit<GgufModel, 'url' | 'memoryMB' | 'baseMB' | 'trainedContext' | 'kvBytesPerToken'> & {
  readonly arch: ArchitectureId;
};

export const DEFAULT_GGUF_ID = 'qwen2.5-coder-0.5b-instruct-q4_k_m';

/** Smallest download first. */
const ENTRIES: readonly Entry[] = [
  {
    id: 'qwen2.5-coder-0.5b-instruct-q4_k_m',
    arch: 'qwen2.5-coder-0.5b',
    label: 'Qwen2.5-Coder 0.5B Instruct',
    params: '0.5B',
    repo: 'lmstudio-community/Qwen2.5-Coder-0.5B-Instruct-GGUF',
    file: 'Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf',
    sizeMB: 398,
    decodeTps: 20,
  },
  {
    id: 'qwen3-0.6b-q4_k_m',
    arch: 'qwen3-0.6b',
    label: 'Qwen3 0.6B',
    params: '0.6B',
    repo: 'ggml-org/Qwen3-0.6B-GGUF',
    file: 'Qwen3-0.6B-Q4_K_M.gguf',
    sizeMB: 397,
    sizeNote: 'size of a Qwen3-0.6B Q4_K_M file in another repository',
    decodeTps: 16,
  },
  {
    id: 'gemma-3-1b-it-q4_k_m',
    arch: 'gemma-3-1b',
    label: 'Gemma 3 1B it',
    params: '1B',
    repo: 'lmstudio-community/gemma-3-1b-it-GGUF',
    file: 'gemma-3-1b-it-Q4_K_M.gguf',
    sizeMB: 806,
    decodeTps: 10,
  },
  {
    id: 'llama-3.2-1b-instruct-q4_k_m',
    arch: 'llama-3.2-1b',
    label: 'Llama 3.2 1B Instruct',
    params: '1B',
    repo: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    sizeMB: 808,
    decodeTps: 10,
  },
  {
    id: 'qwen2.5-coder-1.5b-instruct-q4_k_m',
    arch: 'qwen2.5-coder-1.5b',
    label: 'Qwen2.5-Coder 1.5B Instruct',
    params: '1.5B',
    repo: 'bartowski/Qwen2.5-Coder-1.5B-Instruct-GGUF',
    file: 'Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf',
    sizeMB: 986,
    decodeTps: 8,
  },
  {
    id: 'smollm2-1.7b-instruct-q4_k_m',
    arch: 'smollm2-1.7b',
    label: 'SmolLM2 1.7B Instruct',
    params: '1.7B',
    repo: 'mradermacher/SmolLM2-1.7B-Instruct-GGUF',
    file: 'SmolLM2-1.7B-Instruct.Q4_K_M.gguf',
    sizeMB: 1060,
    decodeTps: 7,
  },
  {
    id: 'qwen3-1.7b-q4_k_m',
    arch: 'qwen3-1.7b',
    label: 'Qwen3 1.7B',
    params: '1.7B',
    repo: 'ggml-org/Qwen3-1.7B-GGUF',
    file: 'Qwen3-1.7B-Q4_K_M.gguf',
    sizeMB: 1280,
    decodeTps: 6,
  },
];

export const GGUF_CATALOG: readonly GgufModel[] = ENTRIES.map(({ arch, ...m }) => {
  const a = ARCHITECTURES[arch];
  const kv = kvBytesPerToken(a, 2);
  const baseMB = m.sizeMB + BUFFERS_MB;
  return {
    ...m,
    url: `https://huggingface.co/${m.repo}/resolve/main/${m.file}`,
    baseMB,
    memoryMB: Math.round(baseMB + (4096 * kv) / 2 ** 20),
    trainedContext: a.trainedContext,
    kvBytesPerToken: kv,
  };
});

/** The last path part of a URL or file name, e.g. `Qwen3-0.6B-Q4_K_M.gguf`. */
export function ggufFileName(urlOrName: string): string {
  const path = URL.canParse(urlOrName) ? new URL(urlOrName).pathname : urlOrName;
  return decodeURIComponent(path.split('/').pop() || urlOrName);
}
