/**
 * A prompt that cannot fit is never sent: the loop measures each built prompt with the reply's
 * reserve against the window, trims what it may, and when even the trimmed prompt does not fit
 * it ends the run as `context-overflow` before the model is asked, naming the counts and what
 * would help. One row per rule, against a model that counts one token per UTF-8 byte (a
 * byte-level vocabulary) and refuses, as llama.cpp does, any prompt that passes its window.
 */
import { describe, expect, it } from 'vitest';
import { runLoop } from '../../src/agent/loop.ts';
import {
  type ChatMessage,
  type Completion,
  type CompleteOptions,
  type Model,
  type TokenCounter,
} from '../../src/agent/model.ts';
import { contextError } from '../../src/agent/models/context-errors.ts';
import { countPrompt } from '../../src/agent/tokens.ts';
import { stopText, type Stop } from '../../src/agent/step.ts';
import { failureKind } from '../../src/eval/taxonomy.ts';
import type { ToolSet } from '../../src/engine/settings.ts';
import { call, DONE, echoTool, engineWith, type Probe } from './support.ts';

const utf8 = new TextEncoder();
/** One token a byte, and fixed template tokens: an exact count of a byte-level vocabulary. */
const BYTES: TokenCounter = { counting: 'counted', text: (s) => utf8.encode(s).length, perMessage: 4, perPrompt: 3 };

/** Counts with BYTES; with `tokenizer: false` it offers no tokenizer (the loop estimates) but still reports usage. */
class ByteModel implements Model {
  readonly id = 'test:bytes';
  readonly family = 'test';
  readonly tokenizer: TokenCounter | undefined;
  readonly sent: number[] = [];
  refusals = 0;
  private i = 0;

  constructor(
    private readonly outputs: readonly string[],
    private readonly window: number,
    withTokenizer = true,
  ) {
    this.tokenizer = withTokenizer ? BYTES : undefined;
  }

  async complete(messages: readonly ChatMessage[], o: CompleteOptions): Promise<Completion> {
    const prompt = countPrompt(BYTES, messages);
    if (prompt + (o.maxTokens ?? 0) > this.window) {
      this.refusals++;
      throw contextError(
        'llama.cpp',
        `request (${prompt} tokens) exceeds the available context size (${this.window} tokens)`,
      );
    }
    this.sent.push(prompt);
    return {
      text: this.outputs[Math.min(this.i++, this.outputs.length - 1)]!,
      usage: { promptTokens: prompt, completionTokens: 5 },
    };
  }
}

const OUTPUT = 512;

async function run(model: ByteModel, window: number, toolSet: ToolSet = 'full') {
  const probe: Probe = { calls: [] };
  const { engine } = engineWith([echoTool(probe)], { tool_set: toolSet });
  const r = await runLoop({
    engine,
    model,
    task: 'Read the files.',
    contextTokens: window,
    outputTokens: OUTPUT,
    maxSteps: 8,
  });
  return { ...r, probe };
}

/** The step-1 prompt's size in bytes, measured by a run with room to spare. */
async function stepOnePrompt(toolSet: ToolSet = 'full'): Promise<number> {
  const model = new ByteModel([DONE], 1e6);
  await run(model, 1e6, toolSet);
  return model.sent[0]!;
}

const big = (i: number) => call('echo', { text: `${i}`.padEnd(1500, 'x') });

interface Row {
  readonly rule: string;
  /** The window, from the size of the step-1 prompt. */
  readonly window: (stepOne: number) => number;
  readonly outputs: readonly string[];
  readonly tokenizer: boolean;
  /** Prompts the model was sent, and refusals it answered. */
  readonly sent: number;
  readonly refusals: number;
  readonly stop: Stop['kind'];
}

const ROWS: readonly Row[] = [
  {
    rule: 'step 1 one token over (prompt + reserve = window + 1): not sent, context-overflow',
    window: (p) => p + OUTPUT - 1,
    outputs: [DONE],
    tokenizer: true,
    sent: 0,
    refusals: 0,
    stop: 'context-overflow',
  },
  {
    rule: 'step 1 exactly at the window (prompt + reserve = window): sent',
    window: (p) => p + OUTPUT,
    outputs: [DONE],
    tokenizer: true,
    sent: 1,
    refusals: 0,
    stop: 'done',
  },
  {
    rule: 'a history that no longer fits is trimmed and every step is sent, none refused',
    window: (p) => p + OUTPUT + 2200,
    outputs: [big(1), big(2), big(3), big(4), big(5), DONE],
    tokenizer: true,
    sent: 6,
    refusals: 0,
    stop: 'done',
  },
  {
    rule: 'a latest observation larger than the room left is cut and sent',
    window: (p) => p + OUTPUT + 800,
    outputs: [big(1), DONE],
    tokenizer: true,
    sent: 2,
    refusals: 0,
    stop: 'done',
  },
  {
    rule: 'an estimate over the window is sent once (it errs high); the refusal calibrates it and the rebuilt prompt is measured, not sent',
    window: (p) => p + OUTPUT - 1,
    outputs: [DONE],
    tokenizer: false,
    sent: 0,
    refusals: 1,
    stop: 'context-overflow',
  },
];

