import { describe, expect, it } from 'vitest';
import { makeTestModel, TEST_MODEL_NAME } from '../../../tests/support/gguf/test-model.ts';
import { writeGguf } from '../../../tests/support/gguf/writer.ts';
import { GgufFormatError, metaString, readGgufHeader, trainedContext } from './gguf-header.ts';

const blob = (bytes: Uint8Array) => new Blob([bytes.slice()]);

describe('readGgufHeader', () => {
  it('reads the generated model: name, architecture, context, the whole vocabulary', async () => {
    const h = await readGgufHeader(blob(makeTestModel({ contextLength: 4096 })));
    expect(h.version).toBe(3);
    expect(metaString(h, 'general.name')).toBe(TEST_MODEL_NAME);
    expect(metaString(h, 'general.architecture')).toBe('llama');
    expect(trainedContext(h)).toBe(4096);
    expect((h.meta.get('tokenizer.ggml.tokens') as string[]).slice(0, 3)).toEqual(['<unk>', '<s>', '</s>']);
  });

  it('reads a header larger than the first slice it tries', async () => {
    const tokens = Array.from({ length: 120_000 }, (_, i) => `token-${i}`);
    const bytes = writeGguf(new Map([['tokenizer.ggml.tokens', { kind: 'array', of: 'string', values: tokens }]]), []);
    expect(bytes.length).toBeGreaterThan(2 << 20);
    const h = await readGgufHeader(blob(bytes));
    expect((h.meta.get('tokenizer.ggml.tokens') as string[]).at(-1)).toBe('token-119999');
  });

  it.each([
    ['not GGUF', new TextEncoder().encode('PK\u0003\u0004 a zip file'), /not a GGUF file/],
    ['cut short', makeTestModel().slice(0, 200), /cut short/],
  ])('%s: says why', async (_, bytes, message) => {
    const e = await readGgufHeader(blob(bytes)).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(GgufFormatError);
    expect((e as Error).message).toMatch(message);
  });
});
