/**
 * The per-step captures behind time travel, on a real MemoryWorkspace changed directly (as a
 * shell command would change it, with no tool reporting the change): created, modified,
 * deleted and binary files, and unchanged texts stored once.
 */
import { describe, expect, it } from 'vitest';
import { encodeText } from '../engine/text.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { RunHistory } from './run-history.ts';
import { VIEW_MAX_BYTES } from './workspace-view.ts';

async function workspace(files: Record<string, string | Uint8Array>): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  for (const [path, content] of Object.entries(files))
    await ws.writeFile(path, typeof content === 'string' ? encodeText(content) : content);
  return ws;
}

describe('RunHistory', () => {
  it('measures each step’s change on the workspace itself', async () => {
    const ws = await workspace({ 'a.js': 'a1', 'keep.js': 'k', 'old.js': 'o', 'img.bin': new Uint8Array([1, 0, 2]) });
    const history = new RunHistory();
    expect(await history.capture(ws)).toBe(0);
    await ws.writeFile('a.js', encodeText('a2'));
    await ws.writeFile('new/b.js', encodeText('b'));
    await ws.remove('old.js');
    await ws.writeFile('img.bin', new Uint8Array([1, 0, 3, 4]));
    expect(await history.capture(ws)).toBe(1);
    expect(history.changes(1)).toEqual([
      { path: 'a.js', before: 'a1', after: 'a2' },
      { path: 'img.bin', before: '(binary file, 3 bytes)', after: '(binary file, 4 bytes)' },
      { path: 'new/b.js', before: null, after: 'b' },
      { path: 'old.js', before: 'o', after: null },
    ]);
    expect(history.changes(0)).toEqual([]);
    expect(history.fileCount(0)).toBe(4);
    expect(history.fileCount(1)).toBe(4);
  });

  it('a step that changed nothing has no change, and unchanged files are the same stored object', async () => {
    const ws = await workspace({ 'a.js': 'a' });
    const history = new RunHistory();
    await history.capture(ws);
    await history.capture(ws);
    expect(history.changes(1)).toEqual([]);
    expect(history.file(1, 'a.js')).toBe(history.file(0, 'a.js'));
  });

  it.each([
    ['a file', 0, 'a.js', { path: 'a.js', size: 1, text: 'a', truncated: false }],
    ['a binary file', 0, 'img.bin', { path: 'img.bin', size: 3, text: null, truncated: false }],
  ])('file(): %s', async (_label, step, path, view) => {
    const ws = await workspace({ 'a.js': 'a', 'img.bin': new Uint8Array([1, 0, 2]), 'd/x.js': 'x' });
    const history = new RunHistory();
    await history.capture(ws);
    expect(history.file(step, path)).toEqual(view);
  });

  it.each([
    ['a directory', 'd', 'd is a directory; pick a file in the tree.'],
    ['a missing file', 'nope.js', 'nope.js did not exist after step 0; pick a step where the tree lists it.'],
  ])('file() of %s throws what the viewer shows', async (_label, path, message) => {
    const ws = await workspace({ 'd/x.js': 'x' });
    const history = new RunHistory();
    await history.capture(ws);
    expect(() => history.file(0, path)).toThrow(message);
  });

  it('a step that was not captured is a programmer error naming the range', async () => {
    const history = new RunHistory();
    await history.capture(await workspace({}));
    expect(() => history.tree(3)).toThrow('run history: no capture for step 3; captured steps are 0..0');
    expect(() => history.tree(0.5)).toThrow(RangeError);
  });
});

describe('RunHistory.textFiles', () => {
  it('gives the text files at a step; binary and partly captured files are left out', async () => {
    const big = 'x'.repeat(VIEW_MAX_BYTES + 1);
    const ws = await workspace({ 'a.js': 'a1', 'img.bin': new Uint8Array([1, 0, 2]), 'big.txt': big });
    const history = new RunHistory();
    await history.capture(ws);
    await ws.writeFile('a.js', encodeText('a2'));
    await ws.writeFile('b.js', encodeText('b'));
    await history.capture(ws);
    expect(history.textFiles(0)).toEqual({ 'a.js': 'a1' });
    expect(history.textFiles(1)).toEqual({ 'a.js': 'a2', 'b.js': 'b' });
    expect(() => history.textFiles(2)).toThrow(/no capture for step 2/);
  });
});
