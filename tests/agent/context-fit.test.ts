/**
 * The prompt fits the model's real window: every engine's refusal for length is recognised,
 * rebuilt once within a smaller budget and otherwise ends the run as `context-overflow`; a reply
 * cut at the token limit is said plainly and not counted as a broken call; and against a model
 * that counts real Qwen tokens (ChatML) and reports them, the calibrated budget never sends a
 * prompt that does not fit and never undercounts one by more than 2% after the first step.
 */
import { describe, expect, it } from 'vitest';
import { runLoop } from '../../src/agent/loop.ts';
import {
  ModelError,
  type ChatMessage,
  type Completion,
  type CompleteOptions,
  type Model,
} from '../../src/agent/model.ts';
import { CONTEXT_OVERFLOW_RULES, contextError, contextOverflow } from '../../src/agent/models/context-errors.ts';
import { explainWebLLMError } from '../../src/agent/models/webllm-errors.ts';
import { OpenAIModel } from '../../src/agent/models/openai.ts';
import { stopText, type Step } from '../../src/agent/step.ts';
import { failureKind } from '../../src/eval/taxonomy.ts';
import { realPromptTokens } from '../support/real-tokens.ts';
import { call, DONE, echoTool, engineWith, type Probe } from './support.ts';

/** Each engine's own wording, as its source writes it. */
const REFUSALS: readonly (readonly [string, string, number | undefined, number | undefined])[] = [
  [
    'WebLLM',
    'Prompt tokens exceed context window size: number of prompt tokens: 4310; context window size: 4096\nConsider shortening the prompt, or increase `context_window_size`, or using sliding window via `sliding_window_size`.',
    4310,
    4096,
  ],
  [
    'llama.cpp server / wllama',
    'request (4620 tokens) exceeds the available context size (4096 tokens), try increasing it',
    4620,
    4096,
  ],
  [
    'llama.cpp server, input',
    'input (5000 tokens) is larger than the max context size (4096 tokens). skipping',
    5000,
    4096,
  ],
  [
    'node-llama-cpp',
    'Failed to compress chat history for context shift due to a too long prompt or system message that cannot be compressed without affecting the generation quality. Consider increasing the context size or shortening the long prompt or system message.',
    undefined,
    undefined,
  ],
  ['node-llama-cpp, small context', 'The context size is too small to generate a response', undefined, undefined],
  [
    'vLLM (older)',
    "This model's maximum context length is 4096 tokens. However, you requested 4600 tokens (4088 in the messages, 512 in the completion). Please reduce the length of the messages or completion.",
    4088,
    4096,
  ],
  [
    'vLLM (newer)',
    "'max_tokens' or 'max_completion_tokens' is too large: 512. This model's maximum context length is 4096 tokens and your request has 3700 input tokens (512 > 4096 - 3700).",
    3700,
    4096,
  ],
  ['OpenAI', '{"error":{"code":"context_length_exceeded","message":"…"}}', undefined, undefined],
];

describe('context refusals, per engine', () => {
  it.each(REFUSALS)('%s: recognised, with the sizes it names', (_engine, text, prompt, window) => {
    expect(contextOverflow(text)).toEqual({
      ...(prompt !== undefined && { promptTokens: prompt }),
      ...(window !== undefined && { window }),
    });
    expect(contextError('x', text)?.code).toBe('context');
  });

  it.each(['Failed to fetch', 'device lost', 'HTTP 500: model not found', 'Unable to find a compatible GPU'])(
    '%s: not a context refusal',
    (text) => {
      expect(contextOverflow(text)).toBeNull();
    },
  );

  it('every rule has a row above', () => {
    for (const r of CONTEXT_OVERFLOW_RULES) expect(REFUSALS.some(([, text]) => r.pattern.test(text))).toBe(true);
  });

  it("WebLLM's ContextWindowSizeExceededError is a context error, not a load failure with 'Run again'", () => {
    const e = Object.assign(new Error(REFUSALS[0]![1]), { name: 'ContextWindowSizeExceededError' });
    const err = explainWebLLMError(e, 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC');
    expect(err.code).toBe('context');
    expect(err.message).not.toMatch(/Run again/);
  });

  it("an endpoint's HTTP 400 for length is a context error", async () => {
    const body = JSON.stringify({ object: 'error', message: REFUSALS[5]![1], code: 400 });
    const model = new OpenAIModel({
      baseUrl: 'http://127.0.0.1:1/v1',
      model: 'qwen',
      jsonSchema: false,
      fetch: async () => new Response(body, { status: 400 }),
    });
    await expect(model.complete([{ role: 'user', content: 'hi' }], { seed: 1, temperature: 0 })).rejects.toMatchObject({
      code: 'context',
    });
  });
});

/**
 * A server that counts real Qwen tokens with the ChatML template, reports them as usage, and
 * refuses (as vLLM does) a prompt whose tokens plus max_tokens pass its window.
 */
class QwenServer implements Model {
  readonly id = 'test:qwen-server';
  readonly family = 'qwen2.5-coder';
  readonly prompts: number[] = [];
  readonly sent: (readonly ChatMessage[])[] = [];
  refusals = 0;
  private i = 0;

  constructor(
    private readonly outputs: readonly (string | Completion)[],
    private readonly window: number,
  ) {}

  async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
    const prompt = realPromptTokens('qwen', messages);
    if (prompt + (o.maxTokens ?? 0) > this.window) {
      this.refusals++;
      throw contextError(
        'http://server/v1',
        `This model's maximum context length is ${this.window} tokens. However, you requested ${prompt + (o.maxTokens ?? 0)} tokens (${prompt} in the messages, ${o.maxTokens ?? 0} in the completion).`,
      );
    }
    this.prompts.push(prompt);
    this.sent.push(messages);
    const out = this.outputs[Math.min(this.i++, this.outputs.length - 1)]!;
    const c = typeof out === 'string' ? { text: out } : out;
    return { ...c, usage: { promptTokens: prompt, completionTokens: 10 } };
  }
}

