/**
 * A process in the WebContainer workspace never changes `.git/` (at any depth) or `.slmcode/`
 * outside `scratch/`, as in the memory workspace (../memory/held-entries.test.ts) and under the
 * Node host's read-only mounts: over the Node-side stand-in WebContainer, `node x.js` that writes
 * `.git/HEAD`, deletes a `.slmcode/` file and creates files under `.git/` leaves both as they
 * were, keeps what it wrote elsewhere, and the result says what was undone in the memory
 * backend's words. As a property: whatever a process does to a drawn tree, the protected part
 * is back byte for byte, the rest is as the process left it, and exactly the protected paths
 * that differed are named.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { singleCommand, type ExecOptions, type Workspace } from '../../engine/workspace.ts';
import { walkTree } from '../../engine/walk.ts';
import { isHeld, madeGitDirsText } from '../protected-state.ts';
import { heldFiles } from './held-files.ts';
import { NodeWebContainer } from './node-webcontainer.fixture.ts';
import type { SpawnedProcess } from './spawn-capped.ts';
import { WebContainerWorkspace } from './webcontainer-workspace.ts';

const OPTS: ExecOptions = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const text = async (ws: Workspace, p: string): Promise<string> => new TextDecoder().decode(await ws.readFile(p));
/** The memory backend's words (../protected-state.ts), path list aside. */
const UNDONE = / — \.git\/ and \.slmcode\/ are never written by commands, so those changes were undone/;

const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'slm-wc-held-'));
  dirs.push(dir);
  return dir;
}

async function workspace(): Promise<WebContainerWorkspace> {
  const ws = new WebContainerWorkspace(new NodeWebContainer(await tempDir()));
  await ws.writeFile('.git/HEAD', enc('ref: refs/heads/main\n'));
  await ws.writeFile('.git/config', enc('[core]\n\tbare = false\n'));
  await ws.writeFile('.slmcode/settings.json', enc('{}\n'));
  await ws.writeFile('.slmcode/scratch/notes.txt', enc('notes\n'));
  await ws.writeFile('sub/.git/config', enc('[core]\n'));
  await ws.writeFile('README.md', enc('# demo\n'));
  return ws;
}

