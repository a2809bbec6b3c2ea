/**
 * Short content hashes for session records: the first 12 hex digits (48 bits) of SHA-256.
 * Long enough that an accidental match between a recorded and a replayed result is out of
 * the question, short enough that a 100-step record stays small in a URL. `crypto.subtle`
 * exists in Node 20 and in every secure browser context, worker included.
 */
import { encodeText } from '../engine/text.ts';

/** Hex digits a short hash keeps. */
export const SHORT_HASH_HEX = 12;

/** Two hex digits per byte value. */
export const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

/** The first `SHORT_HASH_HEX` hex digits of SHA-256 over `data` (text is hashed as UTF-8). */
export async function shortHash(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === 'string' ? encodeText(data) : data;
  return shortHex(new Uint8Array(await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>)));
}

/** The first `SHORT_HASH_HEX` hex digits of a digest. */
export function shortHex(digest: Uint8Array): string {
  let hex = '';
  for (let i = 0; i < SHORT_HASH_HEX / 2; i++) hex += HEX[digest[i]!];
  return hex;
}

/** Joins byte chunks into one array. */
export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  let total = 0;
  for (const c of chunks) total += c.length;
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
