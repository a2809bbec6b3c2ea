/**
 * The model worker protocol over a real MessageChannel in one process (host on one port,
 * client on the other), with a scripted backend standing in for WebLLM; plus the WebGPU
 * detection, WebLLM's progress and the catalog. (WebLLM's errors: webllm-errors.test.ts.)
 */
import { afterEach, describe, expect, it } from 'vitest';
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import type { HostedModel, ModelBackend } from '../../src/agent/models/worker-host.ts';
import type { LoadProgress } from '../../src/agent/models/worker-protocol.ts';
import { modelClient, serveModel } from '../../src/worker/model-wire.ts';
import type { Wire } from '../../src/worker/rpc.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { isModelError, ModelError, type CompleteOptions } from '../../src/agent/model.ts';
import { detectGpu, type AdapterLike } from '../../src/agent/models/gpu.ts';
import { toProgress } from '../../src/agent/models/webllm.ts';
import { prebuiltAppConfig } from '@mlc-ai/web-llm';
import { CATALOG, DEFAULT_MODEL_ID, f32Build, modelFamily } from '../../src/agent/models/catalog.ts';

const ports: MessagePort[] = [];
afterEach(() => ports.splice(0).forEach((p) => p.close()));

/** A backend whose model streams its scripted output in two pieces, or waits to be aborted. */
function fakeBackend(log: string[]): ModelBackend {
  return {
    async load(req, onProgress) {
      if (req.modelId === 'broken') throw new ModelError('gpu', 'no adapter');
      onProgress({ progress: 0.5, text: 'half', elapsedMs: 10 });
      const inner = new ScriptedModel(['{"tool": "done", "args": {"summary": "ok"}}']);
      const model: HostedModel = {
        id: `fake:${req.modelId}`,
        family: modelFamily(req.modelId),
        contextWindow: 4096,
        async complete(messages, o: CompleteOptions) {
          if (messages[0]?.content === 'hang') {
            return new Promise((_, reject) =>
              o.signal?.addEventListener(
                'abort',
                () => (log.push('aborted'), reject(new ModelError('aborted', 'stopped'))),
              ),
            );
          }
          const out = await inner.complete(messages, { seed: 0, temperature: 0 });
          o.onToken?.(out.text.slice(0, 10));
          o.onToken?.(out.text.slice(10));
          return { text: out.text, usage: { promptTokens: 5, completionTokens: 9 } };
        },
        async unload() {
          log.push(`unload ${req.modelId}`);
        },
      };
      return model;
    },
    isCached: async (id) => id === DEFAULT_MODEL_ID,
    deleteCached: async (id) => void log.push(`delete ${id}`),
    gpu: async () => ({
      ok: false,
      webgpu: false,
      adapter: false,
      f16: false,
      fallback: false,
      explanation: 'none here',
    }),
  };
}

/** One end of a Node MessageChannel as a wire. */
const wire = (port: MessagePort): Wire => ({
  post: (m) => port.postMessage(m),
  listen: (receive) => port.on('message', receive),
});

function connect(log: string[] = []) {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  let backendLoads = 0;
  serveModel(wire(port1), async () => (backendLoads++, fakeBackend(log)));
  const client = modelClient(wire(port2));
  return { client, log, backendLoads: () => backendLoads };
}