describe('a process in the WebContainer workspace leaves .git/ and .slmcode/ as they were', () => {
  it('node x.js writes .git/HEAD, deletes .slmcode/settings.json and creates files under .git/: undone and said', async () => {
    const ws = await workspace();
    await ws.writeFile(
      'x.js',
      enc(`const fs = require('node:fs');
fs.writeFileSync('.git/HEAD', 'ref: refs/heads/evil\\n');
fs.rmSync('.slmcode/settings.json');
fs.mkdirSync('.git/hooks', { recursive: true });
fs.writeFileSync('.git/hooks/pre-commit', '#!/bin/sh\\necho pwned\\n');
fs.writeFileSync('.git/new-file', 'new\\n');
fs.writeFileSync('sub/.git/config', 'pwned\\n');
fs.mkdirSync('lib/.git', { recursive: true });
fs.writeFileSync('lib/.git/config', 'a new nested repository\\n');
fs.writeFileSync('.slmcode/scratch/kept.txt', 'scratch is writable\\n');
fs.writeFileSync('out.txt', 'an ordinary file\\n');
console.log('wrote');
`),
    );
    const r = await ws.exec(singleCommand(['node', 'x.js']), OPTS);
    expect(r).toMatchObject({ exitCode: 0, output: 'wrote\n' });
    expect(await text(ws, '.git/HEAD')).toBe('ref: refs/heads/main\n');
    expect(await text(ws, '.slmcode/settings.json')).toBe('{}\n');
    expect(await ws.lstat('.git/hooks')).toBeNull();
    expect(await ws.lstat('.git/new-file')).toBeNull();
    expect(await text(ws, 'sub/.git/config')).toBe('[core]\n');
    expect(await ws.lstat('lib/.git')).toBeNull();
    expect(await text(ws, '.slmcode/scratch/kept.txt')).toBe('scratch is writable\n');
    expect(await text(ws, 'out.txt')).toBe('an ordinary file\n');
    expect(r.backendNote).toBe(
      'the command changed .git/HEAD, .git/hooks, .git/hooks/pre-commit, .git/new-file, .slmcode/settings.json and 3 more — .git/ and .slmcode/ are never written by commands, so those changes were undone',
    );
  });

  it('the repository a .git file names and its commondir: undone; a bare repository the process makes: removed; each said', async () => {
    const ws = await workspace();
    await ws.writeFile('w/.git', enc('gitdir: ../.repo\n'));
    await ws.writeFile('.repo/HEAD', enc('ref: refs/heads/main\n'));
    await ws.writeFile('.repo/commondir', enc('../shared\n'));
    await ws.writeFile('shared/config', enc('[core]\n'));
    await ws.writeFile(
      'x.js',
      enc(`const fs = require('node:fs');
fs.writeFileSync('.repo/config', '[core]\\n\\tfsmonitor = sh evil.sh\\n');
fs.writeFileSync('shared/config', 'pwned\\n');
for (const d of ['b/objects', 'b/refs/heads']) fs.mkdirSync(d, { recursive: true });
fs.writeFileSync('b/HEAD', 'ref: refs/heads/main\\n');
fs.writeFileSync('out.txt', 'an ordinary file\\n');
`),
    );
    const r = await ws.exec(singleCommand(['node', 'x.js']), OPTS);
    expect(r.exitCode).toBe(0);
    expect(await ws.lstat('.repo/config')).toBeNull();
    expect(await text(ws, 'shared/config')).toBe('[core]\n');
    expect(await ws.lstat('b')).toBeNull();
    expect(await text(ws, 'out.txt')).toBe('an ordinary file\n');
    expect(r.backendNote).toBe(
      `the command changed .repo/config, shared/config — .git/ and .slmcode/ are never written by commands, so those changes were undone; ${madeGitDirsText(['b'])}`,
    );
  });

  it('.GIT/config, sub/.Git/hooks and .SLMCODE made by a process (spellings the jail refuses): removed and said', async () => {
    const ws = await workspace();
    await ws.writeFile(
      'x.js',
      enc(`const fs = require('node:fs');
fs.mkdirSync('.GIT', { recursive: true });
fs.writeFileSync('.GIT/config', '[core]\\n\\tfsmonitor = x\\n');
fs.mkdirSync('sub/.Git/hooks', { recursive: true });
fs.writeFileSync('sub/.Git/hooks/pre-commit', '#!/bin/sh\\n');
fs.mkdirSync('.SLMCODE');
fs.writeFileSync('.SLMCODE/hooks.json', '{}\\n');
`),
    );
    const r = await ws.exec(singleCommand(['node', 'x.js']), OPTS);
    expect(r.exitCode).toBe(0);
    for (const p of ['.GIT', 'sub/.Git', '.SLMCODE']) expect(await ws.lstat(p)).toBeNull();
    expect(r.backendNote).toMatch(/^the command changed \.GIT, \.GIT\/config, \.SLMCODE, .* and \d+ more/);
    expect(r.backendNote).toMatch(UNDONE);
  });

  it('.git replaced by a file and .slmcode removed whole: both put back with every file', async () => {
    const ws = await workspace();
    const r = await ws.exec(singleCommand(['sh', '-c', 'rm -rf .git .slmcode && echo gitdir: elsewhere > .git']), OPTS);
    expect(await text(ws, '.git/HEAD')).toBe('ref: refs/heads/main\n');
    expect(await text(ws, '.git/config')).toBe('[core]\n\tbare = false\n');
    expect(await text(ws, '.slmcode/settings.json')).toBe('{}\n');
    // scratch/ is not protected: removed with .slmcode, it stays removed.
    expect(await ws.lstat('.slmcode/scratch')).toBeNull();
    expect(r.backendNote).toMatch(
      /^the command changed \.git, \.git\/HEAD, \.git\/config, \.slmcode, \.slmcode\/settings\.json/,
    );
  });

  it('a process that touches neither says nothing of them, and its own note stays', async () => {
    const ws = await workspace();
    const r = await ws.exec(singleCommand(['sh', '-c', 'cp README.md copy.md; sleep 5']), { ...OPTS, timeoutMs: 300 });
    expect(r.backendNote).toBe('killed after 300 ms');
    const ok = await ws.exec(singleCommand(['cp', 'README.md', 'copy.md']), OPTS);
    expect(await text(ws, 'copy.md')).toBe('# demo\n');
    expect(ok.backendNote).toBeUndefined();
  });

  it('a walk cut at its bound says so; the top-level .git is held all the same', async () => {
    const ws = await workspace();
    for (let i = 0; i < 6; i++) await ws.writeFile(`many/f${i}.txt`, enc(''));
    for (let i = 0; i < 3; i++) await ws.writeFile(`.git/refs/r${i}`, enc(''));
    const store = heldFiles(ws, 4);
    const held = await store.snapshot([]);
    expect(store.note?.()).toBe(
      '.git has more than 4 entries, so only its first 4 were held; the workspace has more than 4 entries, so only the nested .git directories among the first 4 were held; the top-level .git and .slmcode always are',
    );
    expect([...held.keys()]).toEqual([
      '.git',
      '.git/HEAD',
      '.git/config',
      '.git/refs',
      '.git/refs/r0',
      '.slmcode',
      '.slmcode/settings.json',
    ]);
    expect(heldFiles(ws).note?.()).toBeUndefined();
  });
});

