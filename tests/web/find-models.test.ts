/** find_models over the CLI's model list: both catalogs with their facts, an endpoint's own list (OpenAI-style and Ollama loopback fixtures), and the task hint's order. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create.ts';
import { nodeModels } from '../../src/cli/models-node.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';

const engine = () =>
  createEngine(new MemoryWorkspace(), { specialist_tools: true }, { outside: { models: nodeModels() } });
const ids = (text: string) => [...text.matchAll(/^- (\S+) —/gm)].map((m) => m[1]!);

describe('find_models', () => {
  it('lists the GGUF and WebLLM catalogs with size, context, cache and fit', async () => {
    const r = await engine().call('find_models', {});
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/^\d+ model\(s\) this host can run \(smallest first\):/);
    expect(r.text).toMatch(
      /^- gguf:\S+ — .*; gguf, \d+ MB, cached: unknown, fits here: (yes|no) \(needs about \d+ MB of memory/m,
    );
    expect(r.text).toMatch(
      /^- \S+-MLC — .*; webllm, \d+ MB, context \d+, cached: unknown, fits here: no \(WebGPU in a browser tab/m,
    );
    const sizes = [...r.text.matchAll(/; \w+, (\d+) MB/g)].map((m) => Number(m[1]));
    expect(sizes).toEqual([...sizes].sort((a, b) => a - b));
  });

  it('a coding task puts coding models first', async () => {
    const r = await engine().call('find_models', { task: 'fix the failing test' });
    expect(r.text).toMatch(/\(coding models first, then smallest first\)/);
    const list = ids(r.text);
    const firstOther = list.findIndex((id) => !/coder|code/i.test(id));
    expect(firstOther).toBeGreaterThan(0);
    expect(list.slice(firstOther).some((id) => /coder|code/i.test(id))).toBe(false);
  });

  it('says so on a host with no model list', async () => {
    const r = await createEngine(new MemoryWorkspace(), { specialist_tools: true }).call('find_models', {});
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/find_models has no model list on this host/);
  });
});

/** Loopback endpoints: an OpenAI-style server (only /v1/models), an Ollama one (both lists), one with no list, one answering 2 MB. */
async function startEndpoints() {
  const { createServer } = await import('node:http');
  const json = (res: import('node:http').ServerResponse, value: unknown) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(value));
  };
  const server = createServer((req, res) => {
    const [, kind, ...rest] = (req.url ?? '').split('/');
    const path = `/${rest.join('/')}`;
    if (kind === 'openai' && path === '/v1/models')
      return json(res, { object: 'list', data: [{ id: 'smollm2-135m' }, { id: 'qwen2.5-coder-1.5b' }] });
    if (kind === 'huge' && path === '/v1/models') return json(res, { data: [{ id: 'x'.repeat(2 * 1024 * 1024) }] });
    res.writeHead(404).end();
  });
  // Ollama answers at its origin's /api/tags, so it has a server of its own.
  const ollama = createServer((req, res) => {
    if (req.url === '/v1/models') return json(res, { data: [{ id: 'llama3.2:1b' }, { id: 'qwen2.5-coder:0.5b' }] });
    if (req.url === '/api/tags')
      return json(res, {
        models: [
          { name: 'llama3.2:1b', size: 1321098329 },
          { name: 'qwen2.5-coder:0.5b', size: 397821319 },
        ],
      });
    res.writeHead(404).end();
  });
  const listen = (s: import('node:http').Server) =>
    new Promise<number>((done) => s.listen(0, '127.0.0.1', () => done((s.address() as { port: number }).port)));
  const [port, ollamaPort] = [await listen(server), await listen(ollama)];
  return {
    base: (kind: string) => `http://127.0.0.1:${port}/${kind}/v1`,
    ollama: `http://127.0.0.1:${ollamaPort}/v1`,
    close: () => Promise.all([server, ollama].map((s) => new Promise((done) => s.close(done)))),
  };
}

describe("find_models with an endpoint: the endpoint's own list", () => {
  let ep: Awaited<ReturnType<typeof startEndpoints>>;
  beforeAll(async () => {
    ep = await startEndpoints();
  });
  afterAll(() => ep.close());
  const withEndpoint = (base: string) =>
    createEngine(new MemoryWorkspace(), { specialist_tools: true }, { outside: { models: nodeModels(base) } });

  const rows = [
    {
      rule: 'an OpenAI-style endpoint lists /v1/models, each as a model spec slm run takes',
      base: () => ep.base('openai'),
      task: undefined,
      says: (b: string) => [
        `- openai:${b}#qwen2.5-coder-1.5b — qwen2.5-coder-1.5b; endpoint, cached: yes, fits here: unknown (served by the endpoint ${b})`,
        `- openai:${b}#smollm2-135m — smollm2-135m; endpoint`,
      ],
    },
    {
      rule: "Ollama's /api/tags adds each model's size",
      base: () => ep.ollama,
      task: undefined,
      says: (b: string) => [
        `- openai:${b}#qwen2.5-coder:0.5b — qwen2.5-coder:0.5b; endpoint, 379 MB, cached: yes`,
        `- openai:${b}#llama3.2:1b — llama3.2:1b; endpoint, 1260 MB, cached: yes`,
      ],
    },
    {
      rule: 'an endpoint that gives no list is said, and the catalogs still come',
      base: () => ep.base('none'),
      task: undefined,
      says: (b: string) => [`The endpoint ${b} gave no model list (${b}/models: HTTP 404; /api/tags: HTTP 404)`],
    },
    {
      rule: 'a list over 1 MB is not read',
      base: () => ep.base('huge'),
      task: undefined,
      says: (b: string) => [`(${b}/models: more than 1048576 bytes;`],
    },
  ];
  it.each(rows)('$rule', async (row) => {
    const r = await withEndpoint(row.base()).call('find_models', row.task ? { task: row.task } : {});
    expect(r.ok).toBe(true);
    for (const s of row.says(row.base())) expect(r.text).toContain(s);
    expect(r.text).toMatch(/^- gguf:/m);
  });

  it("a coding task puts the endpoint's coding models first, then the rest smallest first", async () => {
    const r = await withEndpoint(ep.ollama).call('find_models', { task: 'fix the failing test' });
    const list = ids(r.text);
    expect(list[0]).toBe(`openai:${ep.ollama}#qwen2.5-coder:0.5b`);
    const firstOther = list.findIndex((id) => !/coder|code/i.test(id));
    expect(list.slice(firstOther).some((id) => /coder|code/i.test(id))).toBe(false);
    expect(list).toContain(`openai:${ep.ollama}#llama3.2:1b`);
  });
});
