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