/** What a drawn process does to one path. */
type Op =
  | { readonly kind: 'write'; readonly path: string; readonly body: string }
  | { readonly kind: 'rm'; readonly path: string };

const PATHS = [
  '.git/HEAD',
  '.git/config',
  '.git/refs/heads/main',
  '.git/objects/ab/cdef',
  '.slmcode/settings.json',
  '.slmcode/hooks.json',
  '.slmcode/scratch/a.txt',
  'sub/.git/config',
  'sub/file.txt',
  '.repo/HEAD',
  '.repo/config',
  '.repo/hooks/pre-commit',
  'src/index.js',
  'README.md',
] as const;
const ROOTS = ['.git', '.git/refs', '.slmcode', '.slmcode/scratch', 'sub/.git', 'sub', 'src', '.repo', 'w'] as const;
/** `w/.git` is a file naming `.repo`, which is then held as `.git/` is. */
const POINTER = 'gitdir: ../.repo\n';
const held = (p: string) => isHeld(p, ['.repo']);

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    path: fc.constantFrom(...PATHS),
    body: fc.string({ maxLength: 8 }),
  }),
  fc.record({ kind: fc.constant('rm' as const), path: fc.constantFrom(...PATHS, ...ROOTS) }),
);

/** A stand-in WebContainer whose one process applies `ops` to the real directory, as any program could. */
class DrawnProcess extends NodeWebContainer {
  ops: readonly Op[] = [];
  override async spawn(): Promise<SpawnedProcess> {
    for (const op of this.ops) {
      const at = join(this.workdir, op.path);
      if (op.kind === 'rm') await rm(at, { recursive: true, force: true });
      else {
        await mkdir(dirname(at), { recursive: true });
        await rm(at, { recursive: true, force: true });
        await writeFile(at, op.body);
      }
    }
    return {
      output: new ReadableStream<string>({ start: (c) => c.close() }),
      exit: Promise.resolve(0),
      kill: () => {},
    };
  }
}

/** Every file and directory under the workspace, path → bytes as text ('/' for a directory). */
async function tree(dir: string): Promise<Map<string, string>> {
  const ws = new WebContainerWorkspace(new NodeWebContainer(dir));
  const out = new Map<string, string>();
  for (const e of (await walkTree(ws, '', { skip: new Set() })).entries)
    out.set(e.path, e.type === 'dir' ? '/' : await readFile(join(dir, e.path), 'utf8'));
  return out;
}

describe('the hold, as a property', () => {
  it('the protected part comes back byte for byte, the rest is as the process left it, and exactly the changed protected paths are named', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 6 }), async (ops) => {
        const dir = await tempDir();
        const wc = new DrawnProcess(dir);
        const ws = new WebContainerWorkspace(wc);
        for (const p of PATHS) await ws.writeFile(p, enc(`${p}\n`));
        await ws.writeFile('w/.git', enc(POINTER));
        const before = await tree(dir);
        // What the process alone makes of the tree, applied to a copy with no hold.
        const bare = await tempDir();
        const plain = new DrawnProcess(bare);
        for (const p of PATHS) await new WebContainerWorkspace(plain).writeFile(p, enc(`${p}\n`));
        await new WebContainerWorkspace(plain).writeFile('w/.git', enc(POINTER));
        plain.ops = ops;
        await plain.spawn();
        const unheld = await tree(bare);

        wc.ops = ops;
        const r = await ws.exec(singleCommand(['program']), OPTS);
        const after = await tree(dir);
        // A directory above a protected entry comes back with it (`sub` for `sub/.git`), whatever the process did to it.
        const above = (p: string) => [...before.keys()].some((q) => held(q) && q.startsWith(`${p}/`));
        const part = (t: Map<string, string>, prot: boolean) =>
          [...t].filter(([p]) => held(p) === prot && (prot || !above(p)));
        expect(part(after, true)).toEqual(part(before, true));
        expect(part(after, false)).toEqual(part(unheld, false));
        const changed = [...new Set([...before.keys(), ...unheld.keys()])]
          .filter((p) => held(p) && before.get(p) !== unheld.get(p))
          .sort();
        if (changed.length === 0) expect(r.backendNote).toBeUndefined();
        else {
          expect(r.backendNote).toMatch(UNDONE);
          const named = r.backendNote!.replace(/^the command changed /, '').replace(UNDONE, '');
          const shown =
            changed.length > 5
              ? `${changed.slice(0, 5).join(', ')} and ${changed.length - 5} more`
              : changed.join(', ');
          expect(named).toBe(shown);
        }
      }),
      { numRuns: 40 },
    );
  });
});
