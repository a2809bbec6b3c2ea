/**
 * A command in the memory workspace never changes `.git/` (at any depth) or `.slmcode/` outside
 * `scratch/`: an (approved) `tar -xf` whose members are `.git/config` and `.slmcode/hooks.json`,
 * or that makes a link to `.git` and writes through it, leaves both as they were, and the result
 * says what was undone. What it writes elsewhere, and into `.slmcode/scratch/`, stays.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { singleCommand, type ExecOptions } from '../../engine/workspace.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { NodeJsEngine } from './node-runner.ts';
import { isProtectedState, madeGitDirsText } from '../protected-state.ts';
import { walkTree } from '../../engine/walk.ts';
import { ShellRunner } from './shell-runner.ts';

const OPTS: ExecOptions = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);
const dec = (b: Uint8Array): string => new TextDecoder().decode(b);

/** A ustar archive made by Python's tarfile: `[name, text]` files and `[name, '->target']` links, in order. */
function tarOf(members: readonly (readonly [string, string])[]): Uint8Array {
  const script = `
import io, sys, tarfile, json
members = json.loads(sys.argv[1])
buf = io.BytesIO()
with tarfile.open(fileobj=buf, mode='w', format=tarfile.USTAR_FORMAT) as t:
    for name, body in members:
        info = tarfile.TarInfo(name)
        if body.startswith('->'):
            info.type = tarfile.SYMTYPE
            info.linkname = body[2:]
            t.addfile(info)
        else:
            data = body.encode()
            info.size = len(data)
            t.addfile(info, io.BytesIO(data))
sys.stdout.buffer.write(buf.getvalue())
`;
  return new Uint8Array(execFileSync('python3', ['-c', script, JSON.stringify(members)]));
}

async function workspace(): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));
  await ws.writeFile('.git/config', enc('[core]\n\tbare = false\n'));
  await ws.writeFile('.git/HEAD', enc('ref: refs/heads/main\n'));
  await ws.writeFile('.slmcode/settings.json', enc('{}\n'));
  await ws.writeFile('sub/.git/config', enc('[core]\n'));
  await ws.writeFile('README.md', enc('# demo\n'));
  return ws;
}

describe('which paths are protected state', () => {
  it.each([
    ['.git', true],
    ['.git/config', true],
    ['sub/.git/hooks/pre-commit', true],
    ['.slmcode', true],
    ['.slmcode/hooks.json', true],
    ['.slmcode/scratch', false],
    ['.slmcode/scratch/notes.txt', false],
    ['src/.gitignore', false],
    ['.github/workflows/ci.yml', false],
    ['README.md', false],
  ])('%s → %s', (path, expected) => {
    expect(isProtectedState(path)).toBe(expected);
  });
});

describe('a command in the memory workspace leaves .git/ and .slmcode/ as they were', () => {
  it('tar -xf with members in .git/, a nested .git/ and .slmcode/: undone and said; the other members stay', async () => {
    const ws = await workspace();
    await ws.writeFile(
      't.tar',
      tarOf([
        ['.git/config', '[core]\n\tfsmonitor = evil\n'],
        ['.git/hooks/pre-commit', '#!/bin/sh\necho pwned\n'],
        ['sub/.git/config', 'pwned\n'],
        ['.slmcode/hooks.json', '{"p":1}\n'],
        ['.slmcode/scratch/kept.txt', 'scratch is writable\n'],
        ['ok.txt', 'an ordinary member\n'],
      ]),
    );
    const r = await ws.exec(singleCommand(['tar', '-xf', 't.tar']), OPTS);
    expect(dec(await ws.readFile('.git/config'))).toBe('[core]\n\tbare = false\n');
    expect(await ws.lstat('.git/hooks/pre-commit')).toBeNull();
    expect(dec(await ws.readFile('sub/.git/config'))).toBe('[core]\n');
    expect(await ws.lstat('.slmcode/hooks.json')).toBeNull();
    expect(dec(await ws.readFile('.slmcode/scratch/kept.txt'))).toBe('scratch is writable\n');
    expect(dec(await ws.readFile('ok.txt'))).toBe('an ordinary member\n');
    expect(r.backendNote).toMatch(
      /the command changed \.git\/config, .*\.slmcode\/hooks\.json.* — \.git\/ and \.slmcode\/ are never written by commands, so those changes were undone/,
    );
  });

  it('a link to .git and a member written through it: .git/config is as it was', async () => {
    const ws = await workspace();
    await ws.writeFile(
      't.tar',
      tarOf([
        ['s', '->.git'],
        ['s/config', 'through the link\n'],
        ['h', '->.slmcode'],
        ['h/hooks.json', '{"p":1}\n'],
      ]),
    );
    await ws.exec(singleCommand(['tar', '-xf', 't.tar']), OPTS);
    expect(dec(await ws.readFile('.git/config'))).toBe('[core]\n\tbare = false\n');
    expect(await ws.lstat('.slmcode/hooks.json')).toBeNull();
    const through = await ws.exec(singleCommand(['cat', 's/config']), OPTS);
    expect(through.output).toBe('[core]\n\tbare = false\n');
  });

  it('a removal of .git/HEAD (rm through a command) is restored', async () => {
    const ws = await workspace();
    const r = await ws.exec(singleCommand(['rm', '-f', '.git/HEAD']), OPTS);
    expect(dec(await ws.readFile('.git/HEAD'))).toBe('ref: refs/heads/main\n');
    expect(r.backendNote).toMatch(/the command changed \.git\/HEAD/);
  });

  it('a command that touches neither says nothing of them', async () => {
    const ws = await workspace();
    const r = await ws.exec(singleCommand(['cp', 'README.md', 'copy.md']), OPTS);
    expect(dec(await ws.readFile('copy.md'))).toBe('# demo\n');
    expect(r.backendNote ?? '').not.toMatch(/undone/);
  });
});

