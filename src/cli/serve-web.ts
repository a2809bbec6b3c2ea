/**
 * The web companion `slm serve-web` runs: a loopback HTTP server through which the tab's
 * web_fetch and web_search make their GETs with the CLI's own Node transport (every address
 * checked before it is reached, the body counted against the 5 MB cap, redirects never followed
 * here — the tab's engine re-checks every hop, as on the CLI). A request is answered only when
 * its Host is this loopback address (no DNS rebinding), its Origin is the one page allowed
 * (CORS), and it carries the token made at start; at most `MAX_IN_FLIGHT` run at once, each
 * ended at `MAX_REQUEST_MS`. Loopback and private targets stay refused unless the companion
 * was started with --allow-private *and* the page's request allows them (web_allow_private).
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { MAX_BODY_BYTES } from '../engine/web/fetch-url.ts';
import type { HttpOutcome, WebTransport } from '../engine/web/transport.ts';
import { checkUrl } from '../engine/web/url-policy.ts';
import { parseIPv4 } from '../engine/web/address.ts';
import { COMPANION_PATH, companionRequestSchema, encodeOutcome } from '../platform/companion-wire.ts';
import { nodeWebTransport } from '../platform/node-web.ts';

/** Requests answered at once; more are told to wait (HTTP 429). */
export const MAX_IN_FLIGHT = 8;
/** The longest one request may take, whatever the page asks. */
export const MAX_REQUEST_MS = 60_000;
/** The largest request body read (a URL and two fields). */
const MAX_REQUEST_BYTES = 16 * 1024;

export interface CompanionOptions {
  /** 0: any free port. */
  readonly port: number;
  /** A loopback address (`loopbackHost`); anything else is refused before listening. */
  readonly host: string;
  /** The one page origin allowed, e.g. http://localhost:5173. */
  readonly origin: string;
  /** Let the page's web_allow_private reach loopback and private addresses. */
  readonly allowPrivate: boolean;
  /** One line per request (what was asked, what came back). */
  readonly log?: (line: string) => void;
  /** The transport the GETs go through (default: the CLI's Node transport). */
  readonly transport?: WebTransport;
  /** Per-request deadline (default `MAX_REQUEST_MS`). */
  readonly timeoutMs?: number;
}

export interface Companion {
  /** `http://HOST:PORT`, what the tab's settings take. */
  readonly url: string;
  /** The bearer token every request must carry; made at start, shown once. */
  readonly token: string;
  close(): Promise<void>;
}

/** True for the names and addresses of this machine's loopback interface. */
export function loopbackHost(host: string): boolean {
  const h = host.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h === '::1') return true;
  const n = parseIPv4(h);
  return n !== undefined && Math.floor(n / 2 ** 24) === 127;
}

/** The origin `text` names (scheme, host, port; nothing else), or an error text. */
export function pageOrigin(text: string): { ok: true; origin: string } | { ok: false; text: string } {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return {
      ok: false,
      text: `--origin ${JSON.stringify(text)} is not a URL; give the page's origin, e.g. http://localhost:5173`,
    };
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.pathname !== '/' || url.search || url.hash)
    return {
      ok: false,
      text: `--origin ${JSON.stringify(text)} is not an origin: give scheme, host and port only, e.g. http://localhost:5173`,
    };
  return { ok: true, origin: url.origin };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Reads at most MAX_REQUEST_BYTES of the body; null when it is longer. */
async function readBody(req: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_REQUEST_BYTES) return null;
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const NOT_STARTED_PRIVATE =
  'the web companion was started without --allow-private, so it reaches no loopback or private address ' +
  'whatever the page allows; restart it with `slm serve-web --allow-private` to let web_allow_private take effect';

