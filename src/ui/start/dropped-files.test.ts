/** Reading dropped files: the common folder stripped, dependencies and binaries left out, the limits held. */
import { describe, expect, it } from 'vitest';
import { looksBinary, readDropped, stripCommonRoot, type ReadableFile } from './dropped-files.ts';

const file = (path: string, content: string | Uint8Array): ReadableFile => {
  const bytes = typeof content === 'string' ? new TextEncoder().encode(content) : content;
  return { path, size: bytes.length, read: async () => bytes.slice().buffer };
};

describe('stripCommonRoot', () => {
  it.each([
    ['one folder around everything', ['app/a.js', 'app/src/b.js'], ['a.js', 'src/b.js']],
    ['two folders', ['a/x.js', 'b/y.js'], ['a/x.js', 'b/y.js']],
    ['a file at the top', ['a.js', 'src/b.js'], ['a.js', 'src/b.js']],
    ['single files', ['a.js', 'b.js'], ['a.js', 'b.js']],
    ['nothing', [], []],
  ])('%s', (_label, paths, stripped) => {
    expect(stripCommonRoot(paths)).toEqual(stripped);
  });
});

describe('looksBinary', () => {
  it.each([
    ['text', new TextEncoder().encode('const a = 1;\n'), false],
    ['a NUL byte', new Uint8Array([0x89, 0x50, 0, 0x47]), true],
    ['empty', new Uint8Array(), false],
  ])('%s → %s', (_label, bytes, binary) => expect(looksBinary(bytes)).toBe(binary));
});

describe('readDropped', () => {
  const limits = { maxFiles: 3, maxBytes: 100 };

  it('reads text files under paths relative to the dropped folder', async () => {
    const r = await readDropped([file('proj/src/a.js', 'a'), file('proj/README.md', '# r')], limits);
    expect(r.files).toEqual([
      { path: 'src/a.js', text: 'a' },
      { path: 'README.md', text: '# r' },
    ]);
    expect(r.skipped).toEqual([]);
  });

  it.each([
    [
      'dependency folders',
      [file('p/a.js', 'a'), file('p/node_modules/x/i.js', 'x'), file('p/.git/HEAD', 'ref')],
      ['a.js'],
      [['2 files', /inside node_modules, \.git/]],
    ],
    [
      'binary files',
      [file('a.js', 'a'), file('logo.png', new Uint8Array([1, 0, 2]))],
      ['a.js'],
      [['logo.png', /a binary file/]],
    ],
    [
      'more files than the limit',
      [file('a', '1'), file('b', '2'), file('c', '3'), file('d', '4')],
      ['a', 'b', 'c'],
      [['d', /over the limit of 3 files/]],
    ],
    [
      'more text than the limit',
      [file('a', 'x'.repeat(60)), file('b', 'y'.repeat(60))],
      ['a'],
      [['b', /over the limit of 0 KB in total/]],
    ],
  ])('leaves out %s, saying why', async (_label, input, kept, skipped) => {
    const r = await readDropped(input, limits);
    expect(r.files.map((f) => f.path)).toEqual(kept);
    expect(r.skipped.map((s) => s.path)).toEqual(skipped.map((s) => s[0]));
    r.skipped.forEach((s, i) => expect(s.reason).toMatch(skipped[i]![1] as RegExp));
  });
});
