/**
 * The engine worker's first chunk: the start screen's requests are answered before the engine
 * host has loaded; every other request reaches the host unchanged and in arrival order; a host
 * that cannot load ends the worker with `fatal`.
 */
import { describe, expect, it } from 'vitest';
import { serveFront } from './engine-front.ts';
import type { HostEndpoint } from './engine-host.ts';
import type { EngineResponse } from './protocol.ts';
import { runOptions } from './run-options.ts';

class FakeScope implements HostEndpoint {
  readonly posted: EngineResponse[] = [];
  readonly #listeners: ((event: MessageEvent) => void)[] = [];
  postMessage(message: EngineResponse): void {
    this.posted.push(message);
  }
  addEventListener(_type: 'message', listener: (event: MessageEvent) => void): void {
    this.#listeners.push(listener);
  }
  send(data: unknown): void {
    for (const l of this.#listeners) l(new MessageEvent('message', { data }));
  }
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

/** A host whose code is still loading until `load()` is called; it records what reaches it. */
function pendingHost() {
  const reached: unknown[] = [];
  let finish: (() => void) | null = null;
  let endpoint: HostEndpoint | null = null;
  const loader = (e: HostEndpoint) =>
    new Promise<void>((resolve) => {
      endpoint = e;
      finish = resolve;
    });
  const load = () => {
    endpoint!.addEventListener('message', (event) => reached.push(event.data));
    finish!();
  };
  return { reached, loader, load };
}

describe('serveFront', () => {
  it('answers the task choices and the WebGPU report while the host is still loading', async () => {
    const scope = new FakeScope();
    const host = pendingHost();
    serveFront(scope, host.loader);
    scope.send({ type: 'run-options', id: 1 });
    scope.send({ type: 'gpu-report', id: 2 });
    await settle();
    expect(scope.posted).toEqual([
      { type: 'result', id: 1, value: runOptions() },
      { type: 'result', id: 2, value: expect.objectContaining({ ok: false, webgpu: false }) },
    ]);
    expect(host.reached).toEqual([]);
  });

  it('hands every other request to the host in arrival order once it listens, and later ones at once', async () => {
    const scope = new FakeScope();
    const host = pendingHost();
    serveFront(scope, host.loader);
    const early = [
      { type: 'list-tools', id: 1 },
      { type: 'call-tool', id: 2, name: 'ws_read', args: { path: 'README.md' } },
      { type: 'launch', id: 3 },
      null,
    ];
    for (const m of early) scope.send(m);
    await settle();
    expect(host.reached).toEqual([]);
    host.load();
    expect(host.reached).toEqual(early);
    scope.send({ type: 'reset', id: 4 });
    expect(host.reached).toEqual([...early, { type: 'reset', id: 4 }]);
    expect(scope.posted).toEqual([]);
  });

  it('a host whose code cannot load ends the worker with fatal', async () => {
    const scope = new FakeScope();
    serveFront(scope, () => Promise.reject(new TypeError('Failed to fetch dynamically imported module')));
    await settle();
    expect(scope.posted).toEqual([
      {
        type: 'fatal',
        error: expect.objectContaining({ name: 'TypeError', message: 'Failed to fetch dynamically imported module' }),
      },
    ]);
  });
});
