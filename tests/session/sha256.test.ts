/**
 * The incremental SHA-256 against the platform's own (`crypto.subtle`): the same digest for any
 * input cut into any pieces, the standard's test vectors, and lengths around the padding's edges.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Sha256 } from '../../src/session/sha256.ts';

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex');

async function subtle(data: Uint8Array): Promise<string> {
  return hex(new Uint8Array(await crypto.subtle.digest('SHA-256', data as Uint8Array<ArrayBuffer>)));
}

describe('Sha256', () => {
  it.each([
    ['', 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855'],
    ['abc', 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad'],
    [
      'abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq',
      '248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1',
    ],
  ])('gives the standard vector for %j', (text, digest) => {
    expect(hex(new Sha256().update(new TextEncoder().encode(text)).digest())).toBe(digest);
  });

  it('agrees with crypto.subtle at every length around the padding edges (0..200 bytes)', async () => {
    for (let n = 0; n <= 200; n++) {
      const data = Uint8Array.from({ length: n }, (_, i) => (i * 31 + n) & 0xff);
      expect(hex(new Sha256().update(data).digest()), `length ${n}`).toBe(await subtle(data));
    }
  });

  it('agrees with crypto.subtle however the input is cut into pieces', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.uint8Array({ maxLength: 600 }),
        fc.array(fc.nat({ max: 600 }), { maxLength: 8 }),
        async (data, cuts) => {
          const points = [...new Set(cuts.map((c) => Math.min(c, data.length)))].sort((a, b) => a - b);
          const h = new Sha256();
          let from = 0;
          for (const p of [...points, data.length]) {
            h.update(data.subarray(from, p));
            from = p;
          }
          expect(hex(h.digest())).toBe(await subtle(data));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('hashes a million bytes like crypto.subtle (many blocks, fed in uneven pieces)', async () => {
    const data = Uint8Array.from({ length: 1_000_000 }, (_, i) => (i * 7) & 0xff);
    const h = new Sha256();
    for (let at = 0; at < data.length; at += 65_521) h.update(data.subarray(at, at + 65_521));
    expect(hex(h.digest())).toBe(await subtle(data));
  });

  it('refuses to be used after its digest (a programmer error)', () => {
    const h = new Sha256();
    h.digest();
    expect(() => h.update(new Uint8Array(1))).toThrow(/after digest/);
    expect(() => h.digest()).toThrow(/twice/);
  });
});
