/**
 * The model workers' protocol on the wire (birpc, worker/rpc.ts): the worker side serves a
 * model host (`serveModel`, used by model.worker.ts and gguf.worker.ts alike), the calling
 * side gets a `ModelWorkerClient` (`modelClient`, used by run-models.ts). Errors cross as
 * `{code, message}` and are rethrown as the same ModelError.
 */
import { ModelError, toModelError } from '../agent/model.ts';
import { ModelWorkerClient } from '../agent/models/worker-client.ts';
import { createModelHost, type ModelBackend } from '../agent/models/worker-host.ts';
import type { ModelApi, ModelEvents, WireError } from '../agent/models/worker-protocol.ts';
import { connect, type ErrorCodec, type Wire } from './rpc.ts';

const MODEL_ERRORS: ErrorCodec = {
  encode: (e): WireError => {
    const err = toModelError(e);
    return { code: err.code, message: err.message };
  },
  decode: (data) => new ModelError((data as WireError).code, (data as WireError).message),
};

/** Only a side's own methods answer: a prototype member's name is no request. */
function own<T extends object>(methods: T | null, name: string): ((...args: any[]) => unknown) | undefined {
  return methods && Object.hasOwn(methods, name)
    ? (methods as Record<string, (...a: any[]) => unknown>)[name]
    : undefined;
}

/** Serves a model host over `wire` (a model worker's own scope); the backend module loads on first use. */
export function serveModel(wire: Wire, loadBackend: () => Promise<ModelBackend>): void {
  let host: ModelApi | null = null;
  const events = connect<ModelEvents>(wire, MODEL_ERRORS, {
    eventNames: ['progress', 'token'],
    resolver: (name) => own(host, name),
  });
  host = createModelHost(loadBackend, events);
}

/** The calling side of a model worker reached over `wire`. */
export function modelClient(wire: Wire): ModelWorkerClient {
  let client: ModelWorkerClient | null = null;
  const remote = connect<ModelApi>(wire, MODEL_ERRORS, {
    eventNames: ['abort'],
    resolver: (name) => own(client?.events ?? null, name),
  });
  client = new ModelWorkerClient(remote);
  return client;
}