describe('a prompt is measured against the window before it is sent', () => {
  it.each(ROWS)('$rule', async (row) => {
    const window = row.window(await stepOnePrompt());
    const model = new ByteModel(row.outputs, window, row.tokenizer);
    const r = await run(model, window);
    expect(model.sent).toHaveLength(row.sent);
    expect(model.refusals).toBe(row.refusals);
    expect(r.stop.kind).toBe(row.stop);
    for (const prompt of model.sent) expect(prompt + OUTPUT).toBeLessThanOrEqual(window);
    if (r.stop.kind === 'context-overflow') expect(failureKind(false, r.stop, r.steps)).toBe('context-overflow');
  });
});

describe('the stop for a prompt that cannot fit', () => {
  it('names the counts, says nothing was sent, and what would help (never "Run again")', async () => {
    const p = await stepOnePrompt();
    const window = p + OUTPUT - 1;
    const r = await run(new ByteModel([DONE], window), window);
    expect(r.steps).toHaveLength(0);
    const text = stopText(r.stop);
    const n = (x: number) => x.toLocaleString('en-US');
    expect(text).toContain('so it was not sent');
    expect(text).toContain(`it needs ${n(p)} tokens (counted with the model's tokenizer: system prompt `);
    expect(text).toContain(
      `and ${n(OUTPUT)} more are kept for the reply, ${n(p + OUTPUT)} in all for a window of ${n(window)} tokens`,
    );
    expect(text).toMatch(/a larger context window .*--context/);
    expect(text).toMatch(/the small tool set/);
    expect(text).toMatch(/another model/);
    expect(text).not.toMatch(/Run again/i);
  });

  it('the parts it names add up to the prompt it counted', async () => {
    const p = await stepOnePrompt();
    const r = await run(new ByteModel([DONE], 1000), 1000);
    const m = /system prompt ([\d,]+), tool cards ([\d,]+), task ([\d,]+)\)/.exec(stopText(r.stop))!;
    expect(m.slice(1).reduce((a, x) => a + Number(x.replace(/,/g, '')), 0)).toBe(p);
  });

  it('after a refusal, the rebuilt prompt that still does not fit names the refusal', async () => {
    const window = (await stepOnePrompt()) + OUTPUT - 1;
    const r = await run(new ByteModel([DONE], window, false), window);
    expect(stopText(r.stop)).toMatch(/refused this step's first prompt \(llama\.cpp refused the prompt/);
  });

  it('a refusal that names no sizes leaves the count an estimate: the rebuilt prompt is sent, and refused again ends the run', async () => {
    const refusing: Model = {
      id: 'test:refusing',
      family: 'test',
      complete: async () => {
        throw contextError('node-llama-cpp', 'Failed to compress chat history for context shift');
      },
    };
    const { engine } = engineWith([echoTool({ calls: [] })]);
    const r = await runLoop({ engine, model: refusing, task: 't', contextTokens: 4096, outputTokens: OUTPUT });
    expect(r.stop.kind).toBe('context-overflow');
    expect(stopText(r.stop)).toMatch(/even rebuilt within 3072 tokens after a refusal at 4096/);
  });

  it('with the small tool set already in use, it does not suggest it', async () => {
    const window = (await stepOnePrompt('small')) + OUTPUT - 1;
    const r = await run(new ByteModel([DONE], window), window, 'small');
    expect(r.stop.kind).toBe('context-overflow');
    expect(stopText(r.stop)).not.toMatch(/small tool set/);
  });

  it('a later step whose fixed part no longer fits ends the run there, after the steps that were sent', async () => {
    // Step 2's latest call is a long one: even with its observation cut to nothing and its call shortened, it does not fit.
    const p = await stepOnePrompt();
    const window = p + OUTPUT + 40;
    const model = new ByteModel([big(1), DONE], window);
    const r = await run(model, window);
    expect(model.sent).toEqual([p]);
    expect(r.steps).toHaveLength(1);
    expect(r.stop.kind).toBe('context-overflow');
    expect(stopText(r.stop)).toMatch(/latest step [\d,]+, with the history trimmed as far as it goes/);
  });
});
