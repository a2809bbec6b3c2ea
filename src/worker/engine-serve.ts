/**
 * The engine worker's serving side, in one place: birpc over the worker's port, the requests
 * answered before the engine has loaded (the WebGPU report, and the task and model choices,
 * which the page also bundles for its first paint), the one-at-a-time queue, and `ready` or
 * `fatal` once the host is up. The host (engine-host.ts: the engine, the memory workspace,
 * runs, replays) is loaded beside it; every other request waits for it, in arrival order.
 * The same code runs over a MessageChannel in Node tests (in-process.ts).
 */
import { detectGpu } from '../agent/models/gpu.ts';
import type { EngineApi, EngineEvents, EngineInfo } from './protocol.ts';
import { connect, endpointWire, type Endpoint, type Handlers, type Remote } from './rpc.ts';
import { runOptions } from './run-options.ts';
import { ENGINE_ERRORS, toWireError } from './wire-error.ts';

/** What the worker answers itself, without the engine: the start screen's first requests. */
const FRONT = {
  runOptions,
  gpuReport: () => detectGpu(),
} satisfies Partial<Handlers<EngineApi>>;

/** The requests the engine host answers: all but the front's. */
export type HostHandlers = Handlers<Omit<EngineApi, keyof typeof FRONT>>;

/** A loaded engine host: its handlers, and its first session's description (or why it could not be made). */
export interface EngineHost {
  readonly handlers: HostHandlers;
  readonly ready: Promise<EngineInfo>;
}

/** Loads the engine host, which sends its events through `events`; rejects when its code cannot be loaded. */
export type HostLoader = (events: Remote<EngineEvents>) => Promise<EngineHost>;

/** The part of a worker scope (or a MessagePort) the worker side uses. */
export type HostEndpoint = Endpoint;

/** Answers requests arriving on `endpoint` until the worker ends, with the host `load` gives. */
export function serveEngine(endpoint: HostEndpoint, load: HostLoader): void {
  let host: Promise<EngineHost> | null = null;
  // One request at a time: a reset must not swap the engine under a running tool call.
  let queue: Promise<unknown> = Promise.resolve();

  const handler =
    (name: string) =>
    async (...args: unknown[]) => {
      const { handlers } = await host!;
      if (!Object.hasOwn(handlers, name)) throw new TypeError(`engine worker: unknown request "${name}"`);
      return (handlers as Record<string, (...a: unknown[]) => unknown>)[name]!(...args);
    };
  const events = connect<EngineEvents>(endpointWire(endpoint), ENGINE_ERRORS, {
    eventNames: ['ready', 'fatal', 'run', 'eval'],
    resolver: (name) => {
      if (Object.hasOwn(FRONT, name)) return FRONT[name as keyof typeof FRONT];
      // The sandbox frame's port is taken at once: a queued `node` (a replay's test run) waits
      // for it, and behind that call in the queue it would never arrive.
      if (name === 'attachSandbox') return handler(name);
      return (...args: unknown[]) => {
        const answer = queue.then(() => handler(name)(...args));
        queue = answer.catch(() => {});
        return answer;
      };
    },
  });
  host = load(events);
  const ready = host.then((h) => h.ready);
  queue = ready.catch(() => {});
  ready.then(
    (info) => void events.ready(info),
    (e: unknown) => void events.fatal(toWireError(e)),
  );
}