describe('model worker protocol over a MessageChannel', () => {
  it('loads with progress, completes with streamed tokens and usage, answers cache and GPU requests', async () => {
    const t = connect();
    expect(t.backendLoads()).toBe(0); // the backend module is fetched lazily
    const progress: LoadProgress[] = [];
    const model = await t.client.load({ modelId: DEFAULT_MODEL_ID }, (p) => progress.push(p));
    expect(progress).toEqual([{ progress: 0.5, text: 'half', elapsedMs: 10 }]);
    expect(model).toMatchObject({ id: `fake:${DEFAULT_MODEL_ID}`, family: 'qwen2.5-coder', contextWindow: 4096 });
    const tokens: string[] = [];
    const out = await model.complete([{ role: 'user', content: 'go' }], {
      seed: 1,
      temperature: 0,
      onToken: (d) => tokens.push(d),
    });
    expect(out).toEqual({
      text: '{"tool": "done", "args": {"summary": "ok"}}',
      usage: { promptTokens: 5, completionTokens: 9 },
    });
    expect(tokens.join('')).toBe(out.text);
    expect(await t.client.remote.isCached(DEFAULT_MODEL_ID)).toBe(true);
    expect(await t.client.remote.isCached('other')).toBe(false);
    await t.client.remote.deleteCached('other');
    expect(t.log).toEqual(['delete other']);
    expect((await t.client.remote.gpu()).explanation).toBe('none here');
    expect(t.backendLoads()).toBe(1);
  });

  it('errors cross as data and are rethrown as the same ModelError', async () => {
    const t = connect();
    const e = await t.client.load({ modelId: 'broken' }).catch((x: unknown) => x);
    expect(isModelError(e) && [e.code, e.message]).toEqual(['gpu', 'no adapter']);
  });

  it('a completion before any load says to load a model first', async () => {
    // Straight to the worker's API: the client only hands out models after a load.
    const t = connect();
    const e = await t.client.remote.complete(1, [], { seed: 0, temperature: 0 }).catch((x: unknown) => x);
    expect(isModelError(e) && [e.code, e.message]).toEqual(['load', expect.stringMatching(/No model is loaded/)]);
  });

  it('a request the worker does not declare is refused as an error, not left waiting', async () => {
    const t = connect();
    const remote = t.client.remote as unknown as { $call(name: string): Promise<unknown> };
    const e = await remote.$call('toString').catch((x: unknown) => x);
    expect(isModelError(e) && e.message).toMatch(/function "toString" not found/);
  });

  it('aborting a completion stops it in the worker and rejects at once', async () => {
    const t = connect();
    const model = await t.client.load({ modelId: 'm' });
    const ac = new AbortController();
    const p = model.complete([{ role: 'user', content: 'hang' }], { seed: 0, temperature: 0, signal: ac.signal });
    setTimeout(() => ac.abort(), 5);
    const e = await p.catch((x: unknown) => x);
    expect(isModelError(e) && e.code).toBe('aborted');
    await new Promise((r) => setTimeout(r, 20));
    expect(t.log).toContain('aborted');
  });

  it('loading another model unloads the first', async () => {
    const t = connect();
    await t.client.load({ modelId: 'a' });
    await t.client.load({ modelId: 'b' });
    expect(t.log).toEqual(['unload a']);
  });
});

describe('WebGPU detection', () => {
  const adapter = (features: string[], extra: Partial<AdapterLike> = {}): AdapterLike => ({
    features: new Set(features),
    ...extra,
  });
  const swiftshader = { vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true };
  it.each([
    { name: 'no navigator.gpu', gpu: undefined, ok: false, says: [/no WebGPU/], not: [] },
    {
      name: 'no adapter (headless Chromium)',
      gpu: { requestAdapter: async () => null },
      ok: false,
      says: [/no compatible GPU \(no adapter\)/],
      not: [],
    },
    {
      // What headless Chromium with --enable-unsafe-webgpu gives: usable, with an honest note.
      name: 'software fallback adapter without shader-f16 (SwiftShader)',
      gpu: { requestAdapter: async () => adapter([], { info: swiftshader }) },
      ok: true,
      says: [
        /^WebGPU found only a software fallback adapter \(google swiftshader\), not a GPU\./,
        /far too slowly for real use/,
        /only the q4f32 builds below can run/,
        /OpenAI-compatible endpoint/,
      ],
      not: [],
    },
    {
      name: 'software fallback adapter with shader-f16 (older Chromium flag on the adapter)',
      gpu: { requestAdapter: async () => adapter(['shader-f16'], { isFallbackAdapter: true }) },
      ok: true,
      says: [/software fallback adapter, not a GPU/, /far too slowly/],
      not: [/q4f32/],
    },
    {
      name: 'no shader-f16',
      gpu: { requestAdapter: async () => adapter([], { info: { vendor: 'intel', architecture: 'gen-9' } }) },
      ok: true,
      says: [/^This GPU \(intel gen-9\) lacks the shader-f16 feature, so only the q4f32 builds/],
      not: [/slowly/],
    },
    {
      name: 'ready',
      gpu: {
        requestAdapter: async () => adapter(['shader-f16'], { info: { vendor: 'nvidia', architecture: 'ampere' } }),
      },
      ok: true,
      says: [/ready on nvidia ampere/],
      not: [/q4f32/],
    },
  ])('$name', async (row) => {
    const r = await detectGpu(row.gpu);
    expect(r.ok).toBe(row.ok);
    for (const re of row.says) expect(r.explanation).toMatch(re);
    for (const re of row.not) expect(r.explanation).not.toMatch(re);
  });
});

