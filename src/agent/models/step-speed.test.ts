import { describe, expect, it } from 'vitest';
import type { Completion, Model } from '../model.ts';
import { speedOf, timedModel, type StepSpeed } from './step-speed.ts';

describe('speedOf', () => {
  it.each<[string, Completion, StepSpeed]>([
    [
      'engine timings win',
      {
        text: '',
        usage: { promptTokens: 10, completionTokens: 5 },
        timings: { promptTokens: 40, cachedTokens: 900, prefillTps: 400, decodeTps: 12 },
      },
      { ttftMs: 100, elapsedMs: 600, prefillTps: 400, decodeTps: 12, cachedTokens: 900, source: 'engine' },
    ],
    [
      'usage and the clock otherwise',
      { text: '', usage: { promptTokens: 50, completionTokens: 11 } },
      { ttftMs: 100, elapsedMs: 600, prefillTps: 500, decodeTps: 20, source: 'clock' },
    ],
    ['no usage: times only', { text: '' }, { ttftMs: 100, elapsedMs: 600, source: 'clock' }],
  ])('%s', (_, c, expected) => expect(speedOf(c, 1000, 1100, 1600)).toEqual(expected));
});

describe('timedModel', () => {
  it('passes tokens through and reports the first token and the end', async () => {
    let t = 0;
    const inner: Model = {
      id: 'm',
      family: 'f',
      complete: async (_m, o) => {
        t = 50;
        o.onToken?.('a');
        t = 80;
        o.onToken?.('b');
        t = 200;
        return { text: 'ab' };
      },
    };
    const speeds: StepSpeed[] = [];
    const seen: string[] = [];
    const model = timedModel(
      inner,
      (s) => speeds.push(s),
      () => t,
    );
    expect((await model.complete([], { seed: 0, temperature: 0, onToken: (d) => seen.push(d) })).text).toBe('ab');
    expect(seen).toEqual(['a', 'b']);
    expect(speeds).toEqual([{ ttftMs: 50, elapsedMs: 200, source: 'clock' }]);
  });

  it('keeps what the loop reads of the model: id, family, window and the tokenizer the budget counts with', () => {
    const tokenizer = { counting: 'counted' as const, text: (s: string) => s.length, perMessage: 3, perPrompt: 2 };
    const inner: Model = { id: 'm', family: 'f', contextWindow: 2048, tokenizer, complete: async () => ({ text: '' }) };
    const model = timedModel(inner, () => {});
    expect(model).toMatchObject({ id: 'm', family: 'f', contextWindow: 2048 });
    expect(model.tokenizer).toBe(tokenizer);
  });
});
