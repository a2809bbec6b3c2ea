import { describe, expect, it } from 'vitest';
import { buildContext, elisionText, promptTokens, type PromptParts, type Turn } from './context.ts';

const PARTS: PromptParts = { system: 's'.repeat(800), tools: 't'.repeat(400), task: 'Task: fix it.' };
const turn = (index: number, obsChars: number, callChars = 40): Turn => ({
  index,
  call: `{"tool":"x","n":${index}}`.padEnd(callChars, ' '),
  observation: `${index}:`.padEnd(obsChars, 'o'),
});

describe('buildContext', () => {
  it('step 1: system (instructions + tool cards) and the task, nothing else', () => {
    const { messages, budget } = buildContext(PARTS, [], 4096, 512);
    expect(messages).toEqual([
      { role: 'system', content: `${PARTS.system}\n\n${PARTS.tools}` },
      { role: 'user', content: PARTS.task },
    ]);
    expect(budget).toMatchObject({
      window: 4096,
      output: 512,
      system: 205,
      tools: 100,
      task: 8,
      history: 0,
      observation: 0,
      elided: [],
      omitted: [],
      observationCut: false,
      estimated: true,
    });
  });

  it.each([
    ['step 1', []],
    ['three steps that fit', [turn(1, 400), turn(2, 400), turn(3, 400)]],
    ['steps elided to fit', [1, 2, 3, 4, 5, 6].map((i) => turn(i, 2400))],
    ['steps omitted and the latest cut', [1, 2, 3, 4, 5, 6, 7, 8].map((i) => turn(i, 9000))],
  ] as const)('%s: the parts add up to the prompt the model gets', (_name, turns) => {
    const { messages, budget } = buildContext(PARTS, turns, 4096, 512);
    expect(budget.system + budget.tools + budget.task + budget.history + budget.observation).toBe(
      promptTokens(messages),
    );
  });

  it('keeps every step whole while they fit, alternating assistant/user', () => {
    const turns = [turn(1, 400), turn(2, 400), turn(3, 400)];
    const { messages, budget } = buildContext(PARTS, turns, 4096, 512);
    expect(messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
    ]);
    expect(messages.at(-1)!.content).toBe(turns[2]!.observation);
    expect(budget.elided).toEqual([]);
    expect(
      budget.system + budget.tools + budget.task + budget.history + budget.observation + budget.free + budget.output,
    ).toBeLessThanOrEqual(4096 + 16);
  });

  it('elides the oldest observations first, with the stated text, and never the latest', () => {
    const turns = [1, 2, 3, 4, 5, 6].map((i) => turn(i, 2400));
    const { messages, budget } = buildContext(PARTS, turns, 4096, 512);
    expect(budget.elided.length).toBeGreaterThan(0);
    // Elision is monotonic: a contiguous run of the oldest steps.
    expect(budget.elided).toEqual(budget.elided.map((_, i) => budget.elided[0]! + i));
    expect(Math.max(...budget.elided)).toBeLessThan(6);
    for (const i of budget.elided) expect(messages.some((m) => m.content === elisionText(i))).toBe(true);
    expect(elisionText(3)).toBe(
      '[observation of step 3 elided to fit the context window — re-run the tool if you need it]',
    );
    expect(messages.at(-1)!.content).toBe(turns[5]!.observation);
    expect(promptTokens(messages)).toBeLessThanOrEqual(4096 - 512);
  });

  it('omits the oldest steps entirely when even their elided form does not fit, and says so in the task message', () => {
    const turns = Array.from({ length: 60 }, (_, i) => turn(i + 1, 600, 200));
    const { messages, budget } = buildContext(PARTS, turns, 2048, 512);
    expect(budget.omitted[0]).toBe(1);
    const last = budget.omitted.at(-1)!;
    expect(messages[1]!.content).toBe(
      `${PARTS.task}\n\n[steps 1–${last} omitted to fit the context window — their changes are in the files; ws_read to see the current state]`,
    );
    expect(promptTokens(messages)).toBeLessThanOrEqual(2048 - 512);
    // Every step appears exactly once: omitted, elided or whole.
    const whole = 60 - budget.omitted.length - budget.elided.length;
    expect(whole).toBeGreaterThanOrEqual(1);
    expect(budget.elided[0]).toBe(last + 1);
  });

  it('cuts an oversized latest observation head+tail (and shortens a huge latest call)', () => {
    const { messages, budget } = buildContext(PARTS, [turn(1, 20_000, 9_000)], 4096, 512);
    expect(budget.observationCut).toBe(true);
    expect(messages.at(-2)!.content).toMatch(/… \[rest of the call of step 1 elided\]$/);
    expect(messages.at(-1)!.content).toMatch(/^1:o+/);
    expect(messages.at(-1)!.content).toMatch(/\[output truncated: 20000 characters in total/);
    expect(promptTokens(messages)).toBeLessThanOrEqual(4096 - 512);
  });
});
