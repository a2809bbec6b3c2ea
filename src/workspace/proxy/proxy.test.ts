/**
 * What the proxy adds over the contract (tests/contract/proxy.test.ts): the handshake, bytes
 * crossing as exactly themselves without detaching anyone's buffer, errors as data, exec
 * cancelling across the port, and deadlines and closing that turn a silent page into errors.
 */
import { afterEach, describe, expect, it } from 'vitest';
import {
  singleCommand,
  isWorkspaceError,
  type ExecOptions,
  type ExecResult,
  type Workspace,
} from '../../engine/workspace.ts';
import { MemoryWorkspace } from '../memory/memory-workspace.ts';
import type { ProcessRunner } from '../memory/process-runner.ts';
import { NodeWorkspace } from '../node/node-workspace.ts';
import { ProxyWorkspace, serveWorkspace, type ProxyOptions } from './index.ts';
import type { ProxyReply } from './protocol.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** A proxy connected to `served` over a fresh MessageChannel; both ends close after the test. */
async function connect(served: Workspace, opts?: ProxyOptions): Promise<ProxyWorkspace> {
  const { port1, port2 } = new MessageChannel();
  const server = serveWorkspace(port2, served);
  const proxy = await ProxyWorkspace.connect(port1, opts);
  cleanups.push(() => {
    proxy.close();
    server.close();
  });
  return proxy;
}

/** A runner whose commands run until cancelled, reporting what signal they saw. */
const untilAborted: ProcessRunner = {
  run: (_target, plan, opts) =>
    new Promise<ExecResult>((resolve) => {
      opts.signal?.addEventListener('abort', () =>
        resolve({
          exitCode: null,
          output: `${plan.stages[0]!.argv.join(' ')} stopped`,
          totalBytes: 0,
          truncated: false,
          timedOut: false,
          backendNote: 'cancelled',
        }),
      );
    }),
};

const enc = new TextEncoder();
const base: ExecOptions = { timeoutMs: 5_000, maxOutputBytes: 1024 };

describe('handshake', () => {
  it('reports the served kind, root and symlink support', async () => {
    const mem = await connect(new MemoryWorkspace());
    expect([mem.kind, mem.root, mem.supportsSymlinks]).toEqual(['memory', '/ws', true]);
    const node = await NodeWorkspace.open(process.cwd());
    const viaNode = await connect(node);
    expect([viaNode.kind, viaNode.root]).toEqual(['node', node.root]);
  });

  it('fails with EIO when nothing serves the other end', async () => {
    const { port1, port2 } = new MessageChannel();
    cleanups.push(() => port2.close());
    const err = await ProxyWorkspace.connect(port1, { connectTimeoutMs: 50 }).catch((e: unknown) => e);
    expect(isWorkspaceError(err, 'EIO')).toBe(true);
    expect((err as Error).message).toBe(
      "EIO: the page's workspace did not answer the handshake within 50 ms; is serveWorkspace running on the other end of the port?",
    );
  });
});

describe('bytes', () => {
  it("sends exactly a view's bytes and leaves the caller's buffer usable", async () => {
    const served = new MemoryWorkspace();
    const ws = await connect(served);
    const big = enc.encode('0123456789abcdef');
    const view = big.subarray(4, 8);
    await ws.writeFile('v.txt', view);
    expect(view.byteLength).toBe(4); // not detached by the transfer
    expect(big.byteLength).toBe(16);
    expect(new TextDecoder().decode(await served.readFile('v.txt'))).toBe('4567');
  });

  it('hands out a copy: changing what readFile returned does not change the file', async () => {
    const served = new MemoryWorkspace();
    await served.writeFile('f.bin', new Uint8Array([1, 2, 3]));
    const ws = await connect(served);
    const got = await ws.readFile('f.bin');
    got[0] = 99;
    expect(Array.from(await served.readFile('f.bin'))).toEqual([1, 2, 3]);
  });
});

