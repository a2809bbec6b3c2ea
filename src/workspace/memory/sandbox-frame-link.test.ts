/**
 * The engine's side of the sandbox frame, against a stand-in for the frame's host script on a
 * real MessageChannel: spawn requests carry the job's private port, the job and the output
 * travel on that port only, the host's reports reach the right job, and a page that never
 * attaches a frame ends the job with a message.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SandboxFrameLink, type FramePort } from './sandbox-frame-link.ts';
import type { SandboxJob } from './js-sandbox.ts';

const LIMITS = { memoryCapBytes: 1234 };
const JOB = { mode: 'run', entries: ['/ws/a.js'] } as unknown as SandboxJob;

type Request = { type: string; id: number; runtime?: string; memoryCapBytes?: number; port?: MessagePort };

/** A host that records what the engine asks, and the port to report on. */
function fakeHost(): {
  port: FramePort;
  requests: Request[];
  report(message: unknown): void;
  next(): Promise<Request>;
} {
  const channel = new MessageChannel();
  const requests: Request[] = [];
  let waiter: ((r: Request) => void) | null = null;
  channel.port2.onmessage = (e) => {
    requests.push(e.data as Request);
    waiter?.(e.data as Request);
    waiter = null;
  };
  return {
    port: channel.port1 as unknown as FramePort,
    requests,
    report: (m) => channel.port2.postMessage(m),
    next: () => new Promise((r) => (waiter = r)),
  };
}

const nextMessage = (port: MessagePort) => new Promise<unknown>((r) => (port.onmessage = (e) => r(e.data)));

afterEach(() => vi.useRealTimers());

describe('the sandbox frame link', () => {
  it('waits for the frame, then sends the job and takes output on the private port only', async () => {
    const link = new SandboxFrameLink(true);
    const worker = link.spawn('RUNTIME', LIMITS);
    const out: unknown[] = [];
    worker.onMessage((m) => out.push(m));
    worker.postMessage(JOB);

    const host = fakeHost();
    const spawned = host.next();
    link.attach(host.port);
    const req = await spawned;
    expect(req).toMatchObject({ type: 'spawn', id: 1, runtime: 'RUNTIME', memoryCapBytes: 1234 });
    const jobPort = req.port!;
    expect(await nextMessage(jobPort)).toEqual(JOB);

    jobPort.postMessage({ type: 'exit', code: 3 });
    // What reaches the host's own port is a report, never output.
    host.report({ type: 'exit', id: 1, code: 0 });
    await vi.waitFor(() => expect(out).toEqual([{ type: 'exit', code: 3 }]));
    worker.terminate();
    jobPort.close();
  });

  it.each([
    { report: { type: 'error', id: 1, message: 'could not start' }, seen: { error: 'could not start' } },
    { report: { type: 'memory', id: 1, bytes: 9999 }, seen: { memory: 9999 } },
    { report: { type: 'memory', id: 2, bytes: 9999 }, seen: {} },
    { report: { type: 'memory', id: 1, bytes: 'lots' }, seen: {} },
    { report: null, seen: {} },
  ])('routes the report $report to its job', async ({ report, seen }) => {
    const link = new SandboxFrameLink(true);
    const host = fakeHost();
    link.attach(host.port);
    const worker = link.spawn('RUNTIME', LIMITS);
    const got: Record<string, unknown> = {};
    worker.onError((m) => (got.error = m));
    worker.onMemory((b) => (got.memory = b));
    (await host.next()).port?.close();
    host.report(report);
    host.report({ type: 'error', id: 99, message: 'marker' });
    await new Promise((r) => setTimeout(r, 20));
    expect(got).toEqual(seen);
    worker.terminate();
  });

  it('asks the frame to end the worker on terminate', async () => {
    const link = new SandboxFrameLink(true);
    const host = fakeHost();
    link.attach(host.port);
    const worker = link.spawn('RUNTIME', LIMITS);
    (await host.next()).port?.close();
    const ended = host.next();
    worker.terminate();
    expect(await ended).toEqual({ type: 'terminate', id: 1 });
  });

  it('refuses at once where no page can attach a frame (Node)', () => {
    expect(() => new SandboxFrameLink().spawn('RUNTIME', LIMITS)).toThrow(
      'it runs in the browser, in a frame the playground page provides, and this host has no page (run node on the Node backend)',
    );
  });

  it('ends the job with a message when the page never attaches a frame', async () => {
    vi.useFakeTimers();
    const worker = new SandboxFrameLink(true).spawn('RUNTIME', LIMITS);
    let error = '';
    worker.onError((m) => (error = m));
    await vi.advanceTimersByTimeAsync(15_000);
    expect(error).toBe(
      'the page did not provide the sandbox frame within 15 s (it is created by the playground page; a page without it cannot run node)',
    );
    worker.terminate();
  });
});
