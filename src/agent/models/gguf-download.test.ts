import { describe, expect, it } from 'vitest';
import { downloadGguf } from './gguf-download.ts';

const FILE = Uint8Array.from({ length: 1000 }, (_, i) => i % 251);
const URL_ = 'https://example.org/models/tiny.gguf';

/** A body that sends `upTo` bytes of `bytes`, then fails like a dropped connection (or ends, when upTo covers it). */
function body(bytes: Uint8Array, upTo = bytes.length): ReadableStream<Uint8Array> {
  let sent = false;
  return new ReadableStream({
    pull(c) {
      if (!sent) {
        sent = true;
        c.enqueue(bytes.slice(0, Math.min(upTo, bytes.length)));
        return;
      }
      if (upTo < bytes.length) c.error(new TypeError('network error'));
      else c.close();
    },
  });
}

/** A server that honours Range (or ignores it), dropping the connection after `dropAt` bytes on the first `drops` answers. */
function server(o: { drops?: number; dropAt?: number; range?: boolean; status?: number[] } = {}) {
  const calls: (string | null)[] = [];
  const statuses = [...(o.status ?? [])];
  let drops = o.drops ?? 0;
  const fetchFn = (async (_url: string, init?: RequestInit) => {
    const range = (init?.headers as Record<string, string> | undefined)?.range ?? null;
    calls.push(range);
    const status = statuses.shift();
    if (status) return new Response(null, { status, statusText: status === 404 ? 'Not Found' : 'Service Unavailable' });
    const from = range && o.range !== false ? Number(/bytes=(\d+)-/.exec(range)![1]) : 0;
    const part = FILE.subarray(from);
    const upTo = drops-- > 0 ? (o.dropAt ?? 300) : part.length;
    const headers: Record<string, string> =
      from > 0
        ? { 'content-range': `bytes ${from}-${FILE.length - 1}/${FILE.length}` }
        : { 'content-length': String(FILE.length) };
    return new Response(body(part, upTo), { status: from > 0 ? 206 : 200, headers });
  }) as typeof fetch;
  return { fetchFn, calls };
}

async function collect(gen: AsyncGenerator<Uint8Array>): Promise<Uint8Array> {
  const parts: Uint8Array[] = [];
  for await (const p of gen) parts.push(p);
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, (at += p.length) - p.length);
  return out;
}

describe('downloadGguf', () => {
  it('resumes a dropped connection with a Range request, the bytes whole and in order', async () => {
    const s = server({ drops: 2, dropAt: 300 });
    const progress: number[] = [];
    const got = await collect(
      downloadGguf(URL_, { fetch: s.fetchFn, backoffMs: 0, onProgress: (loaded) => progress.push(loaded) }),
    );
    expect(got).toEqual(FILE);
    expect(s.calls).toEqual([null, 'bytes=300-', 'bytes=600-']);
    expect(progress.at(-1)).toBe(1000);
  });

  it('a server that ignores Range is read from the start again, the bytes already passed on skipped', async () => {
    const s = server({ drops: 1, dropAt: 400, range: false });
    expect(await collect(downloadGguf(URL_, { fetch: s.fetchFn, backoffMs: 0 }))).toEqual(FILE);
    expect(s.calls).toEqual([null, 'bytes=400-']);
  });

  it('retries a busy server, then succeeds', async () => {
    const s = server({ status: [503, 503] });
    expect(await collect(downloadGguf(URL_, { fetch: s.fetchFn, backoffMs: 0 }))).toEqual(FILE);
    expect(s.calls).toHaveLength(3);
  });

  it.each([
    [
      '404 names the file, the URL and the status, and is not retried',
      { status: [404] },
      /^tiny\.gguf could not be downloaded: https:\/\/example\.org\/models\/tiny\.gguf answered HTTP 404 Not Found\. Check the URL/,
      1,
    ],
    [
      'too many drops say how far it got',
      { drops: 9, dropAt: 100 },
      /connection dropped 3 times \(last at 0\.0 MB of 0\.0 MB\)/,
      3,
    ],
  ])('%s', async (_, o, message, calls) => {
    const s = server(o);
    const e = await collect(downloadGguf(URL_, { fetch: s.fetchFn, backoffMs: 0, retries: 2 })).catch(
      (x: unknown) => x,
    );
    expect((e as Error).message).toMatch(message);
    expect(s.calls).toHaveLength(calls);
  });

  it('no answer at all says CORS or the connection, with the file name', async () => {
    const fetchFn = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    const e = await collect(downloadGguf(URL_, { fetch: fetchFn, backoffMs: 0, retries: 1 })).catch((x: unknown) => x);
    expect((e as Error).message).toMatch(
      /^tiny\.gguf could not be downloaded: .* did not answer, or the browser blocked it \(the server must allow this page with CORS\)/,
    );
  });
});
