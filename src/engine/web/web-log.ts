/**
 * What a session keeps of the web: every request a web tool made, with the answer's status, the
 * headers the engine reads and the body's bytes (base64), or the failure. The engine records
 * through `recordingTransport`; a replay answers from the record through `replayTransport`, so
 * a step that fetched reproduces offline, byte for byte, and never reaches the network.
 */
import type { HttpOutcome, HttpRequest, WebTransport } from './transport.ts';

/** One request and its answer, as a session records it. */
export interface WebExchange {
  readonly url: string;
  readonly status?: number;
  /** content-type and location only: the headers the engine reads. */
  readonly headers?: Readonly<Record<string, string>>;
  /** The body, base64. */
  readonly body?: string;
  /** When there was no answer: the transport's failure. */
  readonly failure?: { readonly code: string; readonly text: string };
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Standard base64 of `bytes`. */
export function toBase64(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i]! << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    out += B64[(n >> 18) & 63]! + B64[(n >> 12) & 63]!;
    out += i + 1 < bytes.length ? B64[(n >> 6) & 63]! : '=';
    out += i + 2 < bytes.length ? B64[n & 63]! : '=';
  }
  return out;
}

/** The bytes of standard base64 `text` (characters outside the alphabet are skipped). */
export function fromBase64(text: string): Uint8Array {
  const clean = text.replace(/[^A-Za-z0-9+/]/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let j = 0;
  for (let i = 0; i < clean.length; i += 4) {
    const n =
      (B64.indexOf(clean[i]!) << 18) |
      (B64.indexOf(clean[i + 1] ?? 'A') << 12) |
      (B64.indexOf(clean[i + 2] ?? 'A') << 6) |
      B64.indexOf(clean[i + 3] ?? 'A');
    if (j < out.length) out[j++] = (n >> 16) & 255;
    if (j < out.length) out[j++] = (n >> 8) & 255;
    if (j < out.length) out[j++] = n & 255;
  }
  return out;
}

const KEPT_HEADERS = ['content-type', 'location'];

function exchangeOf(url: string, o: HttpOutcome): WebExchange {
  if (!o.ok) return { url, failure: { code: o.code, text: o.text } };
  const headers = Object.fromEntries(
    KEPT_HEADERS.filter((h) => o.headers[h] !== undefined).map((h) => [h, o.headers[h]!]),
  );
  return { url, status: o.status, headers, body: toBase64(o.body) };
}

/** `inner`, with every request and its answer appended to `log`. */
export function recordingTransport(inner: WebTransport, log: WebExchange[]): WebTransport {
  return {
    async request(req: HttpRequest) {
      const outcome = await inner.request(req);
      log.push(exchangeOf(req.url, outcome));
      return outcome;
    },
  };
}

/** A transport that answers from `exchanges` (each used once, by URL, in order) and never reaches the network. */
export function replayTransport(exchanges: readonly WebExchange[]): WebTransport & { readonly answered: () => number } {
  const used = new Set<number>();
  return {
    answered: () => used.size,
    async request(req: HttpRequest): Promise<HttpOutcome> {
      const i = exchanges.findIndex((e, k) => !used.has(k) && e.url === req.url);
      if (i < 0)
        return {
          ok: false,
          code: 'unreachable',
          text: `${req.url} is not in the session's record, and a replay never fetches; the replayed step asked for a page the recorded one did not`,
        };
      used.add(i);
      const e = exchanges[i]!;
      if (e.failure) {
        const code = e.failure.code;
        const known = code === 'private-address' || code === 'too-large' || code === 'timeout' ? code : 'unreachable';
        return { ok: false, code: known, text: e.failure.text };
      }
      return { ok: true, status: e.status ?? 200, headers: e.headers ?? {}, body: fromBase64(e.body ?? '') };
    },
  };
}
