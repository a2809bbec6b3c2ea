/**
 * WebGPU detection before a model download: is there WebGPU, an adapter, the shader-f16
 * feature the q4f16 builds need, and is the adapter a software fallback? The answer is a plain
 * explanation of what to do, never an exception. Works in a page and in a worker.
 */

/** The part of `navigator.gpu` used here (TypeScript's DOM lib has no WebGPU types). */
export interface GpuLike {
  requestAdapter(options?: { powerPreference?: 'high-performance' | 'low-power' }): Promise<AdapterLike | null>;
}

export interface AdapterLike {
  readonly features: { has(name: string): boolean };
  readonly limits?: { readonly maxBufferSize?: number; readonly maxStorageBufferBindingSize?: number };
  readonly info?: {
    readonly vendor?: string;
    readonly architecture?: string;
    readonly description?: string;
    readonly isFallbackAdapter?: boolean;
  };
  /** Older Chromium exposed this on the adapter itself. */
  readonly isFallbackAdapter?: boolean;
}

export interface GpuReport {
  /** A model can run here: perhaps only a q4f32 build (see `f16`), perhaps only very slowly (see `fallback`). */
  readonly ok: boolean;
  readonly webgpu: boolean;
  readonly adapter: boolean;
  readonly f16: boolean;
  /** A software adapter (SwiftShader): a model loads on it, but answers far too slowly for real use. */
  readonly fallback: boolean;
  /** e.g. "nvidia ampere", "google swiftshader". */
  readonly gpuName?: string;
  readonly maxBufferMB?: number;
  /** The device's memory as `navigator.deviceMemory` reports it (GiB, rounded to a power of two and capped by the browser). */
  readonly deviceMemoryGiB?: number;
  /** What this means for the person and what to do next. */
  readonly explanation: string;
}

const NO_WEBGPU =
  'This browser has no WebGPU, which running a model inside the page needs. Use a recent desktop Chrome or Edge ' +
  '(on Linux, enable chrome://flags/#enable-unsafe-webgpu), or connect an OpenAI-compatible endpoint such as Ollama or LM Studio instead.';

const NO_ADAPTER =
  'WebGPU is present but found no compatible GPU (no adapter). The GPU may be blocklisted or its driver too old: ' +
  'check chrome://gpu, update the driver, or connect an OpenAI-compatible endpoint such as Ollama or LM Studio instead.';

/** The GPU report, with the device's memory where the browser reports it (with or without WebGPU). */
export async function detectGpu(
  gpu: GpuLike | undefined = (globalThis.navigator as { gpu?: GpuLike } | undefined)?.gpu,
  deviceMemory: number | undefined = (globalThis.navigator as { deviceMemory?: number } | undefined)?.deviceMemory,
): Promise<GpuReport> {
  const report = await detectAdapter(gpu);
  return typeof deviceMemory === 'number' && deviceMemory > 0 ? { ...report, deviceMemoryGiB: deviceMemory } : report;
}

async function detectAdapter(gpu: GpuLike | undefined): Promise<GpuReport> {
  const none = { webgpu: false, adapter: false, f16: false, fallback: false };
  if (!gpu) return { ok: false, ...none, explanation: NO_WEBGPU };
  let adapter: AdapterLike | null;
  try {
    adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  } catch (e) {
    return {
      ok: false,
      ...none,
      webgpu: true,
      explanation: `${NO_ADAPTER} (requestAdapter failed: ${(e as Error).message})`,
    };
  }
  if (!adapter) return { ok: false, ...none, webgpu: true, explanation: NO_ADAPTER };

  const f16 = adapter.features.has('shader-f16');
  const fallback = adapter.info?.isFallbackAdapter ?? adapter.isFallbackAdapter ?? false;
  const gpuName = [adapter.info?.vendor, adapter.info?.architecture].filter(Boolean).join(' ') || undefined;
  const maxBuffer = adapter.limits?.maxBufferSize;
  const base = {
    ok: true,
    webgpu: true,
    adapter: true,
    f16,
    fallback,
    ...(gpuName && { gpuName }),
    ...(maxBuffer && { maxBufferMB: Math.floor(maxBuffer / 2 ** 20) }),
  };
  return { ...base, explanation: explain(fallback, f16, gpuName) };
}

/**
 * The adapter in words. A software adapter stays usable on purpose: it is how a machine without
 * a GPU (or a headless browser) can still try the download and set-up; the note says plainly
 * that answers would take far too long for real work.
 */
function explain(fallback: boolean, f16: boolean, gpuName: string | undefined): string {
  const on = gpuName ? ` (${gpuName})` : '';
  const f32Only = 'so only the q4f32 builds below can run (they need somewhat more memory than the q4f16 ones)';
  if (fallback) {
    return [
      `WebGPU found only a software fallback adapter${on}, not a GPU. A model can load here, but it would answer far too slowly for real use.`,
      ...(f16 ? [] : [`It also lacks the shader-f16 feature, ${f32Only}.`]),
      'For real work, use a machine with a GPU, or an OpenAI-compatible endpoint.',
    ].join(' ');
  }
  if (!f16)
    return `This GPU${on} lacks the shader-f16 feature, ${f32Only}. A recent Chrome or Edge with an up-to-date driver may add it; an OpenAI-compatible endpoint works too.`;
  return `WebGPU is ready${gpuName ? ` on ${gpuName}` : ''} with shader-f16: the q4f16 models can run here.`;
}
