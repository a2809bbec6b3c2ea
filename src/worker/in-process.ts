/**
 * An engine "worker" in the same thread: the real host on one end of a MessageChannel and the
 * real client on the other. Messages are structured-cloned exactly as they are between threads,
 * so code tested this way (the protocol, the console state) meets the same boundary as in the
 * browser, without a browser.
 */
import { EngineClient, type WorkerLike } from './client.ts';
import { engineHost, type SessionFactory } from './engine-host.ts';
import { serveEngine, type HostEndpoint } from './engine-serve.ts';
import type { RunServices } from './run-host.ts';

/** A Worker stand-in over one end of a MessageChannel. */
export class PortWorker extends EventTarget implements WorkerLike {
  terminated = false;

  constructor(readonly port: MessagePort) {
    super();
    port.addEventListener('message', (e) => this.dispatchEvent(new MessageEvent('message', { data: e.data })));
    port.start();
  }

  postMessage(message: unknown, transfer: Transferable[] = []): void {
    this.port.postMessage(message, transfer);
  }

  terminate(): void {
    this.terminated = true;
    this.port.close();
  }

  /** Fires the event a worker that died of an uncaught error fires. */
  crash(message: string): void {
    this.dispatchEvent(Object.assign(new Event('error'), { message }));
  }
}

/** Starts a host on `newSession` (runs using `services`) for every spawn, as `new Worker` would start a fresh worker. */
export function connectInProcess(
  newSession: SessionFactory,
  services: RunServices = {},
): { client: EngineClient; workers: PortWorker[] } {
  const workers: PortWorker[] = [];
  const client = new EngineClient(() => {
    const { port1, port2 } = new MessageChannel();
    port2.start();
    serveEngine(port2 as unknown as HostEndpoint, async (events) => engineHost(newSession, services, events));
    const worker = new PortWorker(port1);
    workers.push(worker);
    return worker;
  });
  return { client, workers };
}
