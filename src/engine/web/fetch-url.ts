/**
 * One bounded GET over the host's transport, as web_fetch and web_search make it: every URL
 * checked by `checkUrl`, at most `MAX_REDIRECTS` redirects each checked again, one deadline for
 * the whole call (a slow-loris server ends at it), a body cap of `MAX_BODY_BYTES` counted while
 * the body streams, and only text types decoded. Every way it can end is a value with a message.
 */
import type { EngineSettings } from '../settings.ts';
import type { HttpReply, WebTransport } from './transport.ts';
import { checkUrl } from './url-policy.ts';

/** Redirects followed before the call is given up. */
export const MAX_REDIRECTS = 5;
/** The largest body read, in bytes. */
export const MAX_BODY_BYTES = 5 * 1024 * 1024;

export interface FetchedText {
  readonly ok: true;
  /** The URL the text came from, after redirects. */
  readonly url: string;
  readonly status: number;
  /** The media type, lower case, without parameters. */
  readonly type: string;
  readonly text: string;
  readonly bytes: number;
}

export interface FetchFailure {
  readonly ok: false;
  readonly text: string;
  /** The rule that ended the call (url-scheme, private-address, redirects, too-large, timeout, type, http-status, unreachable). */
  readonly rule: string;
}

export type FetchOutcome = FetchedText | FetchFailure;

const TEXT_TYPES = new Set([
  'application/xhtml+xml',
  'application/json',
  'application/xml',
  'application/rss+xml',
  'application/atom+xml',
  'application/javascript',
  'application/x-javascript',
  'application/ld+json',
]);

/** True for media types whose body is text: text/*, the XML, JSON and JavaScript types. */
export function isTextType(type: string): boolean {
  return type.startsWith('text/') || TEXT_TYPES.has(type) || type.endsWith('+json') || type.endsWith('+xml');
}

function fail(rule: string, text: string): FetchFailure {
  return { ok: false, rule, text };
}

function mediaType(reply: HttpReply): { type: string; charset: string } {
  const ct = reply.headers['content-type'] ?? '';
  const [type = '', ...params] = ct.split(';').map((s) => s.trim());
  const cs = params.find((p) => p.toLowerCase().startsWith('charset='));
  return { type: type.toLowerCase(), charset: cs ? cs.slice(8).replace(/^"|"$/g, '') : 'utf-8' };
}

function decode(body: Uint8Array, charset: string): string {
  try {
    return new TextDecoder(charset).decode(body);
  } catch {
    return new TextDecoder('utf-8').decode(body);
  }
}

/** A body with no content type is read as text only when it holds no NUL byte in its first 1 KB. */
function looksBinary(body: Uint8Array): boolean {
  return body.subarray(0, 1024).includes(0);
}

/** GETs `start` under `settings` through `transport`, with `accept` as the Accept header. */
export async function fetchText(
  transport: WebTransport,
  start: string,
  settings: EngineSettings,
  accept = 'text/html, text/plain;q=0.9, */*;q=0.5',
): Promise<FetchOutcome> {
  const deadline = new AbortController();
  const seconds = (settings.web_timeout / 1000).toFixed(1).replace(/\.0$/, '');
  const timer = setTimeout(() => deadline.abort(), settings.web_timeout);
  try {
    let url = start;
    for (let hop = 0; ; hop++) {
      const checked = checkUrl(url, settings);
      if (!checked.ok) return fail(checked.rule, hop ? `redirect to ${url} refused: ${checked.text}` : checked.text);
      const req = {
        url: checked.url.href,
        headers: { accept, 'accept-encoding': 'identity', 'user-agent': 'slmcode-playground (web_fetch)' },
        maxBytes: MAX_BODY_BYTES,
        allowPrivate: settings.web_allow_private,
        signal: deadline.signal,
      };
      const reply = await Promise.race([transport.request(req), aborted(deadline.signal)]);
      if (!reply.ok) {
        if (reply.code === 'timeout' || deadline.signal.aborted)
          return fail(
            'timeout',
            `${checked.url.host} did not finish answering within ${seconds} s (web_timeout), so the call was ended. ` +
              `The server may be slow or stalling; try another source.`,
          );
        if (reply.code === 'too-large')
          return fail(
            'too-large',
            `${checked.url.href} sends more than ${MAX_BODY_BYTES / 1024 / 1024} MB, the most web_fetch reads; reading stopped there. ` +
              `Look for a smaller page (a summary, one section, or the raw text of one file).`,
          );
        return fail(reply.code, reply.text);
      }
      if (reply.status >= 300 && reply.status < 400 && reply.headers['location'] !== undefined) {
        if (hop >= MAX_REDIRECTS)
          return fail(
            'redirects',
            `${start} redirected more than ${MAX_REDIRECTS} times (last to ${url}); it was not followed further. ` +
              `The page may loop; fetch its final address directly if you know it.`,
          );
        url = new URL(reply.headers['location'], checked.url).href;
        continue;
      }
      return readBody(checked.url.href, reply);
    }
  } finally {
    clearTimeout(timer);
  }
}

function readBody(url: string, reply: HttpReply): FetchOutcome {
  const { type, charset } = mediaType(reply);
  if (reply.status >= 400) {
    const why = reply.status === 429 ? ' (rate-limited: too many requests; wait before asking again)' : '';
    return fail('http-status', `${url} answered HTTP ${reply.status}${why}. Try another page or source.`);
  }
  if (type ? !isTextType(type) : looksBinary(reply.body)) {
    return fail(
      'type',
      `${url} is ${type || 'binary data'}, not a text page; web_fetch reads HTML, plain text, Markdown, JSON and XML only.`,
    );
  }
  return { ok: true, url, status: reply.status, type, text: decode(reply.body, charset), bytes: reply.body.length };
}

/** Settles with a timeout failure when `signal` aborts, so a transport that ignores it cannot hold the call. */
function aborted(signal: AbortSignal): Promise<{ ok: false; code: 'timeout'; text: string }> {
  return new Promise((resolve) => {
    const done = () => resolve({ ok: false, code: 'timeout', text: 'deadline' });
    if (signal.aborted) done();
    else signal.addEventListener('abort', done, { once: true });
  });
}
