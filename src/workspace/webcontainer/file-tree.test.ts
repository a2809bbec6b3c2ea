/** toFileTree: a flat file map as WebContainer's mount tree, and the paths it refuses. */
import { describe, expect, it } from 'vitest';
import { toFileTree } from './file-tree.ts';

describe('toFileTree', () => {
  it('nests directories and keeps contents as given', () => {
    const bin = new Uint8Array([0, 1, 2]);
    expect(toFileTree({ 'package.json': '{}', 'src/a.js': 'a', 'src/lib/b.js': 'b', 'img/x.bin': bin })).toEqual({
      'package.json': { file: { contents: '{}' } },
      src: {
        directory: { 'a.js': { file: { contents: 'a' } }, lib: { directory: { 'b.js': { file: { contents: 'b' } } } } },
      },
      img: { directory: { 'x.bin': { file: { contents: bin } } } },
    });
    expect(toFileTree({})).toEqual({});
  });

  it.each([
    ['an absolute path', { '/etc/passwd': 'x' }, 'toFileTree: "/etc/passwd" is not a plain relative path'],
    ['a dot-dot segment', { 'a/../b': 'x' }, 'toFileTree: "a/../b" is not a plain relative path'],
    ['an empty segment', { 'a//b': 'x' }, 'toFileTree: "a//b" is not a plain relative path'],
    [
      'a file, then a path through it',
      { a: 'x', 'a/b': 'y' },
      'toFileTree: a is both a file and a directory (needed by a/b)',
    ],
    [
      'a directory, then a file of the same name',
      { 'a/b': 'y', a: 'x' },
      'toFileTree: a is both a file and a directory',
    ],
  ])('throws for %s', (_label, files, message) => {
    expect(() => toFileTree(files)).toThrow(message);
  });
});
