/**
 * The Workspace contract: one suite every backend must pass, so the engine behaves the same
 * over memory, Node fs and anything that comes later. `workspaceContract` registers vitest
 * tests for a factory; each test gets a fresh, empty workspace. A backend without symlinks
 * (WebContainer) runs it with `{ symlinks: false }`: it must say so, and the rows that make
 * links are left out of its suite (its own tests say what it does with links it finds).
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { isWorkspaceError, type Workspace, type WorkspaceErrorCode } from '../../src/engine/workspace.ts';

/** What the contract checks of an lstat: its type and size (mtimeMs is optional, given by backends that know it). */
function kind(st: { type: string; size: number } | null): { type: string; size: number } | null {
  return st && { type: st.type, size: st.size };
}

/** A backend under test: the Workspace plus the seeding helper both backends offer. */
export type ContractWorkspace = Workspace & { symlink(target: string, path: string): Promise<void> };

const enc = new TextEncoder();
const dec = new TextDecoder();
const bytes = (s: string): Uint8Array => enc.encode(s);
const text = async (ws: Workspace, path: string): Promise<string> => dec.decode(await ws.readFile(path));

/** Resolves to the WorkspaceError code the call failed with, or fails the test when it did not throw one. */
async function codeOf(p: Promise<unknown>): Promise<WorkspaceErrorCode> {
  try {
    await p;
  } catch (e) {
    if (isWorkspaceError(e)) return e.code;
    throw new Error(`expected a WorkspaceError, got ${String(e)}`, { cause: e });
  }
  throw new Error('expected the call to fail, it succeeded');
}

/** What a backend under the contract supports; symlinks by default. */
export interface ContractOptions {
  readonly symlinks: false;
}

