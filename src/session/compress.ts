/**
 * deflate-raw both ways over the platform's CompressionStream/DecompressionStream (browsers and
 * Node 20 alike). Inflating is for untrusted bytes: the input is fed in small slices while the
 * output is counted, and the stream is cancelled the moment the output passes the cap — a
 * deflate bomb (up to ~1032:1) never gets to allocate what it asks for.
 */
import { concatBytes } from './hash.ts';

/** Input bytes fed per write: bounds how far one write can overshoot the cap (~1032 × this). */
const SLICE_BYTES = 4096;

export type InflateOutcome =
  | { readonly ok: true; readonly bytes: Uint8Array }
  /** `truncated`: the data ends before the compressed stream does; `corrupt`: it is not deflate data; `bomb`: the output passed the cap. */
  | { readonly ok: false; readonly reason: 'truncated' | 'corrupt' | 'bomb'; readonly detail: string };

/** Compresses with raw deflate (no zlib or gzip header: the shortest form). */
export async function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as Uint8Array<ArrayBuffer>])
    .stream()
    .pipeThrough(new CompressionStream('deflate-raw'));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/**
 * Errors for data that ends early: Node's zlib says "unexpected end of file", Chromium "not
 * properly terminated", Firefox "unexpected end"; anything else is corrupt data.
 */
const ENDS_EARLY =
  /unexpected end|not properly terminated|end of (the )?(file|stream|input|data)|incomplete|truncated/i;

/** Inflates raw deflate `bytes`, stopping past `maxBytes` of output. Never throws for bad input. */
export async function inflateRawCapped(bytes: Uint8Array, maxBytes: number): Promise<InflateOutcome> {
  const ds = new DecompressionStream('deflate-raw');
  const writer = ds.writable.getWriter();
  const reader = ds.readable.getReader();
  // Feed concurrently with reading: a write resolves only once the stream has room, which reading makes.
  const feeding = (async () => {
    for (let at = 0; at < bytes.length; at += SLICE_BYTES)
      await writer.write(bytes.subarray(at, at + SLICE_BYTES) as Uint8Array<ArrayBuffer>);
    await writer.close();
  })();
  // The reader sees the same error; this only keeps the writer's rejection from going unhandled.
  feeding.catch(() => undefined);

  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.length;
      if (total > maxBytes) {
        await reader.cancel().catch(() => undefined);
        await writer.abort().catch(() => undefined);
        return { ok: false, reason: 'bomb', detail: `more than ${maxBytes} bytes` };
      }
      chunks.push(value);
    }
  } catch (e) {
    const detail = e instanceof Error ? e.message : String(e);
    return { ok: false, reason: ENDS_EARLY.test(detail) ? 'truncated' : 'corrupt', detail };
  }
  return { ok: true, bytes: concatBytes(chunks) };
}
