/**
 * The start screen's state against the real worker host (in one process): the choices it
 * loads, and the rule table behind the Run button — each row a choice and the configuration
 * it gives, or the reason Run is disabled.
 */
import { createServer } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { StartState } from './start-state.svelte.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A port nothing listens on: bound by the system, then released. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function loaded(): Promise<StartState> {
  const { client } = connectInProcess(() => createTemplateSession());
  cleanups.push(() => client.dispose());
  const start = new StartState(client);
  await start.load();
  return start;
}

describe('StartState', () => {
  it('loads the choices: the starter task, its recorded run, the defaults, and a GPU verdict', async () => {
    const start = await loaded();
    expect(start.options?.templates[0]?.id).toBe('starter');
    expect(start.recorded?.templateId).toBe('starter');
    expect(start.settings).toEqual(start.options?.defaults);
    expect(start.webllmId).toBe(start.options?.defaultModelId);
    // Node has no navigator.gpu: the worker's detection says so, in words.
    expect(start.gpu).toMatchObject({ ok: false, webgpu: false });
    expect(start.gpu?.explanation).toMatch(/no WebGPU/);
    expect(start.readiness).toEqual({
      ok: true,
      config: {
        task: { kind: 'template', templateId: 'starter' },
        model: { kind: 'scripted', recordedId: start.recorded!.id },
        settings: start.options!.defaults,
        paused: false,
      },
    });
  });

  it.each<[string, (s: StartState) => void, RegExp | object]>([
    ['own files without files', (s) => s.setTaskKind('files'), /^Drop files \(or pick them\)/],
    [
      'own files without a task',
      (s) => ((s.dropped = [{ path: 'a.js', text: 'x' }]), s.setTaskKind('files')),
      /^Say what the agent should do/,
    ],
    [
      'own files with a task (llama.cpp on the CPU is picked, as no GPU is there)',
      (s) => ((s.dropped = [{ path: 'a.js', text: 'x' }]), s.setTaskKind('files'), (s.ownTask = 'Fix a.')),
      {
        task: { kind: 'files', files: { 'a.js': 'x' }, task: 'Fix a.' },
        model: { kind: 'gguf', source: { url: expect.stringMatching(/^https:\/\/huggingface\.co\/.*Q4_K_M\.gguf$/) } },
      },
    ],
    [
      'llama.cpp, the default catalog model',
      (s) => (s.modelKind = 'gguf'),
      {
        model: {
          kind: 'gguf',
          source: { url: expect.stringContaining('Qwen2.5-Coder-0.5B-Instruct-Q4_K_M.gguf') },
          label: 'Qwen2.5-Coder 0.5B Instruct',
        },
      },
    ],
    [
      'llama.cpp from a URL without one',
      (s) => ((s.modelKind = 'gguf'), (s.gguf.from = 'url')),
      /^Give the URL of a \.gguf file/,
    ],
    [
      'llama.cpp from a URL',
      (s) => ((s.modelKind = 'gguf'), (s.gguf.from = 'url'), (s.gguf.url = ' http://127.0.0.1:9/m.gguf ')),
      { model: { kind: 'gguf', source: { url: 'http://127.0.0.1:9/m.gguf' } } },
    ],
    [
      'llama.cpp from disk without a file',
      (s) => ((s.modelKind = 'gguf'), (s.gguf.from = 'file')),
      /^Pick a \.gguf file from your disk/,
    ],
    [
      'scripted with own files',
      (s) => (
        (s.dropped = [{ path: 'a.js', text: 'x' }]),
        (s.ownTask = 't'),
        (s.taskKind = 'files'),
        (s.modelKind = 'scripted')
      ),
      /recorded turns only for the starter task/,
    ],
    [
      'an endpoint without a scheme',
      (s) => ((s.modelKind = 'openai'), (s.endpoint.baseUrl = 'localhost:11434')),
      /base URL starting with http/,
    ],
    ['an endpoint without a model', (s) => ((s.modelKind = 'openai'), (s.endpoint.model = ' ')), /^Name the model/],
    [
      'an endpoint through its tools API',
      (s) => ((s.modelKind = 'openai'), (s.endpoint.toolsApi = true)),
      { model: { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder:1.5b', toolsApi: true } },
    ],
    [
      'an endpoint with a key',
      (s) => ((s.modelKind = 'openai'), (s.endpoint.apiKey = 'k')),
      { model: { kind: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'qwen2.5-coder:1.5b', apiKey: 'k' } },
    ],
    ['WebLLM without a GPU', (s) => (s.modelKind = 'webllm'), /WebLLM cannot run in this browser/],
    [
      'WebLLM on a GPU without shader-f16',
      (s) => (
        (s.modelKind = 'webllm'),
        (s.gpu = { ok: true, webgpu: true, adapter: true, f16: false, fallback: false, explanation: '' })
      ),
      /needs shader-f16, which this GPU lacks/,
    ],
    [
      'WebLLM on a capable GPU',
      (s) => (
        (s.modelKind = 'webllm'),
        (s.gpu = { ok: true, webgpu: true, adapter: true, f16: true, fallback: false, explanation: '' })
      ),
      { model: { kind: 'webllm', modelId: 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC' } },
    ],
    [
      'a custom WebLLM model without a URL',
      (s) => (
        (s.modelKind = 'webllm'),
        (s.gpu = { ok: true, webgpu: true, adapter: true, f16: true, fallback: false, explanation: '' }),
        (s.customModel.enabled = true)
      ),
      /^Give the custom model's URL/,
    ],
    [
      'a custom WebLLM model on a q4f16 base, on a GPU without shader-f16',
      (s) => (
        (s.modelKind = 'webllm'),
        (s.gpu = { ok: true, webgpu: true, adapter: true, f16: false, fallback: false, explanation: '' }),
        (s.customModel.enabled = true),
        (s.customModel.url = 'https://h/M')
      ),
      /library of Qwen2.5-Coder 1.5B, which needs shader-f16/,
    ],
    [
      'a custom WebLLM model (the base defaults to the default model)',
      (s) => (
        (s.modelKind = 'webllm'),
        (s.gpu = { ok: true, webgpu: true, adapter: true, f16: true, fallback: false, explanation: '' }),
        (s.customModel.enabled = true),
        (s.customModel.url = 'http://localhost:8000/M')
      ),
      {
        model: {
          kind: 'webllm',
          modelId: 'custom:http://localhost:8000/M',
          custom: {
            id: 'custom:http://localhost:8000/M',
            url: 'http://localhost:8000/M',
            baseModelId: 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC',
          },
        },
      },
    ],
    ['an emptied setting', (s) => ((s.settings!.maxSteps as unknown as null) = null), /^Fill in “Max steps”\.$/],
    ['a setting out of bounds', (s) => (s.settings!.temperature = 5), /^“Temperature” must be between 0 and 2\.$/],
    ['start paused', (s) => (s.startPaused = true), { paused: true }],
  ])('%s', async (_label, change, expected) => {
    const start = await loaded();
    change(start);
    const r = start.readiness;
    if (expected instanceof RegExp) {
      expect(r.ok).toBe(false);
      expect(!r.ok && r.reason).toMatch(expected);
    } else {
      expect(r.ok).toBe(true);
      expect(r.ok && r.config).toMatchObject(expected);
    }
  });

  it('the endpoint check reports an unreachable server in words', async () => {
    const start = await loaded();
    const port = await closedPort();
    start.endpoint.baseUrl = `http://127.0.0.1:${port}`;
    await start.probeEndpoint();
    expect(start.probe).toEqual({
      ok: false,
      message: expect.stringMatching(
        new RegExp(
          `^Could not connect to http://127\\.0\\.0\\.1:${port}/v1/models: connection refused\\. Start the server`,
        ),
      ),
    });
    expect(start.probing).toBe(false);
  });
});

describe('StartState preselection and memory', () => {
  async function withOptions(o: ConstructorParameters<typeof StartState>[2]): Promise<StartState> {
    const { client } = connectInProcess(() => createTemplateSession());
    cleanups.push(() => client.dispose());
    const start = new StartState(client, undefined, o);
    await start.load();
    return start;
  }

  it.each<
    [
      string,
      Partial<Record<'modelKind' | 'ggufFrom' | 'ggufUrl' | 'catalogId' | 'webllmId' | 'baseUrl' | 'model', string>>,
      RegExp,
    ]
  >([
    [
      'gguf:http://127.0.0.1:9/m.gguf',
      { modelKind: 'gguf', ggufFrom: 'url', ggufUrl: 'http://127.0.0.1:9/m.gguf' },
      /preselected gguf:http.*Nothing is downloaded or run until you press Run/,
    ],
    [
      'gguf:https://huggingface.co/ggml-org/Qwen3-1.7B-GGUF/resolve/main/Qwen3-1.7B-Q4_K_M.gguf',
      { modelKind: 'gguf', ggufFrom: 'catalog', catalogId: 'qwen3-1.7b-q4_k_m' },
      /preselected/,
    ],
    [
      'webllm:Llama-3.2-1B-Instruct-q4f16_1-MLC',
      { modelKind: 'webllm', webllmId: 'Llama-3.2-1B-Instruct-q4f16_1-MLC' },
      /preselected/,
    ],
    [
      'openai:http://127.0.0.1:8080/v1#my-model',
      { modelKind: 'openai', baseUrl: 'http://127.0.0.1:8080/v1', model: 'my-model' },
      /preselected/,
    ],
    ['nonsense', { modelKind: 'scripted' }, /is not a model spec/],
  ])('?model=%s', async (spec, expected, note) => {
    const s = await withOptions({ modelSpec: spec });
    const seen = {
      modelKind: s.modelKind,
      ggufFrom: s.gguf.from,
      ggufUrl: s.gguf.url,
      catalogId: s.gguf.catalogId,
      webllmId: s.webllmId,
      baseUrl: s.endpoint.baseUrl,
      model: s.endpoint.model,
    };
    expect(seen).toMatchObject(expected);
    expect(s.specNote?.text).toMatch(note);
  });

  it('keeps the endpoint and a GGUF URL across reloads, never the key', async () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    const first = await withOptions({ storage });
    first.endpoint = { baseUrl: 'http://127.0.0.1:8080/v1', model: 'kept', apiKey: 'secret', toolsApi: false };
    first.gguf.url = 'https://example.org/kept.gguf';
    first.remember();
    const again = await withOptions({ storage });
    expect(again.endpoint).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'kept', apiKey: '', toolsApi: false });
    expect(again.gguf.url).toBe('https://example.org/kept.gguf');
    expect([...data.values()].join()).not.toContain('secret');
  });

  it('keeps the kind of model, the catalog picks, the step limit, the temperature, the tool set and named presets', async () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
    };
    const first = await withOptions({ storage });
    const otherWebllm = first.options!.catalog.at(-1)!.id;
    const otherGguf = first.options!.ggufCatalog.at(-1)!.id;
    first.modelKind = 'gguf';
    first.webllmId = otherWebllm;
    first.gguf.catalogId = otherGguf;
    first.settings!.maxSteps = 12;
    first.settings!.temperature = 0.7;
    first.settings!.toolSet = 'small';
    first.endpoint = { baseUrl: 'http://127.0.0.1:8080/v1', model: 'a', apiKey: 'secret', toolsApi: true };
    expect(first.savePreset('  ')).toBe('Name the preset first.');
    expect(first.savePreset('llama-server')).toBeNull();
    first.endpoint = { baseUrl: 'http://127.0.0.1:11434/v1', model: 'b', apiKey: '', toolsApi: false };
    expect(first.savePreset('ollama')).toBeNull();
    first.remember();

    const again = await withOptions({ storage });
    expect(again.modelKind).toBe('gguf');
    expect(again.webllmId).toBe(otherWebllm);
    expect(again.gguf.catalogId).toBe(otherGguf);
    expect(again.settings).toMatchObject({ maxSteps: 12, temperature: 0.7, toolSet: 'small' });
    expect(again.presets.map((p) => p.name)).toEqual(['llama-server', 'ollama']);
    again.usePreset('llama-server');
    expect(again.endpoint).toEqual({ baseUrl: 'http://127.0.0.1:8080/v1', model: 'a', apiKey: '', toolsApi: true });
    again.deletePreset('llama-server');
    expect((await withOptions({ storage })).presets.map((p) => p.name)).toEqual(['ollama']);
    expect([...data.values()].join()).not.toContain('secret');
  });

  it.each([
    [
      'a step limit out of range',
      { maxSteps: 5000 },
      (s: StartState) => s.settings!.maxSteps === s.options!.defaults.maxSteps,
    ],
    [
      'a temperature that is text',
      { temperature: 'hot' },
      (s: StartState) => s.settings!.temperature === s.options!.defaults.temperature,
    ],
    ['an unknown kind of model', { modelKind: 'gpt' }, (s: StartState) => s.modelKind === 'scripted'],
    [
      'a WebLLM id not in the catalog',
      { webllmId: 'gone' },
      (s: StartState) => s.webllmId === s.options!.defaultModelId,
    ],
    [
      'a preset without a name',
      { presets: [{ name: '', baseUrl: 'x', model: 'y' }] },
      (s: StartState) => s.presets.length === 0,
    ],
  ])('ignores %s kept by an older page', async (_name, kept, isDefault) => {
    const storage = { getItem: () => JSON.stringify(kept), setItem: () => {} };
    expect(isDefault(await withOptions({ storage }))).toBe(true);
  });
});

