/**
 * node-llama-cpp on the generated test model (random weights): every constrained reply is a
 * call the schema accepts and the loop can parse — 200 of them, none throwing and none spelled
 * with a banned byte token — the KV cache carries over between turns, Stop cuts a reply short, and the model
 * is named after its file.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callJsonSchema, toolSpecs } from '../../src/agent/call-schema.ts';
import type { ChatMessage } from '../../src/agent/model.ts';
import type { GgufNodeModel } from '../../src/agent/models/gguf-node.ts';
import { parseCall } from '../../src/agent/parse.ts';
import { countPrompt } from '../../src/agent/tokens.ts';
import { createEngine } from '../../src/engine/create.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { cleanup, tempRoot } from '../cli/cli-process.ts';
import { makeTestModel, TEST_MODEL_FILE } from '../support/gguf/test-model.ts';
import { schemaProblem } from '../support/json-schema-check.ts';
import { needsNodeLlamaCpp } from '../support/node-llama-cpp.ts';

const run = needsNodeLlamaCpp('node-llama-cpp on the generated model');
// Imported only where it is installed: gguf-node.ts imports node-llama-cpp.
const { loadGgufNode } = run ? await import('../../src/agent/models/gguf-node.ts') : { loadGgufNode: null };

const specs = toolSpecs(createEngine(new MemoryWorkspace()).tools.values());
const schema = callJsonSchema(specs);
const tools = specs.map((s) => s.name);
let model: GgufNodeModel;

beforeAll(async () => {
  if (!loadGgufNode) return;
  const file = join(await tempRoot(), TEST_MODEL_FILE);
  await writeFile(file, makeTestModel());
  model = await loadGgufNode({ file, contextTokens: 4096, threads: 1 });
}, 60_000);
afterAll(async () => {
  await model?.dispose();
  await cleanup();
});

const conversation = (i: number): ChatMessage[] => [
  { role: 'system', content: 'You are a coding agent. Answer with one JSON tool call.' },
  // Text beyond ASCII, so the byte tokens that spell it are tempting.
  { role: 'user', content: `Task ${i}: fix the café menu — prices in € and 円, names like Zoë and 北京.` },
];

describe.skipIf(!run)('node-llama-cpp on the generated model', () => {
  it('is named after its file', () => {
    expect(model.id).toBe(`gguf:${TEST_MODEL_FILE}`);
    expect(model.contextWindow).toBe(4096);
  });

  it('counts a prompt with its own tokenizer and chat template: never under what llama.cpp reads, at most 2 over', async () => {
    const messages: ChatMessage[] = [
      ...conversation(1),
      { role: 'assistant', content: '{"tool": "ws_list", "args": {}}' },
      { role: 'user', content: 'src/\n  index.js\n  math.js\n' },
    ];
    const c = await model.complete(messages, { seed: 1, temperature: 0, maxTokens: 4 });
    expect(model.tokenizer.counting).toBe('counted');
    const counted = countPrompt(model.tokenizer, messages);
    expect(counted).toBeGreaterThanOrEqual(c.usage!.promptTokens);
    expect(counted).toBeLessThanOrEqual(c.usage!.promptTokens + 2);
  });

  it('writes 200 constrained replies that the schema accepts and the loop parses, none failing', async () => {
    const problems: string[] = [];
    for (let i = 0; i < 200; i++) {
      const c = await model.complete(conversation(i), { jsonSchema: schema, seed: i, temperature: 1, maxTokens: 512 });
      // The vocabulary's pieces are ASCII: any other character would be spelled with banned byte tokens.
      if (/[^\x00-\x7f]/.test(c.text)) problems.push(`${i}: a byte token beyond ASCII: ${c.text}`);
      let value: unknown;
      try {
        value = JSON.parse(c.text);
      } catch {
        problems.push(`${i}: not JSON: ${c.text}`);
        continue;
      }
      const problem = schemaProblem(value, schema);
      if (problem) problems.push(`${i}: ${problem}: ${c.text}`);
      const parsed = parseCall(c.text, { tools });
      if (!parsed.ok || parsed.repairs.length)
        problems.push(`${i}: the loop's parser: ${parsed.ok ? parsed.repairs.join(', ') : parsed.message}`);
    }
    expect(problems).toEqual([]);
  }, 240_000);

  it('reads only the new tokens of a turn: the rest comes from the KV cache', async () => {
    const first = conversation(1000);
    const a = await model.complete(first, { jsonSchema: schema, seed: 1, temperature: 1, maxTokens: 512 });
    const next = [...first, { role: 'assistant' as const, content: a.text }, { role: 'user' as const, content: 'ok' }];
    const b = await model.complete(next, { jsonSchema: schema, seed: 2, temperature: 1, maxTokens: 512 });
    expect(b.usage!.promptTokens).toBeGreaterThan(a.usage!.promptTokens);
    expect(b.timings!.cachedTokens + b.timings!.promptTokens).toBe(b.usage!.promptTokens);
    // At least the first turn's prompt is reused; what is read is the reply and the new message.
    expect(b.timings!.cachedTokens).toBeGreaterThanOrEqual(a.usage!.promptTokens);
    expect(b.timings!.promptTokens).toBeLessThan(b.usage!.promptTokens - a.usage!.promptTokens + 1);
  }, 60_000);

  it('stops mid-reply on abort, and answers the next request', async () => {
    const ac = new AbortController();
    let streamed = '';
    const stopped = model.complete(conversation(2000), {
      seed: 3,
      temperature: 1,
      // Long enough to be stopped mid-reply, short enough that prompt and reply fit the window (a longer one is refused).
      maxTokens: 3000,
      signal: ac.signal,
      onToken: (d) => {
        streamed += d;
        ac.abort();
      },
    });
    await expect(stopped).rejects.toMatchObject({ name: 'ModelError', code: 'aborted' });
    expect(streamed.length).toBeGreaterThan(0);
    expect(streamed.length).toBeLessThan(200);
    const next = await model.complete(conversation(2001), {
      jsonSchema: schema,
      seed: 4,
      temperature: 1,
      maxTokens: 512,
    });
    expect(schemaProblem(JSON.parse(next.text), schema)).toBeNull();
  }, 60_000);

  it('refuses a file that is not there, naming it', async () => {
    await expect(loadGgufNode!({ file: '/nonexistent/model.gguf' })).rejects.toThrow(
      /\/nonexistent\/model\.gguf cannot be loaded: there is no such file; give the path of a \.gguf file\./,
    );
  });
});
