/**
 * A FIFO, a socket or a device node in a Node workspace (a command can make one) is not a file
 * the engine reads or writes: the workspace lists and stats only regular files, directories and
 * symlinks, and a read or write of a special file fails at once with what it is — it never waits
 * for a writer or a reader. The tools that walk the tree (ws_grep, git_status) answer as if the
 * entry were not there, as git itself skips it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
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

beforeAll(async () => {
  useNodeWasm();
  dir = realpathSync(mkdtempSync(join(tmpdir(), 'slm-special-')));
  writeFileSync(join(dir, 'a.txt'), 'needle\n');
  execFileSync('git', ['init', '-q'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'add', 'a.txt'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'a'], { cwd: dir });
  special = await makeSpecialFiles(dir);
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
});