describe('WebLLM helpers', () => {
  it('progress carries bytes, total and ETA from the elapsed time', () => {
    expect(
      toProgress({
        progress: 0.25,
        timeElapsed: 10,
        text: 'Fetching param cache[3/52]: 120MB fetched. 25% completed, 10 secs elapsed.',
      }),
    ).toEqual({
      progress: 0.25,
      text: 'Fetching param cache[3/52]: 120MB fetched. 25% completed, 10 secs elapsed.',
      elapsedMs: 10_000,
      etaMs: 30_000,
      loadedBytes: 120 * 2 ** 20,
      totalBytes: 480 * 2 ** 20,
    });
    expect(toProgress({ progress: 1, timeElapsed: 3, text: 'Finish loading on WebGPU - nvidia' })).toEqual({
      progress: 1,
      text: 'Finish loading on WebGPU - nvidia',
      elapsedMs: 3000,
    });
  });
});

describe('catalog', () => {
  it('has the default model and the VRAM figures', () => {
    expect(CATALOG.find((m) => m.id === DEFAULT_MODEL_ID)?.vramMB).toBe(1630);
    expect(CATALOG.map((m) => m.vramMB)).toEqual([...CATALOG.map((m) => m.vramMB)].sort((a, b) => a - b));
  });
  it('every catalog id is a prebuilt WebLLM model, with the VRAM WebLLM lists for it', () => {
    const prebuilt = new Map(prebuiltAppConfig.model_list.map((r) => [r.model_id, r.vram_required_MB]));
    expect(
      CATALOG.map((m) => [m.id, prebuilt.has(m.id) ? Math.round(prebuilt.get(m.id) ?? 0) : 'not prebuilt']),
    ).toEqual(CATALOG.map((m) => [m.id, m.vramMB]));
  });
  it('offers q4f32 builds, which need no shader-f16, for the small models', () => {
    expect(f32Build(DEFAULT_MODEL_ID)).toMatchObject({
      id: 'Qwen2.5-Coder-1.5B-Instruct-q4f32_1-MLC',
      label: 'Qwen2.5-Coder 1.5B (q4f32)',
      needsF16: false,
    });
    expect(f32Build('Qwen3-4B-q4f16_1-MLC')).toBeUndefined();
    expect(f32Build('Qwen2.5-Coder-1.5B-Instruct-q4f32_1-MLC')).toBeUndefined();
    expect(CATALOG.filter((m) => !m.needsF16).map((m) => m.label)).toEqual([
      'SmolLM2 360M (q4f32)',
      'Qwen2.5-Coder 0.5B (q4f32)',
      'Qwen2.5-Coder 1.5B (q4f32)',
      'Qwen2.5-Coder 3B (q4f32)',
    ]);
  });
  it.each([
    ['Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC', 'qwen2.5-coder'],
    ['qwen2.5-coder:1.5b', 'qwen2.5-coder'],
    ['Qwen/Qwen2.5-Coder-7B-Instruct-GGUF', 'qwen2.5-coder'],
    ['llama3.2:3b', 'llama-3.2'],
    ['Phi-3.5-mini-instruct-q4f16_1-MLC', 'phi-3.5'],
    ['SmolLM2-360M-Instruct-q4f16_1-MLC', 'smollm2'],
    ['gpt-oss:20b', 'gpt'],
  ])('modelFamily(%s) = %s', (id, family) => expect(modelFamily(id)).toBe(family));
});