/** Every file below the root as text, and every directory as `/`. */
async function treeOf(ws: MemoryWorkspace): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const e of (await walkTree(ws, '', { skip: new Set() })).entries)
    out.set(e.path, e.type === 'file' ? dec(await ws.readFile(e.path)) : '/');
  return out;
}

const below = (tree: Map<string, string>, dir: string) => new Map([...tree].filter(([p]) => p.startsWith(`${dir}/`)));

// The members a command may write: into the repository `w/.git` names, into its commondir,
// a bare repository's three markers, and an ordinary file.
const MEMBERS: readonly (readonly [string, string])[] = [
  ['.repo/config', '[core]\n\tfsmonitor = sh evil.sh\n'],
  ['.repo/hooks/pre-commit', '#!/bin/sh\necho pwned\n'],
  ['shared/config', '[core]\n\tfsmonitor = sh evil.sh\n'],
  ['shared/hooks/post-checkout', '#!/bin/sh\n'],
  ['b/HEAD', 'ref: refs/heads/main\n'],
  ['b/objects/info/packs', '\n'],
  ['b/refs/heads/main', '0000000000000000000000000000000000000000\n'],
  ['ok.txt', 'an ordinary member\n'],
];

describe('a command in the memory workspace: the repositories .git files name, and the ones it makes', () => {
  it('property: what it writes into a named repository (and its commondir) is undone, a bare repository it makes is removed, the rest stays', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          absolute: fc.boolean(),
          common: fc.boolean(),
          members: fc.subarray([...MEMBERS], { minLength: 1 }),
        }),
        async ({ absolute, common, members }) => {
          const ws = await workspace();
          await ws.writeFile('w/.git', enc(`gitdir: ${absolute ? '/ws/.repo' : '../.repo'}\n`));
          for (const [p, t] of [
            ['.repo/HEAD', 'ref: refs/heads/main\n'],
            ['.repo/config', '[core]\n'],
            ['.repo/objects/.keep', ''],
            ['.repo/refs/heads/.keep', ''],
          ])
            await ws.writeFile(p!, enc(t!));
          if (common) await ws.writeFile('.repo/commondir', enc('../shared\n'));
          await ws.writeFile('shared/config', enc('[core]\n'));
          await ws.writeFile('t.tar', tarOf(members));
          const before = await treeOf(ws);
          const r = await ws.exec(singleCommand(['tar', '-xf', 't.tar']), OPTS);
          expect(r.exitCode, r.output).toBe(0);
          const after = await treeOf(ws);
          expect(below(after, '.repo')).toEqual(below(before, '.repo'));
          const wrote = (p: string) => members.some(([m]) => m === p);
          if (common) expect(below(after, 'shared')).toEqual(below(before, 'shared'));
          else for (const [m, t] of members) if (m.startsWith('shared/')) expect(after.get(m)).toBe(t);
          const bare = ['b/HEAD', 'b/objects/info/packs', 'b/refs/heads/main'].every(wrote);
          if (bare) expect(after.has('b')).toBe(false);
          else for (const [m, t] of members) if (m.startsWith('b/')) expect(after.get(m)).toBe(t);
          if (wrote('ok.txt')) expect(after.get('ok.txt')).toBe('an ordinary member\n');
          const undone = members.some(([m]) => m.startsWith('.repo/') || (common && m.startsWith('shared/')));
          expect(/so those changes were undone/.test(r.backendNote ?? '')).toBe(undone);
          expect(r.backendNote?.includes(madeGitDirsText(['b'])) ?? false).toBe(bare);
        },
      ),
      { numRuns: 25 },
    );
  }, 120_000);
});
