/**
 * The engine worker's first chunk: it answers at once what needs no engine (the WebGPU report,
 * and the task and model choices, which the page also bundles for its first paint), and
 * starts loading the engine host (engine-host.ts: the engine, the memory workspace, runs,
 * replays) beside it. Every other
 * request waits, in arrival order, until the host is listening, and is then handed to it
 * unchanged; the host posts `ready` when its session is up, as it always does.
 */
import { detectGpu } from '../agent/models/gpu.ts';
import type { HostEndpoint } from './engine-host.ts';
import type { EngineRequest } from './protocol.ts';
import { runOptions } from './run-options.ts';
import { toWireError } from './wire-error.ts';

/** Starts the full host on the endpoint it is given; rejects when its code cannot be loaded. */
export type HostLoader = (endpoint: HostEndpoint) => Promise<void>;

/** What the front answers itself, without the engine: the start screen's first requests. */
const ANSWERED_HERE: ReadonlyMap<string, () => unknown> = new Map<EngineRequest['type'], () => unknown>([
  ['run-options', runOptions],
  ['gpu-report', () => detectGpu()],
]);

export function serveFront(endpoint: HostEndpoint, loadHost: HostLoader): void {
  let hostListener: ((event: MessageEvent) => void) | null = null;
  const waiting: MessageEvent[] = [];
  const toHost: HostEndpoint = {
    postMessage: (message) => endpoint.postMessage(message),
    addEventListener: (_type, listener) => {
      hostListener = listener;
      for (const event of waiting.splice(0)) listener(event);
    },
  };
  endpoint.addEventListener('message', (event) => {
    const req = event.data as EngineRequest | null;
    const answer = req && ANSWERED_HERE.get(req.type);
    if (answer) {
      Promise.resolve()
        .then(answer)
        .then(
          (value) => endpoint.postMessage({ type: 'result', id: req.id, value }),
          (e: unknown) => endpoint.postMessage({ type: 'error', id: req.id, error: toWireError(e) }),
        );
    } else if (hostListener) hostListener(event);
    else waiting.push(event);
  });
  loadHost(toHost).catch((e: unknown) => endpoint.postMessage({ type: 'fatal', error: toWireError(e) }));
}
