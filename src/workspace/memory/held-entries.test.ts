/**
 * A command in the memory workspace never changes `.git/` (at any depth) or `.slmcode/` outside
 * `scratch/`: an (approved) `tar -xf` whose members are `.git/config` and `.slmcode/hooks.json`,
 * or that makes a link to `.git` and writes through it, leaves both as they were, and the result
 * says what was undone. What it writes elsewhere, and into `.slmcode/scratch/`, stays.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { singleCommand, type ExecOptions } from '../../engine/workspace.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { NodeJsEngine } from './node-runner.ts';
import { isProtectedState } from '../protected-state.ts';
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
