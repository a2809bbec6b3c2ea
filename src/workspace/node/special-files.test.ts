/**
 * A FIFO, a socket or a device node in a Node workspace (a command can make one) is not a file
 * the engine reads or writes: the workspace lists and stats only regular files, directories and
 * symlinks, and a read or write of a special file fails at once with what it is — it never waits
 * for a writer or a reader. The tools that walk the tree (ws_grep, git_status) answer as if the
 * entry were not there, as git itself skips it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeSpecialFiles } from '../../../tests/support/special-files.ts';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { Engine } from '../../engine/engine.ts';
import { CODING_TOOLS } from '../../engine/tools/index.ts';
import { NodeWorkspace } from './node-workspace.ts';

let dir: string;
let ws: NodeWorkspace;
let special: { remove(): void } | undefined;
let hasDevice = false;

beforeAll(async () => {
  useNodeWasm();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'slm-special-')));
  writeFileSync(join(dir, 'a.txt'), 'needle\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'a.txt'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a'], { cwd: dir });
  special = await makeSpecialFiles(dir);
  // A device node needs the right to make one (root, outside a nodev mount): tried, and its rows
  // below say when it could not be made.
  try {
    execFileSync('mknod', [join(dir, 'dev'), 'c', '1', '3'], { stdio: 'ignore' });
    hasDevice = statSync(join(dir, 'dev')).isCharacterDevice();
  } catch {
    hasDevice = false;
  }
  ws = await NodeWorkspace.open(dir);
});

afterAll(() => special?.remove());

describe('special files in a Node workspace', () => {
  it('are not listed, and stat as nothing there', async () => {
    expect((await ws.readdir('')).map((e) => e.name)).toEqual(['.git', 'a.txt']);
    expect(await ws.lstat('pipe')).toBeNull();
    expect(await ws.lstat('sock')).toBeNull();
  });

  it.each([
    ['pipe', 'a FIFO (named pipe)'],
    ['sock', 'a socket'],
  ])('a read of %s fails at once, saying it is %s', async (name, kind) => {
    await expect(ws.readFile(name)).rejects.toThrow(`${name} is ${kind}, not a regular file`);
  });

  it('a write over the FIFO fails at once and leaves it a FIFO', async () => {
    await expect(ws.writeFile('pipe', new TextEncoder().encode('x'))).rejects.toThrow(
      'pipe is a FIFO (named pipe), not a regular file: the file tools do not write it',
    );
    expect(execFileSync('stat', ['-c', '%F', join(dir, 'pipe')], { encoding: 'utf8' }).trim()).toBe('fifo');
  });

  it('ws_grep and git_status walk past them', async () => {
    const engine = new Engine({ workspace: ws, tools: CODING_TOOLS });
    const grep = await engine.call('ws_grep', { pattern: 'needle' });
    expect(grep).toMatchObject({ ok: true });
    expect(grep.text).toContain('a.txt:1: needle');
    const status = await engine.call('git_status', {});
    expect(status).toMatchObject({ ok: true });
    expect(status.text).toContain('nothing to commit');
  });

  /** Each file tool that would read or write a path, called on one: what it is says the message. */
  const toolCalls: [string, (name: string) => Record<string, unknown>][] = [
    ['ws_read', (name) => ({ path: name })],
    ['ws_edit', (name) => ({ path: name, old_str: 'a', new_str: 'b' })],
    ['ws_replace_lines', (name) => ({ path: name, start: 1, end: 1, new: 'x', hash: 'abcd' })],
    ['ws_write', (name) => ({ path: name, content: 'x\n' })],
    ['ws_patch', (name) => ({ path: name, patch: '<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE' })],
    ['ws_delete', (name) => ({ path: name })],
    ['ws_mv', (name) => ({ from: name, to: 'moved' })],
  ];
  const kinds: [string, string, string][] = [
    ['pipe', 'a FIFO (named pipe)', 'fifo'],
    ['sock', 'a socket', 'socket'],
    ['dev', 'a device', 'character special file'],
  ];
  const rows = toolCalls.flatMap(([tool, args]) =>
    kinds.map(([name, kind, stat]) => ({ tool, args, name, kind, stat })),
  );

  it.each(rows)('$tool on $name says it is $kind, and leaves it as it is', async ({ tool, args, name, kind, stat }) => {
    if (name === 'dev' && !hasDevice) {
      console.log(`skipped: ${tool} on a device — mknod could not make one here (needs root outside a nodev mount)`);
      return;
    }
    const engine = new Engine({ workspace: ws, tools: CODING_TOOLS });
    const r = await engine.call(tool, args(name));
    expect(r.ok).toBe(false);
    expect(r.text).toContain(`${name} is ${kind}, not a regular file: the file tools do not read or write it`);
    expect(r.text).toContain(`rm ${name} removes it`);
    expect(r.text).not.toContain('does not exist');
    expect(execFileSync('stat', ['-c', '%F', join(dir, name)], { encoding: 'utf8' }).trim()).toBe(stat);
  });

  it.each(kinds)('ws_mv onto %s refuses, saying it is %s, and replaces nothing', async (name, kind, stat) => {
    if (name === 'dev' && !hasDevice) {
      console.log('skipped: ws_mv onto a device — mknod could not make one here (needs root outside a nodev mount)');
      return;
    }
    const engine = new Engine({ workspace: ws, tools: CODING_TOOLS });
    const r = await engine.call('ws_mv', { from: 'a.txt', to: name });
    expect(r.ok).toBe(false);
    expect(r.text).toContain(`Move refused — ${name} is ${kind}, not a regular file`);
    await expect(ws.rename('a.txt', name)).rejects.toMatchObject({ code: 'EEXIST' });
    expect(execFileSync('stat', ['-c', '%F', join(dir, name)], { encoding: 'utf8' }).trim()).toBe(stat);
    expect(await ws.readFile('a.txt')).toEqual(new TextEncoder().encode('needle\n'));
  });

  it('a FIFO made by a command is named as one by ws_read', async () => {
    const engine = new Engine({ workspace: ws, tools: CODING_TOOLS });
    const made = await engine.call('ws_shell', { command: 'mkfifo made' }, { approved: true });
    if (!made.ok) {
      console.log(`skipped: commands do not run here (${made.text.split('\n')[0]})`);
      return;
    }
    const r = await engine.call('ws_read', { path: 'made' });
    expect(r.text).toContain('made is a FIFO (named pipe), not a regular file');
    execFileSync('rm', [join(dir, 'made')]);
  });
});