describe('StartState: the context window of a catalog model', () => {
  const settingsOf = (s: StartState) => (s.readiness.ok ? s.readiness.config.settings : null);

  it('runs a catalog model at the window planned for the reported memory, and at a picked one', async () => {
    const s = await loaded();
    s.modelKind = 'gguf';
    s.gguf.catalogId = 'smollm2-1.7b-instruct-q4_k_m';
    // Node reports no memory: the default window, and the number field is not what counts.
    s.settings!.contextTokens = 2048;
    expect(s.windowPlan?.memory).toBeNull();
    expect(settingsOf(s)?.contextTokens).toBe(4096);
    // 8 GiB reported: the largest window its trained 8,192 tokens allow.
    s.gpu = { ...s.gpu!, deviceMemoryGiB: 8 };
    expect(s.windowPlan?.chosen).toBe(8192);
    expect(settingsOf(s)?.contextTokens).toBe(8192);
    s.pickWindow(2048);
    expect(settingsOf(s)?.contextTokens).toBe(2048);
    // The pick belongs to that model: another model gets its own plan.
    s.gguf.catalogId = 'qwen2.5-coder-0.5b-instruct-q4_k_m';
    expect(settingsOf(s)?.contextTokens).toBe(16384);
    s.gguf.catalogId = 'smollm2-1.7b-instruct-q4_k_m';
    expect(settingsOf(s)?.contextTokens).toBe(2048);
  });

  it('leaves the window to the number field for an endpoint and a GGUF URL', async () => {
    const s = await loaded();
    s.gpu = { ...s.gpu!, deviceMemoryGiB: 8 };
    s.settings!.contextTokens = 6144;
    for (const pick of [
      () => (s.modelKind = 'openai'),
      () => ((s.modelKind = 'gguf'), (s.gguf.from = 'url'), (s.gguf.url = 'https://example.org/m.gguf')),
    ]) {
      pick();
      expect(s.windowPlan).toBeNull();
      expect(settingsOf(s)?.contextTokens).toBe(6144);
    }
  });
});
