/**
 * NodeWorkspace.readUpTo, ws_grep's one-call read: the bytes of a regular file of at most
 * `maxBytes`, `{ tooLarge }` without reading one of more, and null for everything that is not a
 * regular file — never following a final symlink and never waiting on a FIFO. And it answers
 * as `lstat` + `readFile` do on every kind of entry (the engine's fallback for other backends).
 */
import { mkdirSync, mkdtempSync, realpathSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecialFiles } from '../../../tests/support/special-files.ts';
import { searchedFileState } from '../../engine/file-io.ts';
import { NodeWorkspace } from './node-workspace.ts';

let dir: string;
let ws: NodeWorkspace;
let special: { remove(): void } | undefined;
const bytes = (n: number, seed = 7) => Uint8Array.from({ length: n }, (_, i) => 32 + ((i * seed) % 90));

beforeAll(async () => {
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'slm-readupto-')));
  writeFileSync(join(dir, 'small.txt'), 'needle\n');
  writeFileSync(join(dir, 'empty.txt'), '');
  writeFileSync(join(dir, 'big.txt'), bytes(300 * 1024)); // past the reused 256 KiB buffer
  mkdirSync(join(dir, 'sub'));
  symlinkSync('small.txt', join(dir, 'link'));
  symlinkSync('/etc/hostname', join(dir, 'outside'));
  special = await makeSpecialFiles(dir);
  ws = await NodeWorkspace.open(dir);
});

afterAll(() => special?.remove());

describe('NodeWorkspace.readUpTo', () => {
  it.each([
    ['small.txt', 100, new TextEncoder().encode('needle\n')],
    ['small.txt', 7, new TextEncoder().encode('needle\n')],
    ['empty.txt', 0, new Uint8Array(0)],
    ['big.txt', 1_000_000, bytes(300 * 1024)],
  ])('%s with at most %d bytes: its bytes', async (path, max, want) => {
    const got = await ws.readUpTo(path, max);
    expect(got).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(got as Uint8Array).equals(Buffer.from(want))).toBe(true);
  });

  it.each([
    ['small.txt', 6, 7],
    ['big.txt', 256 * 1024, 300 * 1024],
  ])('%s with at most %d bytes: too large, its size said', async (path, max, size) => {
    expect(await ws.readUpTo(path, max)).toEqual({ tooLarge: size });
  });

  it.each(['missing.txt', 'sub', 'sub/missing', 'small.txt/x', 'link', 'outside', 'pipe', 'sock'])(
    '%s: null (not a regular file), at once',
    async (path) => {
      expect(await ws.readUpTo(path, 1_000_000)).toBeNull();
    },
  );

  it('reads a file whose size says 0 to its end, as procfs files are', async () => {
    const proc = await NodeWorkspace.open('/proc/self');
    const got = await proc.readUpTo('maps', 1_000_000);
    expect(got).toBeInstanceOf(Uint8Array);
    // The map changes as the process runs: the read holds every line of a whole map, not the first page of one.
    const text = new TextDecoder().decode(got as Uint8Array);
    expect((await proc.lstat('maps'))?.size).toBe(0);
    expect(text.length).toBeGreaterThan(4096);
    expect(text.endsWith('\n')).toBe(true);
  });

  it('answers as lstat + readFile do, for files of any size against any cap', async () => {
    const plain = { readFile: ws.readFile.bind(ws), lstat: ws.lstat.bind(ws) } as unknown as NodeWorkspace;
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 300_000 }),
        fc.integer({ min: 0, max: 300_000 }),
        fc.boolean(),
        async (size, max, binary) => {
          const data = bytes(size, 13);
          if (binary && size > 0) data[size >> 1] = 0;
          writeFileSync(join(dir, 'p.bin'), data);
          expect(await searchedFileState(ws, 'p.bin', max)).toEqual(await searchedFileState(plain, 'p.bin', max));
        },
      ),
      { numRuns: 60 },
    );
    for (const path of ['missing.txt', 'sub', 'pipe', 'sock']) {
      const [fast, slow] = [await searchedFileState(ws, path, 100), await searchedFileState(plain, path, 100)];
      // The fallback tells a directory apart; a search skips both alike.
      expect(fast.kind === slow.kind || (fast.kind === 'missing' && slow.kind === 'dir')).toBe(true);
    }
  });
});
