/**
 * Which in-tab engine suits this browser, in one line: WebLLM when WebGPU has a real GPU
 * adapter (a software adapter is far too slow), otherwise llama.cpp on the CPU. The person can
 * pick the other one anyway.
 */
import type { GpuReport } from '../../worker/client.ts';

export interface EngineAdvice {
  readonly kind: 'webllm' | 'gguf';
  readonly line: string;
}

export function engineAdvice(gpu: GpuReport): EngineAdvice {
  if (!gpu.webgpu)
    return { kind: 'gguf', line: 'This browser has no WebGPU, so llama.cpp runs the model on the CPU (WebAssembly).' };
  if (!gpu.adapter)
    return {
      kind: 'gguf',
      line: 'WebGPU found no usable GPU here, so llama.cpp runs the model on the CPU (WebAssembly).',
    };
  if (gpu.fallback)
    return {
      kind: 'gguf',
      line: 'WebGPU offers only a software adapter here (far too slow), so llama.cpp runs the model on the CPU (WebAssembly).',
    };
  const on = gpu.gpuName ? ` on ${gpu.gpuName}` : '';
  return gpu.f16
    ? { kind: 'webllm', line: `WebGPU with shader-f16${on}: WebLLM runs the model on the GPU.` }
    : { kind: 'webllm', line: `WebGPU${on} without shader-f16: WebLLM runs the q4f32 builds on the GPU.` };
}