export function workspaceContract(name: string, make: () => Promise<ContractWorkspace>): void;
export function workspaceContract(name: string, make: () => Promise<Workspace>, options: ContractOptions): void;
export function workspaceContract(name: string, make: () => Promise<Workspace>, options?: ContractOptions): void {
  const symlinks = options?.symlinks ?? true;
  describe(`Workspace contract: ${name}${symlinks ? '' : ' (no symlinks)'}`, () => {
    // Only the rows under `if (symlinks)` call `symlink`, so only symlink backends need it.
    let ws: ContractWorkspace;
    beforeEach(async () => {
      ws = (await make()) as ContractWorkspace;
      // The fixture every test starts from.
      await ws.writeFile('a.txt', bytes('alpha\n'));
      await ws.writeFile('src/b.js', bytes('const b = 1;\n'));
      await ws.writeFile('src/deep/c.py', bytes('c = 3\n'));
    });

    it(`describes itself: root is absolute, symlinks ${symlinks ? '' : 'not '}supported, root is a directory`, async () => {
      expect(ws.root.startsWith('/')).toBe(true);
      expect(ws.supportsSymlinks).toBe(symlinks);
      expect(kind(await ws.lstat(''))).toEqual({ type: 'dir', size: 0 });
    });

    describe('read and write', () => {
      it('round-trips text and overwrites in place', async () => {
        expect(await text(ws, 'a.txt')).toBe('alpha\n');
        await ws.writeFile('a.txt', bytes('beta'));
        expect(await text(ws, 'a.txt')).toBe('beta');
      });

      it('creates missing parent directories on write', async () => {
        await ws.writeFile('x/y/z/new.md', bytes('# new\n'));
        expect(kind(await ws.lstat('x/y'))).toEqual({ type: 'dir', size: 0 });
        expect(await text(ws, 'x/y/z/new.md')).toBe('# new\n');
      });

      it('round-trips every byte value and invalid UTF-8 unchanged', async () => {
        const data = new Uint8Array(512);
        for (let i = 0; i < data.length; i++) data[i] = i % 256;
        data.set([0xc3, 0x28, 0xff, 0xfe, 0x00], 100);
        await ws.writeFile('bin/blob.dat', data);
        const back = await ws.readFile('bin/blob.dat');
        expect(back).toBeInstanceOf(Uint8Array);
        expect(Array.from(back)).toEqual(Array.from(data));
      });

      it('an overwrite leaves exactly the new bytes, shorter, longer or empty', async () => {
        for (const size of [100_000, 10, 0, 70_000, 69_999, 3]) {
          const data = Uint8Array.from({ length: size }, (_, i) => 97 + ((i * 7 + size) % 26));
          await ws.writeFile('sizes.txt', data);
          expect(Buffer.from(await ws.readFile('sizes.txt')).equals(Buffer.from(data))).toBe(true);
          expect(kind(await ws.lstat('sizes.txt'))).toEqual({ type: 'file', size });
        }
      });

      it('writes and reads an empty file', async () => {
        await ws.writeFile('empty', new Uint8Array(0));
        expect((await ws.readFile('empty')).length).toBe(0);
        expect(kind(await ws.lstat('empty'))).toEqual({ type: 'file', size: 0 });
      });
    });

    describe('mkdir, readdir and lstat', () => {
      it('mkdir creates parents and is idempotent on a directory', async () => {
        await ws.mkdir('m/n/o');
        await ws.mkdir('m/n/o');
        await ws.mkdir('');
        expect(await ws.readdir('m/n/o')).toEqual([]);
      });

      it('readdir lists names sorted by code unit, with types', async () => {
        for (const n of ['b', 'B', 'a', '_', '10', '9']) await ws.writeFile(`sorted/${n}`, bytes(n));
        await ws.mkdir('sorted/dir');
        const got = await ws.readdir('sorted');
        expect(got.map((e) => e.name)).toEqual(['10', '9', 'B', '_', 'a', 'b', 'dir']);
        expect(got.find((e) => e.name === 'dir')?.type).toBe('dir');
        expect(got.find((e) => e.name === 'a')?.type).toBe('file');
      });

      it('readdir of the root shows the top level', async () => {
        expect(await ws.readdir('')).toEqual([
          { name: 'a.txt', type: 'file' },
          { name: 'src', type: 'dir' },
        ]);
      });

      it('lstat reports byte sizes, 0 for directories, null when nothing is there', async () => {
        await ws.writeFile('utf8.txt', bytes('é€'));
        expect(kind(await ws.lstat('utf8.txt'))).toEqual({ type: 'file', size: 5 });
        expect(kind(await ws.lstat('src'))).toEqual({ type: 'dir', size: 0 });
        expect(await ws.lstat('missing')).toBeNull();
        expect(await ws.lstat('missing/deeper')).toBeNull();
        expect(await ws.lstat('a.txt/under-a-file')).toBeNull();
      });
    });

    describe('rename', () => {
      it('moves a file and creates the parents of the destination', async () => {
        await ws.rename('a.txt', 'moved/here/a2.txt');
        expect(await ws.lstat('a.txt')).toBeNull();
        expect(await text(ws, 'moved/here/a2.txt')).toBe('alpha\n');
      });

      it('moves a directory tree with its contents', async () => {
        await ws.rename('src', 'lib');
        expect(await text(ws, 'lib/deep/c.py')).toBe('c = 3\n');
        expect(await ws.lstat('src')).toBeNull();
      });

      it('refuses to replace an existing destination (EEXIST) and changes nothing', async () => {
        expect(await codeOf(ws.rename('a.txt', 'src/b.js'))).toBe('EEXIST');
        expect(await codeOf(ws.rename('a.txt', 'src'))).toBe('EEXIST');
        expect(await text(ws, 'a.txt')).toBe('alpha\n');
        expect(await text(ws, 'src/b.js')).toBe('const b = 1;\n');
      });

      if (symlinks)
        it('moves a symlink itself, not its target', async () => {
          await ws.symlink('a.txt', 'link');
          await ws.rename('link', 'links/link2');
          expect(await ws.readlink('links/link2')).toBe('a.txt');
          expect(await text(ws, 'a.txt')).toBe('alpha\n');
        });
    });

    describe('remove', () => {
      it('removes a file', async () => {
        await ws.remove('a.txt');
        expect(await ws.lstat('a.txt')).toBeNull();
      });

      it('removes a directory tree', async () => {
        await ws.remove('src');
        expect(await ws.lstat('src')).toBeNull();
        expect(await ws.lstat('src/deep/c.py')).toBeNull();
        expect((await ws.readdir('')).map((e) => e.name)).toEqual(['a.txt']);
      });

      if (symlinks)
        it('removes a symlink, not its target', async () => {
          await ws.symlink('src', 'dirlink');
          await ws.symlink('a.txt', 'filelink');
          await ws.remove('dirlink');
          await ws.remove('filelink');
          expect(await ws.lstat('dirlink')).toBeNull();
          expect(await ws.lstat('filelink')).toBeNull();
          expect(await text(ws, 'src/deep/c.py')).toBe('c = 3\n');
          expect(await text(ws, 'a.txt')).toBe('alpha\n');
        });
    });

    if (symlinks)
      describe('symlinks', () => {
        it('lstat sees the link, readlink returns its text as stored, reads follow it', async () => {
          await ws.symlink('src/b.js', 'rel-link');
          await ws.symlink(`${ws.root}/a.txt`, 'abs-link');
          expect(kind(await ws.lstat('rel-link'))).toEqual({ type: 'symlink', size: 'src/b.js'.length });
          expect(await ws.readlink('rel-link')).toBe('src/b.js');
          expect(await ws.readlink('abs-link')).toBe(`${ws.root}/a.txt`);
          expect(await text(ws, 'rel-link')).toBe('const b = 1;\n');
          expect(await text(ws, 'abs-link')).toBe('alpha\n');
        });

        it('readdir reports a link as a symlink, whatever it points at', async () => {
          await ws.symlink('deep', 'src/to-dir');
          const entries = await ws.readdir('src');
          expect(entries).toContainEqual({ name: 'to-dir', type: 'symlink' });
        });

        it('a dangling link is still a link: lstat and readlink work, reading it is ENOENT', async () => {
          await ws.symlink('nowhere.txt', 'dangling');
          expect((await ws.lstat('dangling'))?.type).toBe('symlink');
          expect(await ws.readlink('dangling')).toBe('nowhere.txt');
          expect(await codeOf(ws.readFile('dangling'))).toBe('ENOENT');
        });

        it('readlink is null for a file, a directory and a missing path', async () => {
          expect(await ws.readlink('a.txt')).toBeNull();
          expect(await ws.readlink('src')).toBeNull();
          expect(await ws.readlink('missing')).toBeNull();
        });

        it('intermediate directory links are followed', async () => {
          await ws.symlink('src/deep', 'deep-link');
          expect(await text(ws, 'deep-link/c.py')).toBe('c = 3\n');
        });
      });

    describe('error codes', () => {
      const rows: ReadonlyArray<readonly [string, (w: Workspace) => Promise<unknown>, WorkspaceErrorCode]> = [
        ['readFile of a missing file', (w) => w.readFile('missing.txt'), 'ENOENT'],
        ['readFile under a missing directory', (w) => w.readFile('nope/x.txt'), 'ENOENT'],
        ['readFile of a directory', (w) => w.readFile('src'), 'EISDIR'],
        ['readFile under a file', (w) => w.readFile('a.txt/x'), 'ENOTDIR'],
        ['writeFile onto a directory', (w) => w.writeFile('src', bytes('x')), 'EISDIR'],
        ['writeFile under a file', (w) => w.writeFile('a.txt/x', bytes('x')), 'ENOTDIR'],
        ['writeFile two levels under a file', (w) => w.writeFile('a.txt/x/y', bytes('x')), 'ENOTDIR'],
        ['mkdir where a file is', (w) => w.mkdir('a.txt'), 'ENOTDIR'],
        ['mkdir under a file', (w) => w.mkdir('a.txt/sub'), 'ENOTDIR'],
        ['readdir of a missing directory', (w) => w.readdir('missing'), 'ENOENT'],
        ['readdir of a file', (w) => w.readdir('a.txt'), 'ENOTDIR'],
        ['readdir under a file', (w) => w.readdir('a.txt/x'), 'ENOTDIR'],
        ['rename to a path under a file', (w) => w.rename('src/b.js', 'a.txt/b.js'), 'ENOTDIR'],
        ['rename of a missing source', (w) => w.rename('missing', 'elsewhere'), 'ENOENT'],
        ['rename onto an existing file', (w) => w.rename('src/b.js', 'a.txt'), 'EEXIST'],
        ['remove of a missing path', (w) => w.remove('missing'), 'ENOENT'],
        ['remove of the root', (w) => w.remove(''), 'EINVAL'],
      ];
      it.each(rows.map(([label, op, code]) => ({ label, op, code })))('$label → $code', async ({ op, code }) => {
        expect(await codeOf(op(ws))).toBe(code);
      });

      it('errors carry the relative path they were given', async () => {
        try {
          await ws.readFile('src/missing.js');
          throw new Error('expected ENOENT');
        } catch (e) {
          expect(isWorkspaceError(e, 'ENOENT')).toBe(true);
          expect((e as { path: string }).path).toBe('src/missing.js');
        }
      });
    });
  });
}
