/**
 * The Workspace contract against the Node backend in a temporary directory, plus what only a
 * real process can show: exec in its own process group, the output cap, timeout and abort.
 */
import { readFileSync } from 'node:fs';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { singleCommand, isWorkspaceError, type ExecOptions } from '../../src/engine/workspace.ts';
import { workspaceContract } from './workspace-contract.ts';

const dirs: string[] = [];
async function freshDir(): Promise<string> {
  const d = await mkdtemp(join(tmpdir(), 'slm-node-ws-'));
  dirs.push(d);
  return d;
}
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

workspaceContract('node', async () => NodeWorkspace.open(await freshDir()));

describe('NodeWorkspace.open', () => {
  it('takes the realpath of the root, so a root reached through a link is judged physically', async () => {
    const real = await freshDir();
    const via = join(await freshDir(), 'via-link');
    await symlink(real, via);
    const ws = await NodeWorkspace.open(via);
    expect(ws.root).toBe(real);
  });

  it.each([
    ['a missing directory', async () => join(await freshDir(), 'missing'), 'ENOENT'],
    [
      'a file',
      async () => {
        const d = await freshDir();
        await (await NodeWorkspace.open(d)).writeFile('f.txt', new Uint8Array([1]));
        return join(d, 'f.txt');
      },
      'ENOTDIR',
    ],
  ] as const)('refuses %s with %s', async (_label, path, code) => {
    const err = await NodeWorkspace.open(await path()).catch((e: unknown) => e);
    expect(isWorkspaceError(err, code)).toBe(true);
  });
});

describe('NodeWorkspace.exec', () => {
  const base: ExecOptions = { timeoutMs: 10_000, maxOutputBytes: 64 * 1024 };
  const open = async (): Promise<NodeWorkspace> => NodeWorkspace.open(await freshDir());

  it('runs argv without a shell, reports the exit code and interleaves stdout and stderr', async () => {
    const ws = await open();
    const r = await ws.exec(singleCommand(['sh', '-c', 'echo one; echo two >&2; echo three; exit 3']), base);
    expect(r).toMatchObject({
      exitCode: 3,
      output: 'one\ntwo\nthree\n',
      totalBytes: 14,
      truncated: false,
      timedOut: false,
    });
    const literal = await ws.exec(singleCommand(['echo', '$HOME', '*']), base);
    expect(literal.output).toBe('$HOME *\n');
  });

  it('runs in the given working directory under the root', async () => {
    const ws = await open();
    await ws.mkdir('sub/dir');
    const r = await ws.exec(singleCommand(['pwd']), { ...base, cwd: 'sub/dir' });
    expect(r.output.trim()).toBe(join(ws.root, 'sub/dir'));
  });

  it('passes extra environment variables', async () => {
    const ws = await open();
    const r = await ws.exec(singleCommand(['sh', '-c', 'echo "$SLM_PROBE"']), {
      ...base,
      env: { SLM_PROBE: 'probe-value' },
    });
    expect(r.output).toBe('probe-value\n');
  });

  it('caps output while running: keeps head and tail, counts every byte, marks the cut', async () => {
    const ws = await open();
    const script = 'echo HEAD-START; head -c 1000000 /dev/zero | tr "\\0" x; echo; echo TAIL-END';
    const r = await ws.exec(singleCommand(['sh', '-c', script]), { ...base, maxOutputBytes: 1000 });
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.totalBytes).toBe(11 + 1_000_000 + 1 + 9);
    expect(r.output.startsWith('HEAD-START\nxxx')).toBe(true);
    expect(r.output.endsWith('xxx\nTAIL-END\n')).toBe(true);
    expect(r.output).toContain(`[${r.totalBytes - 1000} bytes of output omitted]`);
    expect(r.output.length).toBeLessThan(1100);
  });

  it('kills the whole process group on timeout, children included', async () => {
    const ws = await open();
    // The child shell starts a grandchild, prints its pid, and both would sleep for a minute.
    const started = Date.now();
    const r = await ws.exec(singleCommand(['sh', '-c', 'sleep 60 & echo $!; sleep 60']), { ...base, timeoutMs: 300 });
    expect(Date.now() - started).toBeLessThan(5000);
    expect(r).toMatchObject({ exitCode: null, timedOut: true });
    expect(r.backendNote).toMatch(/killed after 300 ms/);
    const grandchild = Number(r.output.trim());
    expect(grandchild).toBeGreaterThan(0);
    await expect.poll(() => isAlive(grandchild), { timeout: 2000 }).toBe(false);
  });

  it('honours an AbortSignal, before and during the run', async () => {
    const ws = await open();
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 200);
    const r = await ws.exec(singleCommand(['sleep', '60']), { ...base, signal: ac.signal });
    expect(r).toMatchObject({ exitCode: null, timedOut: false });
    expect(r.backendNote).toMatch(/cancelled/);
    const before = await ws.exec(singleCommand(['echo', 'never']), { ...base, signal: AbortSignal.abort() });
    expect(before).toMatchObject({ exitCode: null, output: '' });
  });

  it("reports a missing command as exit 127 with the shell's message instead of throwing", async () => {
    const ws = await open();
    const r = await ws.exec(singleCommand(['no-such-command-xyz']), base);
    expect(r).toMatchObject({ exitCode: 127, timedOut: false });
    expect(r.output).toMatch(/no-such-command-xyz: .*not found/);
  });

  it('reports a working directory that does not exist instead of throwing', async () => {
    const ws = await open();
    const r = await ws.exec(singleCommand(['pwd']), { ...base, cwd: 'missing-dir' });
    expect(r.exitCode).toBe(126);
    expect(r.backendNote).toMatch(/could not start pwd in .*missing-dir/);
  });
});

/** True while `pid` runs; a zombie (killed, not yet reaped by an init that may never reap it) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  // Signal 0 also reaches a zombie; /proc tells them apart where it exists.
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return true;
  }
}
