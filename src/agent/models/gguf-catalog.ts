/**
 * The GGUF models llama.cpp (WebAssembly, on the CPU) offers in the UI: small instruct models
 * at Q4_K_M, each with its download, the memory it needs and the speed to expect.
 *
 * Where the figures come from:
 * - `sizeMB`: the file's size as its Hugging Face repository lists it (a fact; `sizeNote` says
 *   when the figure is taken from the same quantisation of the same architecture in another repo);
 * - `memoryMB`: an estimate — the weights, an f16 KV cache for 4,096 tokens (layers × KV heads ×
 *   head size from the model's config) and about 150 MB of compute buffers;
 * - `decodeTps`: an estimate, not a measurement — tokens per second while writing on a 4-core
 *   laptop CPU with the multi-threaded build (cross-origin isolated page); single-threaded, expect
 *   about a third. Reading the prompt (prefill) runs several times faster than writing.
 */

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
  readonly memoryMB: number;
  readonly decodeTps: number;
}

export const DEFAULT_GGUF_ID = 'qwen2.5-coder-0.5b-instruct-q4_k_m';

/** Smallest download first. */
const ENTRIES: readonly Omit<GgufModel, 'url'>[] = [
  {
    id: 'qwen2.5-coder-0.5b-instruct-q4_k_m',
    label: 'Qwen2.5-Coder 0.5B Instruct',
    params: '0.5B',
    repo: 'lmstudio-community/Qwen2.5-Coder-0.5B-Instruct-GGUF',
    file: 'Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf',
    sizeMB: 398,
    memoryMB: 600,
    decodeTps: 20,
  },
  {
    id: 'qwen3-0.6b-q4_k_m',
    label: 'Qwen3 0.6B',
    params: '0.6B',
    repo: 'ggml-org/Qwen3-0.6B-GGUF',
    file: 'Qwen3-0.6B-Q4_K_M.gguf',
    sizeMB: 397,
    sizeNote: 'size of a Qwen3-0.6B Q4_K_M file in another repository',
    memoryMB: 1020,
    decodeTps: 16,
  },
  {
    id: 'gemma-3-1b-it-q4_k_m',
    label: 'Gemma 3 1B it',
    params: '1B',
    repo: 'lmstudio-community/gemma-3-1b-it-GGUF',
    file: 'gemma-3-1b-it-Q4_K_M.gguf',
    sizeMB: 806,
    memoryMB: 1070,
    decodeTps: 10,
  },
  {
    id: 'llama-3.2-1b-instruct-q4_k_m',
    label: 'Llama 3.2 1B Instruct',
    params: '1B',
    repo: 'bartowski/Llama-3.2-1B-Instruct-GGUF',
    file: 'Llama-3.2-1B-Instruct-Q4_K_M.gguf',
    sizeMB: 808,
    memoryMB: 1090,
    decodeTps: 10,
  },
  {
    id: 'qwen2.5-coder-1.5b-instruct-q4_k_m',
    label: 'Qwen2.5-Coder 1.5B Instruct',
    params: '1.5B',
    repo: 'bartowski/Qwen2.5-Coder-1.5B-Instruct-GGUF',
    file: 'Qwen2.5-Coder-1.5B-Instruct-Q4_K_M.gguf',
    sizeMB: 986,
    memoryMB: 1250,
    decodeTps: 8,
  },
  {
    id: 'smollm2-1.7b-instruct-q4_k_m',
    label: 'SmolLM2 1.7B Instruct',
    params: '1.7B',
    repo: 'mradermacher/SmolLM2-1.7B-Instruct-GGUF',
    file: 'SmolLM2-1.7B-Instruct.Q4_K_M.gguf',
    sizeMB: 1060,
    memoryMB: 2020,
    decodeTps: 7,
  },
  {
    id: 'qwen3-1.7b-q4_k_m',
    label: 'Qwen3 1.7B',
    params: '1.7B',
    repo: 'ggml-org/Qwen3-1.7B-GGUF',
    file: 'Qwen3-1.7B-Q4_K_M.gguf',
    sizeMB: 1280,
    memoryMB: 1900,
    decodeTps: 6,
  },
];

export const GGUF_CATALOG: readonly GgufModel[] = ENTRIES.map((m) => ({
  ...m,
  url: `https://huggingface.co/${m.repo}/resolve/main/${m.file}`,
}));

/** The last path part of a URL or file name, e.g. `Qwen3-0.6B-Q4_K_M.gguf`. */
export function ggufFileName(urlOrName: string): string {
  const path = URL.canParse(urlOrName) ? new URL(urlOrName).pathname : urlOrName;
  return decodeURIComponent(path.split('/').pop() || urlOrName);
}
