import { describe, expect, it } from 'vitest';
import {
  buildContext as build,
  elisionText,
  TRIM_TO,
  trimOf,
  type PromptParts,
  type Trim,
  type Turn,
} from './context.ts';
import type { TokenCounter } from './model.ts';
import { countPrompt } from './tokens.ts';

/** Characters/4 with 4 tokens a message: round numbers for the breakdown. */
const CHARS4: TokenCounter = {
  counting: 'estimated',
  text: (s) => Math.ceil(s.length / 4),
  perMessage: 4,
  perPrompt: 0,
};
const buildContext = (
  parts: PromptParts,
  turns: readonly Turn[],
  window: number,
  output: number,
  previous?: Trim,
  trimTo?: number,
) => build(parts, turns, window, output, CHARS4, previous, trimTo);
const promptTokens = (m: Parameters<typeof countPrompt>[1]) => countPrompt(CHARS4, m);

const PARTS: PromptParts = { system: 's'.repeat(800), tools: 't'.repeat(400), task: 'Task: fix it.' };
const turn = (index: number, obsChars: number, callChars = 40): Turn => ({
  index,
  call: `{"tool":"x","n":${index}}`.padEnd(callChars, ' '),
  observation: `${index}:`.padEnd(obsChars, 'o'),
});

describe('buildContext', () => {
  it.each([10, 30, 60])(
    'a latest observation cut to fit leaves room for the note that %i older steps were omitted',
    (older) => {
      const turns = [...Array.from({ length: older }, (_, i) => turn(i + 1, 400)), turn(older + 1, 40_000)];
      const window = 1200;
      const { messages, budget } = buildContext(PARTS, turns, window, 256);
      expect(budget.observationCut).toBe(true);
      expect(budget.omitted.length).toBe(older);
      expect(promptTokens(messages) + 256).toBeLessThanOrEqual(window);
    },
  );

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
      counting: 'estimated',
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

describe('cache-friendly trimming', () => {
  it('keeps the previous trim while the history fits, so the prompt only grows at its end', () => {
    const turns = Array.from({ length: 30 }, (_, i) => turn(i + 1, 1200));
    let previous: Trim | undefined;
    let prefixKept = 0;
    let moves = 0;
    let before: string[] = [];
    for (let n = 1; n <= turns.length; n++) {
      const { messages, budget } = buildContext(PARTS, turns.slice(0, n), 4096, 512, previous);
      expect(promptTokens(messages)).toBeLessThanOrEqual(4096 - 512);
      const now = messages.map((m) => m.content);
      // All but the last two messages of the previous prompt (the latest step, maybe cut) reappear unchanged.
      const stable = before.slice(0, -2).every((c, i) => now[i] === c);
      if (stable) prefixKept++;
      else moves++;
      const trim = trimOf(budget);
      if (previous) {
        expect(trim.elidedThrough).toBeGreaterThanOrEqual(previous.elidedThrough);
        expect(trim.omittedThrough).toBeGreaterThanOrEqual(previous.omittedThrough);
      }
      previous = trim;
      before = now;
    }
    // Each move frees room for several later steps.
    expect(moves).toBeGreaterThan(0);
    expect(prefixKept).toBeGreaterThanOrEqual(3 * moves);
  });

  it('trimTo 1 trims only until the history fits: the boundary moves at almost every step once the window is full', () => {
    const turns = Array.from({ length: 30 }, (_, i) => turn(i + 1, 1200));
    const moves = (trimTo?: number) => {
      let previous: Trim | undefined;
      let n = 0;
      for (let k = 1; k <= turns.length; k++) {
        const { budget } = buildContext(PARTS, turns.slice(0, k), 4096, 512, previous, trimTo);
        const trim = trimOf(budget);
        if (previous && trim.elidedThrough !== previous.elidedThrough) n++;
        previous = trim;
      }
      return n;
    };
    expect(moves(1)).toBeGreaterThan(2 * moves());
  });

  it('when it must trim, trims the history to at most TRIM_TO of its room', () => {
    const turns = Array.from({ length: 8 }, (_, i) => turn(i + 1, 1600));
    const { budget } = buildContext(PARTS, turns, 4096, 512);
    const room = 4096 - 512 - budget.system - budget.tools - budget.task - budget.observation;
    expect(budget.history).toBeLessThanOrEqual(Math.floor(room * TRIM_TO) + 8);
  });
});
