import { describe, expect, it } from 'vitest';
import type { GpuReport } from '../../worker/client.ts';
import { engineAdvice } from './engine-advice.ts';

const base: GpuReport = {
  ok: true,
  webgpu: true,
  adapter: true,
  f16: true,
  fallback: false,
  gpuName: 'nvidia ampere',
  explanation: '',
};

describe('engineAdvice', () => {
  it.each([
    [{ ...base, ok: false, webgpu: false, adapter: false, f16: false }, 'gguf', /no WebGPU/],
    [{ ...base, ok: false, adapter: false, f16: false }, 'gguf', /no usable GPU/],
    [{ ...base, fallback: true }, 'gguf', /software adapter/],
    [base, 'webllm', /shader-f16 on nvidia ampere: WebLLM/],
    [{ ...base, f16: false }, 'webllm', /without shader-f16: WebLLM runs the q4f32 builds/],
  ])('%#: %s', (gpu, kind, line) => {
    const advice = engineAdvice(gpu);
    expect(advice.kind).toBe(kind);
    expect(advice.line).toMatch(line);
  });
});
