/**
 * The tab's WebTransports. A browser page cannot read most sites (CORS) nor see the addresses a
 * name resolves to, so the tab's web tools go through what a person configured:
 * - the web companion (`slm serve-web`): each GET is one POST to it with the token, and the
 *   companion makes the GET with the CLI's Node transport (addresses checked, 5 MB, no
 *   redirects followed, so the engine re-checks every hop here as on the CLI);
 * - or, for web_search only, a SearXNG instance that allows this page (CORS): GETs to that
 *   instance's origin and nowhere else, read with the same byte cap, redirects not followed.
 * Every failure is an `HttpFailure` whose text says what to do.
 */
import type { HttpOutcome, HttpRequest, WebTransport } from '../engine/web/transport.ts';
import { readCapped } from './read-capped.ts';
import { COMPANION_COMMAND, COMPANION_PATH, companionRefusalSchema, decodeOutcome } from './companion-wire.ts';

/** Where the companion listens and the token it printed at start. */
export interface CompanionLink {
  readonly url: string;
  readonly token: string;
}

function unreachable(text: string): HttpOutcome {
  return { ok: false, code: 'unreachable', text };
}

function abortedOutcome(signal: AbortSignal, e: unknown): HttpOutcome | null {
  return signal.aborted || (e instanceof Error && e.name === 'AbortError')
    ? { ok: false, code: 'timeout', text: 'deadline reached' }
    : null;
}

/** The transport that asks the companion at `link`; `fetchFn` is injected in tests. */
export function companionTransport(link: CompanionLink, fetchFn: typeof fetch = fetch): WebTransport {
  const base = link.url.replace(/\/+$/, '');
  const where = `the web companion at ${base}`;
  return {
    async request(req: HttpRequest): Promise<HttpOutcome> {
      let res: Response;
      try {
        res = await fetchFn(`${base}${COMPANION_PATH}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${link.token}`, 'content-type': 'application/json' },
          body: JSON.stringify({
            url: req.url,
            accept: req.headers['accept'] ?? '*/*',
            allowPrivate: req.allowPrivate,
          }),
          signal: req.signal,
        });
      } catch (e) {
        return (
          abortedOutcome(req.signal, e) ??
          unreachable(
            `${where} could not be reached, or it does not allow this page (its --origin must be this page's origin). ` +
              `Start it with \`${COMPANION_COMMAND} --origin <this page's origin>\` and check the address in the outside-tools settings.`,
          )
        );
      }
      let value: unknown;
      try {
        value = await res.json();
      } catch (e) {
        return (
          abortedOutcome(req.signal, e) ??
          unreachable(`${where} answered HTTP ${res.status} with no JSON; is that address the companion?`)
        );
      }
      if (!res.ok) {
        const refusal = companionRefusalSchema.safeParse(value);
        const why = refusal.success ? refusal.data.refused : `HTTP ${res.status}`;
        return unreachable(`${where} refused the request: ${why}.`);
      }
      return (
        decodeOutcome(value) ??
        unreachable(`${where} sent an answer this page cannot read; update slm and the page together.`)
      );
    },
  };
}

/**
 * The transport for a SearXNG instance the page reaches itself: requests to `searchUrl`'s origin
 * only (anything else — web_fetch's pages — is answered with what to start instead).
 */
export function searchOnlyTransport(searchUrl: string, fetchFn: typeof fetch = fetch): WebTransport {
  let origin = '';
  try {
    origin = new URL(searchUrl).origin;
  } catch {
    // Left empty: every request is refused below, naming the setting.
  }
  return {
    async request(req: HttpRequest): Promise<HttpOutcome> {
      if (!origin || new URL(req.url).origin !== origin)
        return unreachable(
          `this tab reaches only the search instance ${searchUrl || '(none set)'} by itself; ` +
            `to fetch other pages, start the web companion (\`${COMPANION_COMMAND}\`) and enter its address and token in the outside-tools settings`,
        );
      let res: Response;
      try {
        res = await fetchFn(req.url, {
          headers: { accept: req.headers['accept'] ?? '*/*' },
          redirect: 'manual',
          signal: req.signal,
        });
      } catch (e) {
        return (
          abortedOutcome(req.signal, e) ??
          unreachable(
            `${origin} could not be reached from this page, or it does not allow this page (CORS); use the web companion instead`,
          )
        );
      }
      if (res.type === 'opaqueredirect')
        return unreachable(
          `${origin} answered with a redirect, which this page does not follow by itself; give web_search_url its final address`,
        );
      let body: Uint8Array | null;
      try {
        body = await readCapped(res, req.maxBytes);
      } catch (e) {
        return abortedOutcome(req.signal, e) ?? unreachable(`${origin} closed the connection mid-answer`);
      }
      if (!body) return { ok: false, code: 'too-large', text: `more than ${req.maxBytes} bytes` };
      const headers: Record<string, string> = {};
      res.headers.forEach((v, k) => (headers[k.toLowerCase()] = v));
      return { ok: true, status: res.status, headers, body };
    },
  };
}
