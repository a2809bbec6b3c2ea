/**
 * The tab's model list for find_models: the WebLLM catalog judged against this browser's WebGPU
 * (an adapter, shader-f16 for the q4f16 builds, a software fallback), and the GGUF catalog,
 * which llama.cpp runs here in WebAssembly within its 4 GB of memory. Whether weights are cached
 * is not looked up here (the start screen's cache panel does that).
 */
import { CATALOG } from '../agent/models/catalog.ts';
import { GGUF_CATALOG } from '../agent/models/gguf-catalog.ts';
import { detectGpu, type GpuReport } from '../agent/models/gpu.ts';
import type { ModelListing, ModelsAccess } from '../engine/models-listing.ts';

/** The memory a WebAssembly (wasm32) llama.cpp can address. */
const WASM_MEMORY_MB = 4096;

function webgpuWhy(gpu: GpuReport, needsF16: boolean): { fits: boolean; why: string } {
  if (!gpu.ok) return { fits: false, why: gpu.explanation };
  if (needsF16 && !gpu.f16) return { fits: false, why: 'needs shader-f16, which this GPU lacks; its q4f32 build runs' };
  if (gpu.fallback) return { fits: true, why: 'runs on a software adapter here: far too slowly for real use' };
  return { fits: true, why: `WebGPU on ${gpu.gpuName ?? 'this GPU'}` };
}

/** The tab's model list; `gpu` is injected in tests. */
export function tabModels(gpu: () => Promise<GpuReport> = () => detectGpu()): ModelsAccess {
  return async () => {
    const report = await gpu();
    const webllm: ModelListing[] = CATALOG.map((m) => ({
      id: m.id,
      engine: 'webllm',
      label: `${m.label} (${m.params})`,
      sizeMB: m.vramMB,
      contextWindow: m.contextWindow,
      ...webgpuWhy(report, m.needsF16),
    }));
    const gguf: ModelListing[] = GGUF_CATALOG.map((m) => ({
      id: `gguf:${m.id}`,
      engine: 'gguf',
      label: `${m.label} (${m.params})`,
      sizeMB: m.sizeMB,
      fits: m.memoryMB <= WASM_MEMORY_MB,
      why: `llama.cpp in WebAssembly here: needs about ${m.memoryMB} MB of the ${WASM_MEMORY_MB} MB it can address`,
    }));
    return { models: [...webllm, ...gguf] };
  };
}
