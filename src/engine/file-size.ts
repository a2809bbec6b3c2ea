/**
 * The size past which a file is never read whole on the host. A free script can make a tracked
 * file 1 GiB without using disk (a sparse file), so reading, diffing or hashing follows the
 * file's size, not the work asked for; past this bound a file is stat'ed, never read, and each
 * reader says so in its result the way it says a file is binary.
 */

/** Bytes a file may have and still be read, diffed or hashed whole (32 MiB). */
export const MAX_WHOLE_FILE_BYTES = 32 * 1024 * 1024;

/** `bytes` for a message: exact under a MiB, in MiB past it. */
export function sizeText(bytes: number): string {
  return bytes < 1024 * 1024 ? `${bytes} bytes` : `${(bytes / (1024 * 1024)).toFixed(1)} MiB (${bytes} bytes)`;
}

/** Why a file is not read whole: its size against the limit, for any reader's message. */
export function tooLargeText(path: string, bytes: number): string {
  return `${path} is ${sizeText(bytes)}, over the ${MAX_WHOLE_FILE_BYTES / (1024 * 1024)} MiB a file is read whole`;
}

/**
 * Bytes one pass over the whole tree reads in all (git_status's and git_diff's scan, the
 * session's tree hash, a run's capture): 64 MiB. Many files just under MAX_WHOLE_FILE_BYTES
 * would otherwise add up to any size; past this total, a pass stats the files it has not read
 * yet and treats them as too large.
 */
export const MAX_PASS_READ_BYTES = 64 * 1024 * 1024;

/** Why a file was not read in a pass that had already read its total. */
function passSpentText(path: string, bytes: number): string {
  return `${path} is ${sizeText(bytes)} and was not read: this pass had already read the ${MAX_PASS_READ_BYTES / (1024 * 1024)} MiB of files one pass reads`;
}

/**
 * What one pass over the tree may still read. `take(size)` says whether a file of `size` bytes
 * is read whole: no when it is over MAX_WHOLE_FILE_BYTES or over what is left of the pass's
 * MAX_PASS_READ_BYTES; yes counts it against the total.
 */
export class ReadBudget {
  #left = MAX_PASS_READ_BYTES;

  /** Whether a file of `size` bytes may be read; counts it when it may. */
  take(size: number): boolean {
    if (size > MAX_WHOLE_FILE_BYTES || size > this.#left) return false;
    this.#left -= size;
    return true;
  }
}

/** Why a file of `size` bytes at `path` was not read in a pass: too large, or the pass's total spent. */
export function notReadText(path: string, size: number): string {
  return size > MAX_WHOLE_FILE_BYTES ? tooLargeText(path, size) : passSpentText(path, size);
}
