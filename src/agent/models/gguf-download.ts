/**
 * Downloads a GGUF file as a stream of chunks, picking up where it stopped when the connection
 * drops (an HTTP Range request from the bytes already received; a server that ignores Range
 * is read again from the start, the bytes already passed on skipped). An error status is not
 * retried (except the ones a busy server answers), and every failure names the file, the URL
 * and the HTTP status, and says what to do.
 */
import { ModelError } from '../model.ts';
import { ggufFileName } from './gguf-catalog.ts';

export interface DownloadOptions {
  readonly fetch?: typeof fetch;
  readonly signal?: AbortSignal;
  /** Bytes received so far and the file's size (0 while unknown). */
  readonly onProgress?: (loaded: number, total: number) => void;
  /** Attempts after the first one, for dropped connections and busy servers. */
  readonly retries?: number;
  /** Wait before retry n is `backoffMs * 2^(n-1)`. */
  readonly backoffMs?: number;
}

/** Statuses a server answers when it is busy or restarting: worth another try. */
const TRANSIENT = new Set([429, 502, 503, 504]);

export async function* downloadGguf(url: string, o: DownloadOptions = {}): AsyncGenerator<Uint8Array> {
  const fetchFn = o.fetch ?? fetch;
  const retries = o.retries ?? 4;
  const name = ggufFileName(url);
  let loaded = 0;
  let total = 0;
  let failures = 0;
  const retryOrThrow = async (error: () => ModelError) => {
    if (o.signal?.aborted) throw new ModelError('aborted', 'The download was stopped.');
    if (failures++ >= retries) throw error();
    await sleep((o.backoffMs ?? 500) * 2 ** (failures - 1), o.signal);
  };

  for (;;) {
    let res: Response;
    try {
      res = await fetchFn(url, {
        ...(o.signal && { signal: o.signal }),
        ...(loaded > 0 && { headers: { range: `bytes=${loaded}-` } }),
      });
    } catch {
      await retryOrThrow(() =>
        loaded > 0
          ? dropped(name, url, loaded, total, failures)
          : new ModelError(
              'connection',
              `${name} could not be downloaded: ${url} did not answer, or the browser blocked it (the server must allow this page with CORS). Check the URL and your connection, then try again.`,
            ),
      );
      continue;
    }
    if (!res.ok || !res.body) {
      const status = `HTTP ${res.status}${res.statusText ? ` ${res.statusText}` : ''}`;
      if (TRANSIENT.has(res.status)) {
        await retryOrThrow(
          () =>
            new ModelError(
              'http',
              `${name} could not be downloaded: ${url} answered ${status} ${failures} times. The server is busy; try again later.`,
            ),
        );
        continue;
      }
      throw new ModelError(
        'http',
        `${name} could not be downloaded: ${url} answered ${status}.${statusHint(res.status)}`,
      );
    }
    let skip = 0;
    if (res.status === 206) total = totalFromRange(res.headers.get('content-range')) ?? total;
    else {
      skip = loaded; // Range ignored: the whole file again
      total = Number(res.headers.get('content-length')) || total;
    }
    const reader = res.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        let chunk = value;
        if (skip > 0) {
          const cut = Math.min(skip, chunk.byteLength);
          skip -= cut;
          chunk = chunk.subarray(cut);
          if (chunk.byteLength === 0) continue;
        }
        loaded += chunk.byteLength;
        o.onProgress?.(loaded, total);
        yield chunk;
      }
    } catch {
      await retryOrThrow(() => dropped(name, url, loaded, total, failures));
      continue;
    }
    if (total > 0 && loaded < total) {
      await retryOrThrow(() => dropped(name, url, loaded, total, failures));
      continue;
    }
    return;
  }
}

function dropped(name: string, url: string, loaded: number, total: number, times: number): ModelError {
  const at = total > 0 ? `${mb(loaded)} of ${mb(total)}` : mb(loaded);
  return new ModelError(
    'connection',
    `${name} could not be downloaded from ${url}: the connection dropped ${times} times (last at ${at}). Check your connection and try again; the download starts over.`,
  );
}

function statusHint(status: number): string {
  if (status === 401 || status === 403)
    return ' The file needs a login or is gated: use a public copy of the model, or download it yourself and pick the .gguf file from disk.';
  if (status === 404)
    return ' Check the URL: it must point at the .gguf file itself (on Hugging Face, …/resolve/main/FILE.gguf).';
  return ' Check the URL, or download the file yourself and pick it from disk.';
}

function totalFromRange(header: string | null): number | undefined {
  const m = header ? /\/(\d+)\s*$/.exec(header) : null;
  return m ? Number(m[1]) : undefined;
}

function mb(bytes: number): string {
  return `${(bytes / 2 ** 20).toFixed(1)} MB`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => (clearTimeout(t), resolve()), { once: true });
  });
}
