/**
 * A model worker that dies while its model is answering: the completion ends at once with the
 * link's message (what stopped and what to do), rather than waiting for an answer that cannot
 * come; the model keeps what the worker sent with it (its tokenizer), and the next load starts a
 * new worker.
 */
import { describe, expect, it } from 'vitest';
import { isModelError } from '../agent/model.ts';
import type { HostedModel } from '../agent/models/worker-host.ts';
import { inProcessModelPort } from '../../tests/support/model-port.ts';
import { ModelLink, type ModelPort } from './run-models.ts';

/** A link whose workers' models never answer; `crash` fires the latest worker's error event. */
function hangingLink(): { link: ModelLink; crash(message: string): void; spawned(): number } {
  let spawned = 0;
  let fail: (e: Event) => void = () => {};
  const spawn = (): ModelPort => {
    spawned++;
    return inProcessModelPort(
      async (req): Promise<HostedModel> => ({
        id: `gguf:${req.modelId}`,
        family: 'qwen2.5-coder',
        wireTokenizer: {
          vocabulary: { pre: 'qwen2', tokens: ['a', 'b', 'ab'], merges: ['a b'], userDefined: [] },
          perMessage: 5,
          perPrompt: 3,
        },
        complete: () => new Promise(() => {}),
        unload: async () => {},
      }),
      (l) => (fail = l),
    );
  };
  return {
    link: new ModelLink(spawn),
    crash: (message) => fail(Object.assign(new Event('error'), { message })),
    spawned: () => spawned,
  };
}

describe('a model worker that dies mid-answer', () => {
  it('ends the completion with what stopped and what to do; the next load starts a new worker', async () => {
    const { link, crash, spawned } = hangingLink();
    const model = await link.load({ modelId: 'm.gguf' }, () => {});
    expect(model.tokenizer?.counting).toBe('counted');
    expect(model.tokenizer?.text('abab')).toBe(2);
    const answer = model.complete([{ role: 'user', content: 'hi' }], { seed: 1, temperature: 0 });
    crash('Out of memory');
    const failed = await answer.then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(isModelError(failed)).toBe(true);
    expect((failed as Error).message).toBe(
      'The model worker stopped (Out of memory), so the model is gone from this tab; run again to load it in a new worker, or pick a smaller model if it ran out of memory.',
    );
    await link.load({ modelId: 'm.gguf' }, () => {});
    expect(spawned()).toBe(2);
  });
});
