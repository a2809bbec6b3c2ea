/**
 * A GGUF file on a server as a ByteSource, so its header can be read without downloading the
 * model: each slice is an HTTP Range request, the size comes from the first answer. A server
 * that ignores Range sends the whole file; only the bytes asked for are read from that answer
 * and the rest of it is cancelled. Bytes already read are not asked for again.
 */
import type { ByteSource } from './gguf-header.ts';

type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

/** Reads `[start, end)` of the answer body, skipping what comes before `start` when the server sent the file from its first byte. */
async function readRange(response: Response, skip: number, want: number): Promise<Uint8Array> {
  const out = new Uint8Array(want);
  let have = 0;
  let skipped = 0;
  const reader = response.body?.getReader();
  if (!reader) return out.subarray(0, 0);
  try {
    while (have < want) {
      const { done, value } = await reader.read();
      if (done) break;
      let chunk = value;
      if (skipped < skip) {
        const drop = Math.min(skip - skipped, chunk.length);
        skipped += drop;
        chunk = chunk.subarray(drop);
      }
      const take = Math.min(chunk.length, want - have);
      out.set(chunk.subarray(0, take), have);
      have += take;
    }
  } finally {
    await reader.cancel().catch(() => {});
  }
  return out.subarray(0, have);
}

/** The file's total size from a Range answer (`bytes 0-99/1234`) or a whole-file one; null when the server does not say. */
function totalSize(response: Response): number | null {
  const range = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '');
  if (range) return Number(range[1]);
  const length = response.headers.get('content-length');
  return response.status === 200 && length !== null && /^\d+$/.test(length) ? Number(length) : null;
}

export interface RemoteOptions {
  readonly fetch?: Fetch;
  /** Bytes read by the first request (default 1 MiB, enough for most headers). */
  readonly firstBytes?: number;
  /** Ends every request (a server that never answers). */
  readonly signal?: AbortSignal;
}

/** A ByteSource over the file at `url`, its first `firstBytes` read. */
export async function remoteGguf(
  url: string,
  { fetch: fetchFn = fetch, firstBytes = 1 << 20, signal }: RemoteOptions = {},
): Promise<ByteSource> {
  const get = async (start: number, end: number): Promise<{ bytes: Uint8Array; response: Response }> => {
    const response = await fetchFn(url, { headers: { Range: `bytes=${start}-${end - 1}` }, ...(signal && { signal }) });
    if (response.status !== 206 && response.status !== 200) {
      await response.body?.cancel().catch(() => {});
      throw new Error(`${url} answered ${response.status} ${response.statusText}`.trim());
    }
    // 206: the body starts at `start`; 200: at the file's first byte.
    return { bytes: await readRange(response, response.status === 206 ? 0 : start, end - start), response };
  };
  const first = await get(0, firstBytes);
  let known = first.bytes;
  // Fewer bytes than asked for: that was the whole file.
  let whole = known.length < firstBytes;
  const size = whole ? known.length : (totalSize(first.response) ?? Number.MAX_SAFE_INTEGER);
  return {
    size,
    slice: (start, end) => ({
      async arrayBuffer() {
        if (end > known.length && !whole) {
          if (start !== 0) return copy((await get(start, end)).bytes);
          known = (await get(0, end)).bytes;
          whole = known.length < end;
        }
        return copy(known.subarray(start, end));
      },
    }),
  };
}

function copy(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
