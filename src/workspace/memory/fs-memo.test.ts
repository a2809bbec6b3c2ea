import { describe, expect, it, vi } from 'vitest';
import { InMemoryFs } from 'just-bash';
import { MemoryWorkspace } from './memory-workspace.ts';
import { FsMemo } from './fs-memo.ts';

/** Changes made straight to the InMemoryFs, as the shell makes them, after the workspace listed and stat'ed the tree. */
const CHANGES: ReadonlyArray<{
  name: string;
  change: (fs: InMemoryFs) => Promise<void>;
  list: string[];
  stat: [string, string | null];
}> = [
  {
    name: 'a new file',
    change: (fs) => fs.writeFile('/ws/d/new.txt', 'n'),
    list: ['a.txt', 'new.txt', 'sub'],
    stat: ['d/new.txt', 'file'],
  },
  { name: 'a removed file', change: (fs) => fs.rm('/ws/d/a.txt'), list: ['sub'], stat: ['d/a.txt', null] },
  {
    name: 'a renamed file',
    change: (fs) => fs.mv('/ws/d/a.txt', '/ws/d/b.txt'),
    list: ['b.txt', 'sub'],
    stat: ['d/a.txt', null],
  },
  {
    name: 'a file replaced by a directory',
    change: async (fs) => (await fs.rm('/ws/d/a.txt'), await fs.mkdir('/ws/d/a.txt')),
    list: ['a.txt', 'sub'],
    stat: ['d/a.txt', 'dir'],
  },
  {
    name: 'a new symlink',
    change: (fs) => fs.symlink('a.txt', '/ws/d/link'),
    list: ['a.txt', 'link', 'sub'],
    stat: ['d/link', 'symlink'],
  },
  {
    name: 'a removed directory',
    change: (fs) => fs.rm('/ws/d/sub', { recursive: true }),
    list: ['a.txt'],
    stat: ['d/sub/c.txt', null],
  },
];

describe('MemoryWorkspace sees changes made straight to its filesystem', () => {
  it.each(CHANGES)('$name', async ({ change, list, stat }) => {
    const fs = new InMemoryFs();
    const ws = new MemoryWorkspace(fs);
    await ws.writeFile('d/a.txt', new TextEncoder().encode('a'));
    await ws.writeFile('d/sub/c.txt', new TextEncoder().encode('c'));
    await ws.readdir('d');
    await ws.lstat(stat[0]);
    await change(fs);
    expect((await ws.readdir('d')).map((e) => e.name)).toEqual(list);
    expect((await ws.lstat(stat[0]))?.type ?? null).toBe(stat[1]);
  });

  it('a file grown by the shell reports its new size', async () => {
    const fs = new InMemoryFs();
    const ws = new MemoryWorkspace(fs);
    await ws.writeFile('f.txt', new TextEncoder().encode('ab'));
    expect((await ws.lstat('f.txt'))?.size).toBe(2);
    await fs.appendFile('/ws/f.txt', 'cd');
    expect((await ws.lstat('f.txt'))?.size).toBe(4);
  });
});

describe('MemoryWorkspace checks a path’s ancestors once per tree version, not once per call', () => {
  it('a walk down a tree 600 directories deep asks about each ancestor a bounded number of times', async () => {
    const DEPTH = 600;
    const ws = new MemoryWorkspace();
    const dirs = Array.from({ length: DEPTH }, (_, i) => Array.from({ length: i + 1 }, () => 'd').join('/'));
    await ws.writeFile(`${dirs[DEPTH - 1]}/f`, new TextEncoder().encode('x'));
    const asked = vi.spyOn(FsMemo.prototype, 'isDir');
    // What a scan does at each level: list the directory, then stat and read what is in it.
    for (const dir of ['', ...dirs]) {
      for (const e of await ws.readdir(dir)) await ws.lstat(dir === '' ? e.name : `${dir}/${e.name}`);
    }
    expect(await ws.readFile(`${dirs[DEPTH - 1]}/f`)).toEqual(new TextEncoder().encode('x'));
    // Each call checks at most the one ancestor not yet known (about 2 per level); checking the
    // whole chain every time would take about DEPTH² (360,000).
    expect(asked.mock.calls.length).toBeLessThanOrEqual(3 * DEPTH);
    asked.mockRestore();
  });

  it('still refuses a path through a file after the chain above it was checked', async () => {
    const ws = new MemoryWorkspace();
    await ws.writeFile('a/b/c.txt', new TextEncoder().encode('x'));
    expect(await ws.lstat('a/b/c.txt')).toMatchObject({ type: 'file' });
    await expect(ws.readdir('a/b/c.txt/x')).rejects.toThrow('ENOTDIR: a/b/c.txt is not a directory');
    await ws.remove('a/b');
    await ws.writeFile('a/b', new TextEncoder().encode('now a file'));
    await expect(ws.readFile('a/b/c.txt')).rejects.toThrow('ENOTDIR: a/b is not a directory');
  });
});
