/**
 * The WebLLM side of run models: a choice with self-hosted weights reaches the model worker's
 * load request intact, is labelled by its URL, and is reused only while URL and library match.
 */
import { describe, expect, it } from 'vitest';
import { ModelError } from '../agent/model.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { createModelHost, type HostedModel } from '../agent/models/worker-host.ts';
import type { LoadRequest, ModelRequest, ModelResponse } from '../agent/models/worker-protocol.ts';
import type { ModelChoice } from './protocol.ts';
import { createModel, ModelLink, modelLabel, type ModelPort } from './run-models.ts';

const BASE = 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC';
const custom = (url: string) => ({ id: `custom:${url}`, url, baseModelId: BASE });
const choice = (url: string): ModelChoice => ({ kind: 'webllm', modelId: `custom:${url}`, custom: custom(url) });

/** A model link over an in-process model host whose backend records every load request. */
function link(): { link: ModelLink; loads: LoadRequest[] } {
  const loads: LoadRequest[] = [];
  const spawn = (): ModelPort => {
    const listeners: ((e: Event) => void)[] = [];
    // Answers arrive a task later, as they would from a real worker.
    const host = createModelHost(
      (m: ModelResponse) => setTimeout(() => listeners.forEach((l) => l(new MessageEvent('message', { data: m })))),
      async () => ({
        async load(req): Promise<HostedModel> {
          loads.push(req);
          const inner = new ScriptedModel([]);
          return { id: `webllm:${req.modelId}`, family: 'qwen2.5-coder', contextWindow: 4096, complete: (m, o) => inner.complete(m, o), unload: async () => {} };
        },
        isCached: async () => false,
        deleteCached: async () => {},
        gpu: async () => {
          throw new ModelError('gpu', 'not used');
        },
      }),
    );
    return {
      postMessage: (m: ModelRequest) => setTimeout(() => host.receive(m)),
      addEventListener: (type, l) => void (type === 'message' && listeners.push(l)),
      terminate: () => {},
    };
  };
  return { link: new ModelLink(spawn), loads };
}

describe('WebLLM with self-hosted weights', () => {
  it('passes custom to the model worker, and loads again only for another URL', async () => {
    const { link: webllm, loads } = link();
    const ctx = { contextTokens: 4096, onProgress: () => {}, webllm };
    const model = await createModel(choice('https://example.org/M-q4f16_1-MLC'), ctx);
    expect(model.id).toBe('webllm:custom:https://example.org/M-q4f16_1-MLC');
    await createModel(choice('https://example.org/M-q4f16_1-MLC'), ctx);
    await createModel(choice('https://example.org/N-q4f16_1-MLC'), ctx);
    expect(loads).toEqual([
      { modelId: 'custom:https://example.org/M-q4f16_1-MLC', custom: custom('https://example.org/M-q4f16_1-MLC') },
      { modelId: 'custom:https://example.org/N-q4f16_1-MLC', custom: custom('https://example.org/N-q4f16_1-MLC') },
    ]);
  });

  it.each<[string, ModelChoice, string]>([
    ['a catalog model by its label', { kind: 'webllm', modelId: BASE }, 'WebLLM Qwen2.5-Coder 1.5B'],
    ['a custom model by its URL', choice('http://localhost:8000/M'), 'WebLLM custom model at http://localhost:8000/M'],
  ])('labels %s', (_label, c, label) => {
    expect(modelLabel(c)).toEqual({ label, scripted: false });
  });
});