/** Starts the companion; throws only for options a caller should have checked (a non-loopback host). */
export async function startCompanion(options: CompanionOptions): Promise<Companion> {
  if (!loopbackHost(options.host)) throw new Error(`serve-web binds loopback addresses only, not ${options.host}`);
  const token = randomBytes(24).toString('base64url');
  const tokenDigest = digest(token);
  const transport = options.transport ?? nodeWebTransport;
  const log = options.log ?? (() => {});
  const timeoutMs = Math.min(options.timeoutMs ?? MAX_REQUEST_MS, MAX_REQUEST_MS);
  let inFlight = 0;
  let port = 0;

  const cors = (res: ServerResponse) => {
    res.setHeader('access-control-allow-origin', options.origin);
    res.setHeader('vary', 'Origin');
  };
  const refuse = (res: ServerResponse, status: number, why: string, withCors = true) => {
    if (withCors) cors(res);
    res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
    res.end(JSON.stringify({ refused: why }));
    log(`refused (${status}): ${why}`);
  };

  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const host = (req.headers.host ?? '').toLowerCase();
    const hostName = host.replace(/:\d+$/, '');
    if (!loopbackHost(hostName) || host !== `${hostName}:${port}`)
      return refuse(res, 403, `Host ${JSON.stringify(host)} is not this companion's loopback address`, false);
    const origin = req.headers.origin;
    if (origin !== options.origin)
      return refuse(
        res,
        403,
        origin === undefined
          ? `the request names no Origin; only pages from ${options.origin} may use this companion`
          : `the origin ${origin} is not allowed; this companion answers only ${options.origin} (start it with --origin ${origin} to serve that page)`,
        false,
      );
    if (req.method === 'OPTIONS') {
      cors(res);
      res.writeHead(204, {
        'access-control-allow-methods': 'POST',
        'access-control-allow-headers': 'authorization, content-type',
        'access-control-max-age': '600',
        ...(req.headers['access-control-request-private-network'] && {
          'access-control-allow-private-network': 'true',
        }),
      });
      return res.end();
    }
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path !== COMPANION_PATH)
      return refuse(res, 404, `no such path ${path}; the companion answers POST ${COMPANION_PATH}`);
    if (req.method !== 'POST') return refuse(res, 405, `${req.method} is not answered; send POST ${COMPANION_PATH}`);
    const auth = req.headers.authorization ?? '';
    const given = /^Bearer (\S+)$/.exec(auth)?.[1];
    if (given === undefined)
      return refuse(
        res,
        401,
        'no token: send the token slm serve-web printed at start as "Authorization: Bearer TOKEN"',
      );
    if (!timingSafeEqual(digest(given), tokenDigest))
      return refuse(
        res,
        401,
        'wrong token: enter the token slm serve-web printed at start (a restart makes a new one)',
      );
    if (inFlight >= MAX_IN_FLIGHT)
      return refuse(res, 429, `already ${MAX_IN_FLIGHT} requests in flight; wait for one to end and ask again`);
    inFlight++;
    try {
      const text = await readBody(req);
      if (text === null) return refuse(res, 413, `the request is over ${MAX_REQUEST_BYTES} bytes; send one URL`);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return refuse(res, 400, 'the request is not JSON; send {"url", "accept", "allowPrivate"}');
      }
      const parsed = companionRequestSchema.safeParse(value);
      if (!parsed.success) return refuse(res, 400, 'the request is not {"url", "accept", "allowPrivate"}');
      const outcome = await get(parsed.data.url, parsed.data.accept, parsed.data.allowPrivate, res);
      cors(res);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(encodeOutcome(outcome));
      log(
        `GET ${parsed.data.url} → ${outcome.ok ? `HTTP ${outcome.status}, ${outcome.body.length} bytes` : `${outcome.code}: ${outcome.text}`}`,
      );
    } finally {
      inFlight--;
    }
  };

  /** One GET under the companion's own rules, ended at its deadline or when the page hangs up. */
  const get = async (url: string, accept: string, pageAllows: boolean, res: ServerResponse): Promise<HttpOutcome> => {
    const allowPrivate = pageAllows && options.allowPrivate;
    const checked = checkUrl(url, { ...DEFAULT_SETTINGS, web_allow_private: allowPrivate });
    if (!checked.ok) {
      const text = checked.rule === 'private-address' && pageAllows ? NOT_STARTED_PRIVATE : checked.text;
      return { ok: false, code: checked.rule === 'private-address' ? 'private-address' : 'unreachable', text };
    }
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), timeoutMs);
    const hangUp = () => deadline.abort();
    res.once('close', hangUp);
    try {
      const outcome = await transport.request({
        url: checked.url.href,
        headers: { accept, 'accept-encoding': 'identity', 'user-agent': 'slmcode-playground (web companion)' },
        maxBytes: MAX_BODY_BYTES,
        allowPrivate,
        signal: deadline.signal,
      });
      if (!outcome.ok && outcome.code === 'private-address' && pageAllows && !options.allowPrivate)
        return { ...outcome, text: NOT_STARTED_PRIVATE };
      return outcome;
    } finally {
      clearTimeout(timer);
      res.off('close', hangUp);
    }
  };

  const server = createServer((req, res) => {
    handle(req, res).catch((e: unknown) => {
      if (!res.headersSent) refuse(res, 500, `the companion failed: ${e instanceof Error ? e.message : String(e)}`);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => resolve());
  });
  port = (server.address() as AddressInfo).port;
  const shownHost = options.host.includes(':') ? `[${options.host}]` : options.host;
  return {
    url: `http://${shownHost}:${port}`,
    token,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
