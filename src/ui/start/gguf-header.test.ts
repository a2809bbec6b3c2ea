/**
 * A GGUF URL or file of one's own on the start screen, against the real worker host (in one
 * process): its header is read (the first bytes only), the screen says what the model was
 * trained on, and its window is offered like a catalog model's — capped by the trained length,
 * picked for the reported memory — while a header that cannot be read leaves the number field.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { makeTestModel, TEST_MODEL_NAME } from '../../../tests/support/gguf/test-model.ts';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { headerText } from './gguf-header.svelte.ts';
import { StartState } from './start-state.svelte.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function loaded(): Promise<StartState> {
  const { client } = connectInProcess(() => createTemplateSession());
  cleanups.push(() => client.dispose());
  const start = new StartState(client);
  await start.load();
  start.modelKind = 'gguf';
  start.gpu = { ...start.gpu!, deviceMemoryGiB: 8 };
  return start;
}

const file = (contextLength: number, name = 'mine.gguf') =>
  new File([makeTestModel({ contextLength }).slice()], name, { lastModified: 1 });
const settingsOf = (s: StartState) => (s.readiness.ok ? s.readiness.config.settings : null);

describe("the header of a GGUF file of one's own", () => {
  it.each([
    [2048, [2048]],
    [8192, [2048, 4096, 8192]],
    [32768, [2048, 4096, 8192, 16384]],
  ])('trained on %i tokens: says so, and offers the windows up to it', async (trained, offered) => {
    const s = await loaded();
    s.gguf.from = 'file';
    s.ggufFile = file(trained);
    s.settings!.contextTokens = 32768;
    expect(s.windowPlan).toBeNull();
    await s.readGgufHeader();
    const read = s.ggufHeader.readFor(s.ggufSourceKey);
    expect(read?.state).toBe('read');
    if (read?.state !== 'read') return;
    expect(headerText(read.facts)).toBe(
      `${TEST_MODEL_NAME} (llama) · trained on ${trained.toLocaleString('en-US')} tokens (llama.context_length)`,
    );
    expect(s.windowPlan?.options.map((o) => o.tokens)).toEqual(offered);
    // A tiny model fits 8 GiB at any window: the largest offered is picked, not the number field's.
    expect(settingsOf(s)?.contextTokens).toBe(offered.at(-1));
    s.pickWindow(2048);
    expect(settingsOf(s)?.contextTokens).toBe(2048);
  });

  it('another file drops the plan until its own header is read, and a late answer for the old one is dropped', async () => {
    const s = await loaded();
    s.gguf.from = 'file';
    s.ggufFile = file(8192, 'a.gguf');
    const first = s.readGgufHeader();
    s.ggufFile = file(2048, 'b.gguf');
    await first;
    expect(s.ggufHeader.readFor(s.ggufSourceKey)).toBeNull();
    expect(s.windowPlan).toBeNull();
    await s.readGgufHeader();
    expect(s.windowPlan?.options.map((o) => o.tokens)).toEqual([2048]);
  });

  it('a header that cannot be read says why and leaves the number field', async () => {
    const s = await loaded();
    s.gguf.from = 'file';
    s.ggufFile = new File(['PK\u0003\u0004 a zip'], 'notes.gguf');
    s.settings!.contextTokens = 6144;
    await s.readGgufHeader();
    const read = s.ggufHeader.readFor(s.ggufSourceKey);
    expect(read).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/^notes\.gguf: This is not a GGUF file/),
    });
    expect(s.windowPlan).toBeNull();
    expect(settingsOf(s)?.contextTokens).toBe(6144);
  });

  it('a URL that cannot be reached says so and leaves the number field', async () => {
    const s = await loaded();
    s.gguf.from = 'url';
    s.gguf.url = 'http://127.0.0.1:9/m.gguf';
    await s.readGgufHeader();
    expect(s.ggufHeader.readFor(s.ggufSourceKey)).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/could not be reached from this page/),
    });
    expect(s.windowPlan).toBeNull();
  });
});
