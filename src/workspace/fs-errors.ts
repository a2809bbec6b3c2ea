/**
 * A backend's fs error as the WorkspaceError the engine switches on, for the backends whose fs
 * speaks Node's error codes (Node's own fs, WebContainer's). A code the Workspace contract names
 * is kept, with a message that names the root-relative path (the fs message names the absolute
 * one); anything else (EACCES, ELOOP, an iframe gone) is EIO with the original text.
 */
import { WorkspaceError, type WorkspaceErrorCode } from '../engine/workspace.ts';

/** The codes the Workspace contract names; any other code from a backend becomes EIO. */
export const KNOWN_CODES: readonly WorkspaceErrorCode[] = [
  'ENOENT',
  'EISDIR',
  'ENOTDIR',
  'EEXIST',
  'ENOTEMPTY',
  'EINVAL',
];

/** Whether a backend's code is one the contract names. */
export function isKnownCode(code: string): code is WorkspaceErrorCode {
  return (KNOWN_CODES as readonly string[]).includes(code);
}

/** An fs error → WorkspaceError. The code may be a property or only the message's first word (errors that crossed an iframe). */
export function toWorkspaceError(e: unknown, path: string): WorkspaceError {
  if (e instanceof WorkspaceError) return e;
  const msg = e instanceof Error ? e.message : String(e);
  const prop = (e as { code?: unknown } | null)?.code;
  const code = typeof prop === 'string' ? prop : (/^(E[A-Z]+)\b/.exec(msg)?.[1] ?? '');
  return isKnownCode(code)
    ? new WorkspaceError(code, path, `${code}: ${path || '.'}`)
    : new WorkspaceError('EIO', path, msg);
}

/**
 * `read()`, with "nothing there" (ENOENT, or a parent that is a file: ENOTDIR) as null; any other
 * error as the WorkspaceError `convert` makes of it (a backend whose fs speaks otherwise passes its own).
 */
export async function orMissing<T>(
  path: string,
  read: () => T | Promise<T>,
  convert = toWorkspaceError,
): Promise<T | null> {
  try {
    return await read();
  } catch (e) {
    const err = convert(e, path);
    if (err.code === 'ENOENT' || err.code === 'ENOTDIR') return null;
    throw err;
  }
}
