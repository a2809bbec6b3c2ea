/** Errors as the engine protocol sends them: data, with their name, message and stack, rethrown by the client. */
import type { WireError } from './protocol.ts';
import type { ErrorCodec } from './rpc.ts';

/** An error as data. Non-Error throws keep their text. */
export function toWireError(e: unknown): WireError {
  if (e instanceof Error) return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { name: 'Error', message: String(e) };
}

/** An error raised inside the worker while handling one request; the worker itself is fine. */
export class EngineRequestError extends Error {
  constructor(readonly remote: WireError) {
    super(remote.message);
    this.name = 'EngineRequestError';
  }
}

/** The engine protocol's error codec: `WireError` on the wire, `EngineRequestError` on the page. */
export const ENGINE_ERRORS: ErrorCodec = {
  encode: toWireError,
  decode: (data) => new EngineRequestError(data as WireError),
};
