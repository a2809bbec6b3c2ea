/** CappedBytes: what is kept, what is counted, and the marker, one row per case. */
import { describe, expect, it } from 'vitest';
import { CappedBytes } from './capped-bytes.ts';

const enc = new TextEncoder();

function run(maxBytes: number, chunks: readonly string[]): CappedBytes {
  const out = new CappedBytes(maxBytes);
  for (const c of chunks) out.push(enc.encode(c));
  return out;
}

describe('CappedBytes', () => {
  it.each([
    ['under the cap', 10, ['abc', 'def'], 'abcdef', 6, false],
    ['exactly the cap', 6, ['abc', 'def'], 'abcdef', 6, false],
    ['over the cap in one chunk', 4, ['abcdefgh'], 'ab\n… [4 bytes of output omitted] …\ngh', 8, true],
    [
      'over the cap in many small chunks',
      4,
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'],
      'ab\n… [4 bytes of output omitted] …\ngh',
      8,
      true,
    ],
    [
      'an odd cap gives the extra byte to the head',
      5,
      ['abcdefgh'],
      'abc\n… [3 bytes of output omitted] …\ngh',
      8,
      true,
    ],
    ['a cap of 0 keeps nothing but counts', 0, ['abc'], '\n… [3 bytes of output omitted] …\n', 3, true],
    ['a character split between head and tail stays whole', 4, ['a', 'é', 'b'], 'aéb', 4, false],
    [
      'a character cut at the end of the head becomes U+FFFD',
      4,
      ['aé', 'x', 'é'],
      'a\uFFFD\n… [2 bytes of output omitted] …\né',
      6,
      true,
    ],
    [
      'a character cut at the start of the tail becomes U+FFFD',
      2,
      ['aé', 'x', 'é'],
      'a\n… [4 bytes of output omitted] …\n\uFFFD',
      6,
      true,
    ],
  ] as const)('%s', (_label, max, chunks, text, total, truncated) => {
    const out = run(max, chunks);
    expect(out.text()).toBe(text);
    expect(out.totalBytes).toBe(total);
    expect(out.truncated).toBe(truncated);
  });

  it('throws for a cap that is not a non-negative integer', () => {
    expect(() => new CappedBytes(-1)).toThrow('CappedBytes: maxBytes must be a non-negative integer, got -1');
    expect(() => new CappedBytes(1.5)).toThrow(RangeError);
  });
});
