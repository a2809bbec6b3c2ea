/**
 * The engine worker's serving side: the start screen's requests are answered before the engine
 * host has loaded; every other request reaches the host unchanged and in arrival order; a host
 * that cannot load ends the worker with `fatal`; a request no one declares is an error, as data.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { EngineClient, EngineRequestError, type EngineStatus } from './client.ts';
import { serveEngine, type EngineHost, type HostEndpoint, type HostHandlers, type HostLoader } from './engine-serve.ts';
import { PortWorker } from './in-process.ts';
import { runOptions } from './run-options.ts';

const INFO = { workspaceKind: 'memory', template: { id: 't', title: 'T', hash: 'h', task: 'do it' } };
const open: EngineClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

/** A client joined to `serveEngine(load)` over a MessageChannel. */
function connect(load: HostLoader): EngineClient {
  const client = new EngineClient(() => {
    const { port1, port2 } = new MessageChannel();
    port2.start();
    serveEngine(port2 as unknown as HostEndpoint, load);
    return new PortWorker(port1);
  });
  open.push(client);
  return client;
}

/** A host whose code is still loading until `load()` is called; it records the requests that reach it. */
function pendingHost() {
  const reached: string[] = [];
  let finish: ((host: EngineHost) => void) | null = null;
  const loader: HostLoader = () => new Promise((resolve) => (finish = resolve));
  const record =
    (name: string) =>
    (...args: unknown[]) => (reached.push(`${name}${args.length ? ` ${JSON.stringify(args)}` : ''}`), name);
  const handlers = {
    listTools: record('listTools'),
    callTool: record('callTool'),
    reset: record('reset'),
  } as unknown as HostHandlers;
  const load = () => finish!({ handlers, ready: Promise.resolve(INFO) });
  return { reached, loader, load };
}

function status(client: EngineClient, state: EngineStatus['state']): Promise<EngineStatus> {
  if (client.status.state === state) return Promise.resolve(client.status);
  return new Promise((resolve) => client.onStatus((s) => s.state === state && resolve(s)));
}

describe('serveEngine', () => {
  it('answers the task choices and the WebGPU report while the host is still loading', async () => {
    const host = pendingHost();
    const client = connect(host.loader);
    expect(await client.runOptions()).toEqual(runOptions());
    expect(await client.gpuReport()).toMatchObject({ ok: false, webgpu: false });
    expect(host.reached).toEqual([]);
    expect(client.status.state).toBe('starting');
  });

  it('hands every other request to the host in arrival order once it is up, and later ones at once', async () => {
    const host = pendingHost();
    const client = connect(host.loader);
    const early = [client.listTools(), client.callTool('ws_read', { path: 'README.md' }), client.reset()];
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(host.reached).toEqual([]);
    host.load();
    expect(await Promise.all(early)).toEqual(['listTools', 'callTool', 'reset']);
    expect((await status(client, 'ready')).state).toBe('ready');
    await client.listTools();
    expect(host.reached).toEqual(['listTools', 'callTool ["ws_read",{"path":"README.md"}]', 'reset', 'listTools']);
  });

  it('a request the host does not declare is an error sent as data; the worker goes on', async () => {
    const host = pendingHost();
    const client = connect(host.loader);
    host.load();
    const err = await client.fileTree().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(EngineRequestError);
    expect((err as EngineRequestError).remote).toMatchObject({
      name: 'TypeError',
      message: 'engine worker: unknown request "fileTree"',
    });
    expect(await client.listTools()).toBe('listTools');
  });

  it('a raw request for a name that is no request (a prototype member) is refused as data', async () => {
    const { port1, port2 } = new MessageChannel();
    port2.start();
    const host = pendingHost();
    serveEngine(port2 as unknown as HostEndpoint, host.loader);
    host.load();
    const replies: unknown[] = [];
    const got = new Promise<void>((resolve) => {
      port1.addEventListener('message', (e) => {
        replies.push(e.data);
        if (replies.length === 2) resolve();
      });
    });
    port1.start();
    port1.postMessage({ t: 'q', i: 'r7', m: 'constructor', a: [] });
    await got;
    port1.close();
    expect(replies).toContainEqual(expect.objectContaining({ m: 'ready', a: [INFO] }));
    expect(replies).toContainEqual({
      t: 's',
      i: 'r7',
      e: expect.objectContaining({ name: 'TypeError', message: 'engine worker: unknown request "constructor"' }),
    });
  });

  it('a host whose code cannot load ends the worker with fatal', async () => {
    const client = connect(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    expect(await status(client, 'crashed')).toEqual({
      state: 'crashed',
      reason: 'it could not start (TypeError: Failed to fetch dynamically imported module)',
    });
  });
});