/** A ws_read-like result: numbered lines of code, the densest text a model reads (~3 characters a token). */
function numbered(n: number, lines: number): string {
  return Array.from(
    { length: lines },
    (_, i) => `${String(i + 1).padStart(6)}|  const v${n}_${i} = compute(${i}, "x${i}");`,
  ).join('\n');
}

function run(model: Model, extra: Partial<Parameters<typeof runLoop>[0]> = {}) {
  const probe: Probe = { calls: [] };
  const { engine } = engineWith([echoTool(probe)]);
  return runLoop({ engine, model, task: 'Read the files.', contextTokens: 4096, outputTokens: 512, ...extra });
}

describe('a run against a server that counts real tokens', () => {
  it('40+ steps of large reads at 4,096: no refusal, and the budget never undercounts by more than 2% after step 1', async () => {
    const reads = Array.from({ length: 44 }, (_, i) => call('echo', { text: numbered(i, 60) }));
    const server = new QwenServer([...reads, DONE], 4096);
    const r = await run(server, { maxSteps: 60 });
    expect(r.stop.kind).toBe('done');
    expect(r.steps.length).toBeGreaterThanOrEqual(40);
    expect(server.refusals).toBe(0);
    r.steps.forEach((s: Step, i) => {
      const real = server.prompts[i]!;
      const counted = s.budget.window - s.budget.output - s.budget.free;
      expect(real + s.budget.output).toBeLessThanOrEqual(4096);
      if (i > 0) {
        expect(s.budget.counting).toBe('calibrated');
        expect(counted).toBeGreaterThanOrEqual(Math.floor(real * 0.98));
      }
    });
  });

  it('a window smaller than the budget thought: the refusal rebuilds the step once and the run goes on', async () => {
    const reads = Array.from({ length: 6 }, (_, i) => call('echo', { text: numbered(i, 60) }));
    const server = new QwenServer([...reads, DONE], 3000);
    const r = await run(server, { contextTokens: 8192 });
    expect(r.stop.kind).toBe('done');
    expect(server.refusals).toBe(1);
    const retried = r.steps.find((s) => s.notes.some((n) => n.kind === 'context-retry'))!;
    expect(retried.notes.find((n) => n.kind === 'context-retry')!.detail).toBe('3000');
    expect(retried.budget.window).toBe(3000);
  });

  it('still too long after the rebuild: the run ends as context-overflow before a second send, saying what would help', async () => {
    const server = new QwenServer([DONE], 200);
    const r = await run(server);
    // The refusal named the prompt's size, so the rebuilt prompt is measured and not sent.
    expect(server.refusals).toBe(1);
    expect(server.sent).toHaveLength(0);
    expect(r.stop.kind).toBe('context-overflow');
    const text = stopText(r.stop);
    expect(text).toMatch(/does not fit the model's context window, so it was not sent/);
    expect(text).toMatch(/larger context window/);
    expect(text).toMatch(/shorter task/);
    expect(text).not.toMatch(/Run again/i);
    expect(failureKind(false, r.stop, r.steps)).toBe('context-overflow');
  });
});

describe('a reply cut at the token limit', () => {
  it('is said to the model plainly and does not count as a broken call', async () => {
    const cut: Completion = { text: '{"tool": "echo", "args": {"text": "a very long te', finishReason: 'length' };
    const server = new QwenServer([cut, cut, cut, call('echo', { text: 'ok' }), DONE], 4096);
    const r = await run(server, { maxParseFailures: 2 });
    expect(r.stop.kind).toBe('done');
    const s1 = r.steps[0]!;
    expect(s1.notes.map((n) => n.kind)).toContain('reply-cut');
    expect(s1.observation).toMatch(/cut off at the limit of 512 tokens/);
    expect(s1.observation).toMatch(/ws_edit or ws_patch/);
  });

  it('a cut reply the parser could only close by adding braces does not run', async () => {
    const cut: Completion = { text: '{"tool": "echo", "args": {"text": "half"', finishReason: 'length' };
    const probe: Probe = { calls: [] };
    const { engine } = engineWith([echoTool(probe)]);
    const r = await runLoop({ engine, model: new QwenServer([cut, DONE], 4096), task: 't', contextTokens: 4096 });
    expect(probe.calls).toEqual([]);
    expect(r.steps[0]!.notes.map((n) => n.kind)).toContain('reply-cut');
  });
});

describe('ModelError codes', () => {
  it('context is its own code', () => {
    expect(new ModelError('context', 'x').code).toBe('context');
  });
});
