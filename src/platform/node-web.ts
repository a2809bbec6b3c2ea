/**
 * The Node host's WebTransport: one GET with node:http/node:https. The connection's address
 * comes from a `lookup` of our own that resolves every address of the name and refuses the name
 * when any of them is private (unless the request allows private addresses), then connects to an
 * address it checked — so what was checked is what is reached, and a name that resolves to a
 * public and a private address cannot slip through. The body is counted while it streams and the
 * socket destroyed past the cap; the request's signal ends it at the caller's deadline.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isPrivateAddress } from '../engine/web/address.ts';
import type { HttpOutcome, HttpRequest, WebTransport } from '../engine/web/transport.ts';
import { privateText } from '../engine/web/url-policy.ts';

/** A failure found inside the lookup, carried out through the request's error. */
class AddressRefused extends Error {
  readonly code = 'ESLMPRIVATE';
}

function checkedLookup(allowPrivate: boolean): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { all: true, family: options.family ?? 0 }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      if (!addresses.length) return callback(new Error(`${hostname} has no address`), '', 0);
      const bad = allowPrivate ? undefined : addresses.find((a) => isPrivateAddress(a.address));
      if (bad) return callback(new AddressRefused(privateText(hostname, bad.address)), '', 0);
      if (options.all) return callback(null, addresses as never);
      callback(null, addresses[0]!.address, addresses[0]!.family);
    });
  };
}

function headersOf(res: IncomingMessage): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(res.headers)) {
    if (v !== undefined) out[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
  }
  return out;
}

/** One GET of `req.url`, redirects not followed. */
export function nodeRequest(req: HttpRequest): Promise<HttpOutcome> {
  return new Promise((resolve) => {
    let settled = false;
    const done = (o: HttpOutcome) => {
      if (settled) return;
      settled = true;
      resolve(o);
    };
    const url = new URL(req.url);
    const host = url.hostname.replace(/^\[|\]$/g, '');
    // A literal address is never looked up, so it is checked here.
    if (isIP(host) && !req.allowPrivate && isPrivateAddress(host)) {
      return done({ ok: false, code: 'private-address', text: privateText(host, host) });
    }
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const r = send(url, {
      method: 'GET',
      headers: req.headers,
      lookup: checkedLookup(req.allowPrivate),
      signal: req.signal,
    });
    r.on('response', (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (size > req.maxBytes) {
          r.destroy();
          return done({ ok: false, code: 'too-large', text: `more than ${req.maxBytes} bytes` });
        }
        chunks.push(chunk);
      });
      res.on('end', () =>
        done({
          ok: true,
          status: res.statusCode ?? 0,
          headers: headersOf(res),
          body: new Uint8Array(Buffer.concat(chunks)),
        }),
      );
      res.on('error', (e) => done(failure(e, req)));
      res.on('aborted', () => done(failure(new Error('the connection was closed mid-answer'), req)));
    });
    r.on('error', (e) => done(failure(e, req)));
    r.end();
  });
}

function failure(e: Error, req: HttpRequest): HttpOutcome {
  if (e instanceof AddressRefused) return { ok: false, code: 'private-address', text: e.message };
  if (req.signal.aborted || e.name === 'AbortError') return { ok: false, code: 'timeout', text: 'deadline reached' };
  const host = new URL(req.url).host;
  const code = (e as NodeJS.ErrnoException).code;
  const why =
    code === 'ENOTFOUND'
      ? `the name ${host} does not resolve`
      : code === 'ECONNREFUSED'
        ? `${host} refused the connection`
        : `${host} could not be reached (${e.message})`;
  return { ok: false, code: 'unreachable', text: `${why}. Check the address, or try another source.` };
}

/** The Node host's transport. */
export const nodeWebTransport: WebTransport = { request: nodeRequest };
