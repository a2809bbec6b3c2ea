/**
 * The isomorphic-git fs client over a Workspace: path mapping, the Node-style error code of
 * every failure isomorphic-git switches on, symlink handling, and the read-only client's EROFS.
 */
import { describe, expect, it } from 'vitest';
import { gitFs, workspacePath, type GitFsClient } from './fs-adapter.ts';
import { seedWorkspace, snapshotFs } from '../../../tests/support/file-tools.ts';

const SEED = {
  'a.txt': 'alpha\n',
  'dir/b.txt': 'b\n',
  'empty/': '',
  'link-in': { link: 'a.txt' },
  'link-out': { link: '/etc/passwd' },
  'loop-a': { link: 'loop-b' },
  'loop-b': { link: 'loop-a' },
};

async function client(readOnly: boolean) {
  const ws = await seedWorkspace(SEED);
  return { ws, fs: gitFs(ws, { readOnly }) };
}

/** The error code a call fails with, or 'ok'. */
async function codeOf(op: () => Promise<unknown>): Promise<string> {
  try {
    await op();
    return 'ok';
  } catch (e) {
    return String((e as { code?: unknown }).code);
  }
}

describe('workspacePath', () => {
  it.each([
    ['/', ''],
    ['/.git/HEAD', '.git/HEAD'],
    ['//src/a.js', 'src/a.js'],
    ['/./.git/./index', '.git/index'],
  ])('%s → %j', (gitPath, expected) => {
    expect(workspacePath(gitPath)).toBe(expected);
  });

  it('refuses a .. segment, so no path leaves the root', () => {
    expect(() => workspacePath('/a/../../etc')).toThrow(/EACCES/);
  });
});

describe('gitFs error codes', () => {
  const rows: Array<[string, (fs: GitFsClient) => Promise<unknown>, string]> = [
    ['readFile of a missing file', (fs) => fs.promises.readFile('/nope.txt'), 'ENOENT'],
    ['readFile of a directory', (fs) => fs.promises.readFile('/dir'), 'EISDIR'],
    ['readdir of a file', (fs) => fs.promises.readdir('/a.txt'), 'ENOTDIR'],
    ['readdir of a missing directory', (fs) => fs.promises.readdir('/nope'), 'ENOENT'],
    ['mkdir of an existing directory', (fs) => fs.promises.mkdir('/dir'), 'EEXIST'],
    ['rmdir of a non-empty directory', (fs) => fs.promises.rmdir('/dir'), 'ENOTEMPTY'],
    ['rmdir of a file', (fs) => fs.promises.rmdir('/a.txt'), 'ENOTDIR'],
    ['unlink of a directory', (fs) => fs.promises.unlink('/dir'), 'EISDIR'],
    ['unlink of a missing file', (fs) => fs.promises.unlink('/nope'), 'ENOENT'],
    ['lstat of a missing path', (fs) => fs.promises.lstat('/nope'), 'ENOENT'],
    ['stat through a link that leaves the workspace', (fs) => fs.promises.stat('/link-out'), 'ENOENT'],
    ['stat of a link loop', (fs) => fs.promises.stat('/loop-a'), 'ELOOP'],
    ['readlink of a file', (fs) => fs.promises.readlink('/a.txt'), 'EINVAL'],
    ['readlink of a missing path', (fs) => fs.promises.readlink('/nope'), 'ENOENT'],
    ['symlink (the workspace cannot make links through git)', (fs) => fs.promises.symlink('a.txt', '/l2'), 'ENOSYS'],
  ];
  it.each(rows)('%s → %s', async (_n, op, code) => {
    const { fs } = await client(false);
    expect(await codeOf(() => op(fs))).toBe(code);
  });
});

describe('gitFs reads and writes', () => {
  it('reads bytes, or text with utf8', async () => {
    const { fs } = await client(false);
    expect(await fs.promises.readFile('/a.txt', 'utf8')).toBe('alpha\n');
    expect(await fs.promises.readFile('/a.txt', { encoding: 'utf8' })).toBe('alpha\n');
    expect(await fs.promises.readFile('/a.txt')).toEqual(new TextEncoder().encode('alpha\n'));
  });

  it('stats: modes, sizes and types; stat follows an inside link, lstat does not', async () => {
    const { fs } = await client(false);
    const file = await fs.promises.stat('/a.txt');
    expect([file.mode, file.size, file.isFile(), file.isDirectory()]).toEqual([0o100644, 6, true, false]);
    expect((await fs.promises.lstat('/dir')).mode).toBe(0o40000);
    expect((await fs.promises.lstat('/link-in')).isSymbolicLink()).toBe(true);
    expect((await fs.promises.stat('/link-in')).isFile()).toBe(true);
    expect(await fs.promises.readlink('/link-in')).toBe('a.txt');
  });

  it('writes text and bytes (creating folders), lists, and removes', async () => {
    const { ws, fs } = await client(false);
    await fs.promises.writeFile('/.git/objects/ab/cd', 'x');
    await fs.promises.writeFile('/.git/index', new Uint8Array([1, 2]));
    expect(await fs.promises.readdir('/.git')).toEqual(['index', 'objects']);
    await fs.promises.unlink('/.git/objects/ab/cd');
    await fs.promises.rmdir('/.git/objects/ab');
    expect(await ws.lstat('.git/objects/ab')).toBeNull();
  });
});

describe('a read-only gitFs', () => {
  const writes: Array<[string, (fs: GitFsClient) => Promise<unknown>]> = [
    ['writeFile', (fs) => fs.promises.writeFile('/.git/index', 'x')],
    ['unlink', (fs) => fs.promises.unlink('/a.txt')],
    ['mkdir', (fs) => fs.promises.mkdir('/new')],
    ['rmdir', (fs) => fs.promises.rmdir('/empty')],
    ['symlink', (fs) => fs.promises.symlink('a.txt', '/l2')],
  ];
  it.each(writes)('refuses %s with EROFS and changes nothing', async (_n, op) => {
    const { ws, fs } = await client(true);
    const before = await snapshotFs(ws);
    expect(await codeOf(() => op(fs))).toBe('EROFS');
    expect(await snapshotFs(ws)).toEqual(before);
  });

  it('still reads', async () => {
    const { fs } = await client(true);
    expect(await fs.promises.readFile('/a.txt', 'utf8')).toBe('alpha\n');
  });
});