describe('errors cross as data', () => {
  it.each([
    ['readFile of a missing file', (w: Workspace) => w.readFile('gone/x.txt'), 'ENOENT', 'gone/x.txt'],
    ['rename onto an existing file', (w: Workspace) => w.rename('a.txt', 'b.txt'), 'EEXIST', 'b.txt'],
    ['remove of the root', (w: Workspace) => w.remove(''), 'EINVAL', ''],
  ] as const)('%s keeps its code and path', async (_label, op, code, path) => {
    const served = new MemoryWorkspace();
    await served.writeFile('a.txt', enc.encode('a'));
    await served.writeFile('b.txt', enc.encode('b'));
    const direct = await op(served).catch((e: unknown) => e);
    const proxied = await op(await connect(served)).catch((e: unknown) => e);
    expect(isWorkspaceError(proxied, code)).toBe(true);
    expect((proxied as { path: string }).path).toBe(path);
    expect((proxied as Error).message).toBe((direct as Error).message);
  });

  it('any other error keeps its name and message', async () => {
    const served = new MemoryWorkspace();
    served.readdir = () => Promise.reject(new RangeError('backend bug: 42'));
    const err = await (await connect(served)).readdir('').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect([(err as Error).name, (err as Error).message]).toEqual(['RangeError', 'backend bug: 42']);
  });

  it('the server answers a message that is not a call with an error naming it', async () => {
    const { port1, port2 } = new MessageChannel();
    const server = serveWorkspace(port2, new MemoryWorkspace());
    cleanups.push(() => {
      server.close();
      port1.close();
    });
    const reply = new Promise<ProxyReply>((resolve) =>
      port1.addEventListener('message', (e) => resolve(e.data as ProxyReply)),
    );
    port1.start();
    port1.postMessage({ type: 'launch', id: 7 });
    expect(await reply).toEqual({
      type: 'error',
      id: 7,
      error: { name: 'TypeError', message: 'workspace proxy: not a call: {"type":"launch","id":7}' },
    });
  });
});

describe('exec across the port', () => {
  it('forwards argv, cwd and env, and returns the result', async () => {
    const ws = await connect(await NodeWorkspace.open(process.cwd()));
    const r = await ws.exec(singleCommand(['sh', '-c', 'echo "$SLM_PROBE" $0', 'zero']), {
      ...base,
      cwd: 'src',
      env: { SLM_PROBE: 'probe' },
    });
    expect(r).toMatchObject({ exitCode: 0, output: 'probe zero\n', timedOut: false });
  });

  it('an abort on this side cancels the command on the other', async () => {
    const ws = await connect(new MemoryWorkspace(undefined, undefined, untilAborted));
    const ac = new AbortController();
    setTimeout(() => ac.abort(), 30);
    const r = await ws.exec(singleCommand(['sleep', '60']), { ...base, signal: ac.signal });
    expect(r).toMatchObject({ exitCode: null, output: 'sleep 60 stopped', backendNote: 'cancelled' });
    const before = await ws.exec(singleCommand(['echo']), { ...base, signal: AbortSignal.abort() });
    expect(before.backendNote).toBe('cancelled before it started');
  });

  it('closing the server cancels its running commands', async () => {
    const { port1, port2 } = new MessageChannel();
    const server = serveWorkspace(port2, new MemoryWorkspace(undefined, undefined, untilAborted));
    const ws = await ProxyWorkspace.connect(port1, { execGraceMs: 50 });
    cleanups.push(() => ws.close());
    const pending = ws.exec(singleCommand(['sleep', '60']), { ...base, timeoutMs: 100 });
    setTimeout(() => server.close(), 20);
    // The server stops answering once closed, so the proxy gives up at its deadline.
    expect((await pending).backendNote).toBe(
      "the command's result did not come back: the memory workspace did not answer within 150 ms (its own timeout was 100 ms). Reload the page if this repeats.",
    );
  });
});

describe('deadlines and closing', () => {
  it('a file call with no answer fails with EIO naming the call', async () => {
    const served = new MemoryWorkspace();
    served.lstat = () => new Promise(() => {});
    const ws = await connect(served, { callTimeoutMs: 40 });
    const err = await ws.lstat('src/a.js').catch((e: unknown) => e);
    expect(isWorkspaceError(err, 'EIO')).toBe(true);
    expect((err as Error).message).toBe(
      'EIO: the memory workspace did not answer lstat of src/a.js within 40 ms; it may have stopped — reload the page to start it again',
    );
  });

  it('an exec with no answer comes back as a result, and the server is asked to kill it', async () => {
    let aborted = false;
    const runner: ProcessRunner = {
      run: (_t, _argv, opts) =>
        new Promise(() => {
          opts.signal?.addEventListener('abort', () => (aborted = true));
        }),
    };
    const ws = await connect(new MemoryWorkspace(undefined, undefined, runner), { execGraceMs: 30 });
    const r = await ws.exec(singleCommand(['hang']), { ...base, timeoutMs: 20 });
    expect(r).toMatchObject({ exitCode: null, output: '', timedOut: false });
    expect(r.backendNote).toMatch(/did not answer within 50 ms \(its own timeout was 20 ms\)/);
    await expect.poll(() => aborted).toBe(true);
  });

  it('close() fails pending and later calls with EIO and the reason', async () => {
    const served = new MemoryWorkspace();
    served.readdir = () => new Promise(() => {});
    const ws = await connect(served);
    const pending = ws.readdir('').catch((e: unknown) => e);
    ws.close('the page reloaded');
    const later = await ws.readFile('a.txt').catch((e: unknown) => e);
    expect(((await pending) as Error).message).toBe('EIO: the workspace connection was closed (the page reloaded)');
    expect((later as Error).message).toBe('EIO: the workspace connection is closed (the page reloaded)');
    expect(isWorkspaceError(later, 'EIO')).toBe(true);
  });
});
