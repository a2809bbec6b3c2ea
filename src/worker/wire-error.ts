/** An error as the worker sends it: data, with its name, message and stack. */
import type { WireError } from './protocol.ts';

/** An error as data. Non-Error throws keep their text. */
export function toWireError(e: unknown): WireError {
  if (e instanceof Error) return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { name: 'Error', message: String(e) };
}
