/**
 * The model-worker side of run models: a WebLLM choice with self-hosted weights reaches the
 * model worker's load request intact, is labelled by its URL, and is reused only while URL and
 * library match; a llama.cpp choice carries its GGUF source and the context cap, is reused for
 * the same file, and is labelled by its catalog name or file; a replay names the live model
 * that made its record.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../agent/models/scripted.ts';
import type { HostedModel } from '../agent/models/worker-host.ts';
import type { LoadRequest } from '../agent/models/worker-protocol.ts';
import { inProcessModelPort } from '../../tests/support/model-port.ts';
import type { ModelChoice } from './protocol.ts';
import { GGUF_CATALOG } from '../agent/models/gguf-catalog.ts';
import { createModel, ModelLink, modelLabel, replayLabel, type ModelPort } from './run-models.ts';

const BASE = 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC';
const custom = (url: string) => ({ id: `custom:${url}`, url, baseModelId: BASE });
const choice = (url: string): ModelChoice => ({ kind: 'webllm', modelId: `custom:${url}`, custom: custom(url) });

/** A model link over an in-process model host whose backend records every load request. */
function link(): { link: ModelLink; loads: LoadRequest[] } {
  const loads: LoadRequest[] = [];
  const spawn = (): ModelPort =>
    inProcessModelPort(async (req): Promise<HostedModel> => {
      loads.push(req);
      const inner = new ScriptedModel([]);
      return {
        id: `webllm:${req.modelId}`,
        family: 'qwen2.5-coder',
        contextWindow: 4096,
        complete: (m, o) => inner.complete(m, o),
        unload: async () => {},
      };
    });
  return { link: new ModelLink(spawn), loads };
}

describe('WebLLM with self-hosted weights', () => {
  it('passes custom and the window to the model worker, and loads again only for another URL or window', async () => {
    const { link: webllm, loads } = link();
    const ctx = { contextTokens: 4096, onProgress: () => {}, webllm };
    const model = await createModel(choice('https://example.org/M-q4f16_1-MLC'), ctx);
    expect(model.id).toBe('webllm:custom:https://example.org/M-q4f16_1-MLC');
    await createModel(choice('https://example.org/M-q4f16_1-MLC'), ctx);
    await createModel(choice('https://example.org/N-q4f16_1-MLC'), ctx);
    await createModel(choice('https://example.org/N-q4f16_1-MLC'), { ...ctx, contextTokens: 8192 });
    const load = (url: string, contextTokens: number) => ({
      modelId: `custom:${url}`,
      custom: custom(url),
      contextTokens,
    });
    expect(loads).toEqual([
      load('https://example.org/M-q4f16_1-MLC', 4096),
      load('https://example.org/N-q4f16_1-MLC', 4096),
      load('https://example.org/N-q4f16_1-MLC', 8192),
    ]);
  });

  it.each<[string, ModelChoice, string]>([
    ['a catalog model by its label', { kind: 'webllm', modelId: BASE }, 'WebLLM Qwen2.5-Coder 1.5B'],
    ['a custom model by its URL', choice('http://localhost:8000/M'), 'WebLLM custom model at http://localhost:8000/M'],
  ])('labels %s', (_label, c, label) => {
    expect(modelLabel(c)).toEqual({ label, scripted: false });
  });
});

describe('llama.cpp (GGUF) choices', () => {
  const file = new File([new Uint8Array(8)], 'tiny.gguf', { lastModified: 1 });

  it('loads with the GGUF source and the context cap, and again only for another file', async () => {
    const { link: gguf, loads } = link();
    const ctx = { contextTokens: 8192, onProgress: () => {}, gguf };
    const fromDisk: ModelChoice = { kind: 'gguf', source: { file, name: file.name } };
    await createModel(fromDisk, ctx);
    await createModel(fromDisk, ctx);
    await createModel({ kind: 'gguf', source: { url: 'https://example.org/m.gguf' } }, ctx);
    expect(loads.map((l) => [l.modelId, l.contextTokens, 'file' in l.gguf! ? l.gguf.name : l.gguf!.url])).toEqual([
      ['tiny.gguf', 8192, 'tiny.gguf'],
      ['https://example.org/m.gguf', 8192, 'https://example.org/m.gguf'],
    ]);
  });

  it('is refused with a reason where there is no model worker', async () => {
    await expect(
      createModel(
        { kind: 'gguf', source: { url: 'https://example.org/m.gguf' } },
        { contextTokens: 4096, onProgress: () => {} },
      ),
    ).rejects.toThrow(/slm run --model gguf:FILE/);
  });

  it.each<[string, ModelChoice, string]>([
    [
      'a catalog model by its label',
      { kind: 'gguf', source: { url: GGUF_CATALOG[0]!.url }, label: GGUF_CATALOG[0]!.label },
      `llama.cpp (CPU) ${GGUF_CATALOG[0]!.label}`,
    ],
    [
      'a catalog URL without a label',
      { kind: 'gguf', source: { url: GGUF_CATALOG[0]!.url } },
      `llama.cpp (CPU) ${GGUF_CATALOG[0]!.label}`,
    ],
    [
      "a URL of one's own by its file",
      { kind: 'gguf', source: { url: 'https://example.org/x/My%20Model.gguf?download=1' } },
      'llama.cpp (CPU) My Model.gguf',
    ],
    [
      'a file from disk',
      { kind: 'gguf', source: { file, name: 'tiny.gguf' } },
      'llama.cpp (CPU) tiny.gguf (file from disk)',
    ],
  ])('labels %s', (_label, c, label) => {
    expect(modelLabel(c)).toEqual({ label, scripted: false });
  });
});

describe('replayLabel', () => {
  it.each([
    ['scripted:starter', { label: 'the recorded outputs, replayed', scripted: true }],
    [
      'gguf:slm-test-tiny-random.gguf',
      {
        label: 'the recorded outputs of gguf:slm-test-tiny-random.gguf, replayed',
        scripted: true,
        recordedFrom: 'gguf:slm-test-tiny-random.gguf',
      },
    ],
    [
      'openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b',
      {
        label: 'the recorded outputs of openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b, replayed',
        scripted: true,
        recordedFrom: 'openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b',
      },
    ],
  ])('%s', (id, expected) => expect(replayLabel(id)).toEqual(expected));
});

describe('createModel for an endpoint', () => {
  it.each([
    { toolsApi: true, sends: 'tools' },
    { toolsApi: false, sends: 'response_format' },
  ])('toolsApi $toolsApi sends the call schema as $sends', async ({ toolsApi, sends }) => {
    const bodies: Record<string, unknown>[] = [];
    const fetchStub = (async (_url: string, init: RequestInit) => {
      bodies.push(JSON.parse(String(init.body)));
      return new Response(JSON.stringify({ choices: [{ message: { content: 'ok' } }] }), {
        headers: { 'content-type': 'application/json' },
      });
    }) as typeof fetch;
    const model = await createModel(
      { kind: 'openai', baseUrl: 'http://127.0.0.1:9/v1', model: 'm', ...(toolsApi && { toolsApi }) },
      { contextTokens: 4096, onProgress: () => {}, fetch: fetchStub },
    );
    await model.complete([{ role: 'user', content: 'hi' }], {
      seed: 1,
      temperature: 0,
      jsonSchema: { anyOf: [{ properties: { tool: { const: 'done' }, args: {} } }] },
    });
    expect(Object.keys(bodies[0]!).filter((k) => k === 'tools' || k === 'response_format')).toEqual([sends]);
  });
});
