import { describe, expect, it } from 'vitest';
import { seedWorkspace } from '../../tests/support/file-tools.ts';
import type { DirEntry, Workspace } from './workspace.ts';
import { skipDirsFor, SKIP_DIRS, walkTree } from './walk.ts';

const SEED = {
  'b.txt': 'b',
  'a/z.txt': 'z',
  'a/b/c.txt': 'c',
  'node_modules/dep/index.js': 'x',
  '.git/HEAD': 'x',
  'link-in': { link: 'a' },
  'link-out': { link: '/outside' },
};

/** The same backend, except that readdir follows links (reports a symlinked directory as a directory). */
function followingReaddir(inner: Workspace): Workspace {
  const ws: Workspace = Object.create(inner);
  return Object.assign(ws, {
    readdir: async (path: string): Promise<DirEntry[]> =>
      (await inner.readdir(path)).map((e) => (e.type === 'symlink' ? { ...e, type: 'dir' as const } : e)),
  });
}

describe('walkTree', () => {
  it('walks depth-first in name order, lists skipped dirs and links without entering them', async () => {
    const ws = await seedWorkspace(SEED);
    const { entries, truncated } = await walkTree(ws, '');
    expect(truncated).toBe(false);
    expect(entries.map((e) => `${e.path}:${e.type}`)).toEqual([
      '.git:dir',
      'a:dir',
      'a/b:dir',
      'a/b/c.txt:file',
      'a/z.txt:file',
      'b.txt:file',
      'link-in:symlink',
      'link-out:symlink',
      'node_modules:dir',
    ]);
  });

  it('enters node_modules when it is not in the skip set', async () => {
    const ws = await seedWorkspace(SEED);
    const { entries } = await walkTree(ws, '', { skip: new Set(['.git']) });
    expect(entries.map((e) => e.path)).toContain('node_modules/dep/index.js');
    expect(entries.map((e) => e.path)).not.toContain('.git/HEAD');
  });

  it('never descends into a symlink, even when readdir calls it a directory (lstat decides)', async () => {
    const inner = await seedWorkspace(SEED);
    await inner.fs.mkdir('/outside', { recursive: true });
    await inner.fs.writeFile('/outside/secret.txt', 's');
    const ws = followingReaddir(inner);
    expect((await ws.readdir('')).find((e) => e.name === 'link-in')?.type).toBe('dir');
    const { entries } = await walkTree(ws, '');
    expect(entries.find((e) => e.path === 'link-in')?.type).toBe('symlink');
    expect(entries.some((e) => e.path.startsWith('link-in/') || e.path.startsWith('link-out/'))).toBe(false);
  });

  it('starts below the root', async () => {
    const ws = await seedWorkspace(SEED);
    expect((await walkTree(ws, 'a')).entries.map((e) => e.path)).toEqual(['a/b', 'a/b/c.txt', 'a/z.txt']);
  });

  it('stops at maxEntries and says so', async () => {
    const ws = await seedWorkspace(SEED);
    const w = await walkTree(ws, '', { maxEntries: 3 });
    expect(w.entries).toHaveLength(3);
    expect(w.truncated).toBe(true);
  });

  it('treats a missing start as empty', async () => {
    const ws = await seedWorkspace(SEED);
    expect(await walkTree(ws, 'nope')).toEqual({ entries: [], truncated: false });
  });
});

describe('skipDirsFor', () => {
  it.each([
    [undefined, ['node_modules', '.git']],
    ['**/*.js', ['node_modules', '.git']],
    ['node_modules/**', ['.git']],
    ['**/node_modules/dep/*.js', ['.git']],
    ['.git/*', ['node_modules']],
    ['**/.gitignore', ['node_modules', '.git']],
    ['my_node_modules/*', ['node_modules', '.git']],
  ])('%j skips %j', (pattern, expected) => {
    expect([...skipDirsFor(pattern)].sort()).toEqual([...expected].sort());
    expect(SKIP_DIRS.size).toBe(2);
  });
});
