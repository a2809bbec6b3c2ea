/**
 * A model worker's tokenizer crossing the model protocol (a real MessageChannel, the host on one
 * port and the client on the other, a fake backend standing in for llama.cpp): the loaded model
 * counts in its own tokens on the calling side — each text as the BPE vocabulary counts it, each
 * message with the template's overhead the worker measured — so the loop's budget says `counted`
 * from step 1; what arrives malformed fails the load with a message that says so.
 */
import { MessageChannel, type MessagePort } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/agent/call-schema.ts';
import { runLoop } from '../../src/agent/loop.ts';
import { isModelError, type Model } from '../../src/agent/model.ts';
import { bpeCounter, type BpeVocabulary } from '../../src/agent/models/bpe-counter.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import type { HostedModel, ModelBackend } from '../../src/agent/models/worker-host.ts';
import type { WireTokenizer } from '../../src/agent/models/worker-protocol.ts';
import { buildPrompt } from '../../src/agent/prompt.ts';
import { countPrompt } from '../../src/agent/tokens.ts';
import { createEngine } from '../../src/engine/create.ts';
import { modelClient, serveModel } from '../../src/worker/model-wire.ts';
import type { Wire } from '../../src/worker/rpc.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { qwenVocab } from '../support/gguf/qwen-vocab.ts';
import { realPromptTokens, realTokens } from '../support/real-tokens.ts';

const ports: MessagePort[] = [];
afterEach(() => ports.splice(0).forEach((p) => p.close()));

function qwen(): BpeVocabulary {
  const v = qwenVocab();
  return {
    pre: 'qwen2',
    tokens: [...v.tokens],
    merges: [...v.merges],
    userDefined: v.tokens.filter((_, i) => v.types[i] === 4),
  };
}

/** ChatML's overhead, as llama.cpp measures it for a Qwen GGUF (real-tokens.ts). */
const QWEN: WireTokenizer = { vocabulary: qwen(), perMessage: 5, perPrompt: 3 };

const DONE = '{"tool": "done", "args": {"summary": "ok"}}';

/** A backend whose model sends `tokenizer` with itself, and answers `done`. */
function backend(tokenizer: unknown): ModelBackend {
  return {
    async load(req) {
      const inner = new ScriptedModel([DONE]);
      const model: HostedModel = {
        id: `fake:${req.modelId}`,
        family: 'qwen',
        contextWindow: 4096,
        ...(tokenizer !== undefined && { wireTokenizer: tokenizer as WireTokenizer }),
        complete: (messages, o) => inner.complete(messages, o),
        unload: async () => {},
      };
      return model;
    },
    isCached: async () => false,
    deleteCached: async () => {},
    gpu: async () => ({ ok: false, webgpu: false, adapter: false, f16: false, fallback: false, explanation: '' }),
  };
}

const wire = (port: MessagePort): Wire => ({
  post: (m) => port.postMessage(m),
  listen: (receive) => port.on('message', receive),
});

function load(tokenizer: unknown): Promise<Model> {
  const { port1, port2 } = new MessageChannel();
  ports.push(port1, port2);
  serveModel(wire(port1), async () => backend(tokenizer));
  return modelClient(wire(port2)).load({ modelId: 'm' });
}

const TEXTS = ['', 'hello world', '  indented\n\tcode();\n', 'numbers 1234567', '<think>x</think> ünïcödé 丽 😀'];

describe("a model worker's tokenizer over the protocol", () => {
  it('counts each text on the calling side as the BPE vocabulary does, with the measured overhead', async () => {
    const model = await load(QWEN);
    const count = bpeCounter(QWEN.vocabulary);
    expect(model.tokenizer?.counting).toBe('counted');
    expect(model.tokenizer?.perMessage).toBe(5);
    expect(model.tokenizer?.perPrompt).toBe(3);
    for (const t of TEXTS) expect(model.tokenizer!.text(t), t).toBe(count(t));
    expect(model.tokenizer!.text('hello world')).toBe(realTokens('qwen', 'hello world'));
  });

  it('gives a model without one no tokenizer (its budget is estimated, then calibrated)', async () => {
    const model = await load(undefined);
    expect(model.tokenizer).toBeUndefined();
  });

  it.each([
    ['a perMessage that is no count', { ...QWEN, perMessage: -1 }, 'perMessage'],
    [
      'a pre-tokenizer this engine does not apply',
      { ...QWEN, vocabulary: { ...QWEN.vocabulary, pre: 'gpt-4o' } },
      'pre',
    ],
    ['a merge that is not a pair', { ...QWEN, vocabulary: { ...QWEN.vocabulary, merges: ['ab'] } }, 'merges'],
    ['no vocabulary', { perMessage: 5, perPrompt: 3 }, 'vocabulary'],
  ])('fails the load on %s, saying what is wrong and what to do', async (_what, tokenizer, field) => {
    const failed = await load(tokenizer).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isModelError(failed) && failed.code).toBe('bad-response');
    expect((failed as Error).message).toMatch(/^The model worker sent a tokenizer that cannot be counted with \(/);
    expect((failed as Error).message).toContain(field);
    expect((failed as Error).message).toMatch(/load the model again/);
  });

  it("budgets step 1 of a run in the model's own tokens: counted, and equal to Qwen's real count", async () => {
    const model = await load(QWEN);
    const engine = createEngine(new MemoryWorkspace());
    const task = 'Fix the failing test in test/math.test.js.';
    const result = await runLoop({ model, engine, task, maxSteps: 1 });
    const step = result.steps[0]!;
    expect(step.budget.counting).toBe('counted');
    const b = step.budget;
    const used = b.system + b.tools + b.task + b.history + b.observation;
    expect(used).toBe(countPrompt(model.tokenizer!, step.messages));
    expect(used).toBe(realPromptTokens('qwen', step.messages));
    expect(step.messages[0]!.content).toContain(buildPrompt({ tools: toolSpecs(engine.tools.values()), task }).tools);
  });
});
