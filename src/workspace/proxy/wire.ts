/**
 * What both sides of the workspace proxy do to values crossing the port: errors become data
 * and back (keeping WorkspaceError codes), and bytes are copied to a buffer of their own so it
 * can be transferred instead of cloned.
 */
import { WorkspaceError, isWorkspaceError } from '../../engine/workspace.ts';
import type { WireFailure } from './protocol.ts';

/** An error as data; a WorkspaceError keeps its code and path. */
export function toWireFailure(e: unknown): WireFailure {
  if (isWorkspaceError(e)) return { name: 'WorkspaceError', message: e.message, code: e.code, path: e.path };
  if (e instanceof Error) return { name: e.name, message: e.message };
  return { name: 'Error', message: String(e) };
}

/**
 * The error to throw for a failure that came back as data: a WorkspaceError with the same
 * code, path and message when it was one (the engine switches on `code`), else an Error with
 * the remote name and message.
 */
export function fromWireFailure(f: WireFailure): Error {
  if (f.code !== undefined) return new WorkspaceError(f.code, f.path ?? '', f.message);
  const err = new Error(f.message);
  err.name = f.name;
  return err;
}

/**
 * Exactly the view's bytes in a fresh buffer, ready to transfer. Transferring the caller's own
 * buffer would detach it under them (and a backend may return a view into its storage), and
 * cloning a view clones its whole underlying buffer — a 10-byte subarray of a 1 MB buffer
 * would cross as 1 MB. The copy crosses as exactly its bytes, without a second copy.
 */
export function transferableCopy(bytes: Uint8Array): { bytes: Uint8Array<ArrayBuffer>; transfer: Transferable[] } {
  const copy = new Uint8Array(bytes.byteLength);
  copy.set(bytes);
  return { bytes: copy, transfer: [copy.buffer] };
}
