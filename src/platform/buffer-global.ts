/**
 * isomorphic-git (behind git_status, git_diff, ws_mv's index update and the seed commit) uses
 * a global `Buffer` internally. Node has one; a browser worker does not, so the host installs
 * the `buffer` package's implementation once at startup. The engine itself never imports it:
 * providing runtime globals is the host's job.
 */
import { Buffer } from 'buffer';

/** Sets `globalThis.Buffer` when the runtime has none (a no-op in Node). Idempotent. */
export function installBufferGlobal(): void {
  const g = globalThis as { Buffer?: unknown };
  if (typeof g.Buffer !== 'function') g.Buffer = Buffer;
}
