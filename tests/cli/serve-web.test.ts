/**
 * The web companion (`slm serve-web`) against the loopback web fixture: one row per rule of the
 * issue — the page's origin only (CORS), the token on every request, loopback binds only, the
 * Host a loopback name (no DNS rebinding) — and per bound it holds for whoever has the token:
 * http(s) only, private addresses only when started with --allow-private and asked for, the
 * 5 MB body, the deadline, redirects never followed, the request size, requests in flight.
 */
import { request } from 'node:http';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_IN_FLIGHT, startCompanion, type Companion } from '../../src/cli/serve-web.ts';
import { serveWeb } from '../../src/cli/commands/serve-web.ts';
import { runSlm } from '../../src/cli/slm.ts';
import { COMPANION_PATH, decodeOutcome } from '../../src/platform/companion-wire.ts';
import { startWebFixture, type WebFixture } from '../support/web-fixtures.ts';

const ORIGIN = 'http://localhost:4306';

let fx: WebFixture;
/** Started with --allow-private. */
let open: Companion;
/** Started without it. */
let closed: Companion;
beforeAll(async () => {
  fx = await startWebFixture();
  open = await startCompanion({ port: 0, host: '127.0.0.1', origin: ORIGIN, allowPrivate: true, timeoutMs: 1500 });
  closed = await startCompanion({ port: 0, host: '127.0.0.1', origin: ORIGIN, allowPrivate: false });
});
afterAll(async () => {
  await Promise.all([open.close(), closed.close(), fx.close()]);
});

interface Raw {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: string;
}

/** One request with exactly these headers (Host and Origin included), as a browser or an attacker could send. */
function raw(
  companion: Companion,
  opts: { method?: string; path?: string; headers?: Record<string, string>; body?: string },
): Promise<Raw> {
  const url = new URL(companion.url);
  return new Promise((resolve, reject) => {
    const r = request(
      {
        host: url.hostname,
        port: url.port,
        method: opts.method ?? 'POST',
        path: opts.path ?? COMPANION_PATH,
        headers: { host: url.host, ...opts.headers },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString('utf8')));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    r.on('error', reject);
    r.end(opts.body);
  });
}

/** A well-formed request for `url`, from the allowed page with the right token. */
function ask(companion: Companion, url: string, allowPrivate = true, extra: Record<string, string> = {}) {
  return raw(companion, {
    headers: {
      origin: ORIGIN,
      authorization: `Bearer ${companion.token}`,
      'content-type': 'application/json',
      ...extra,
    },
    body: JSON.stringify({ url, accept: 'text/html', allowPrivate }),
  });
}

function outcomeOf(r: Raw) {
  const o = decodeOutcome(JSON.parse(r.body));
  if (!o) throw new Error(`not an outcome: ${r.body.slice(0, 200)}`);
  return o;
}

describe('serve-web: who may ask', () => {
  const rows: readonly {
    rule: string;
    send: () => Promise<Raw>;
    status: number;
    says?: RegExp;
    cors: boolean;
  }[] = [
    {
      rule: 'the page at the allowed origin with the token is answered, with CORS for that origin',
      send: () => ask(open, `${fx.base}/text`),
      status: 200,
      cors: true,
    },
    {
      rule: 'another origin is refused, without CORS headers',
      send: () => ask(open, `${fx.base}/text`, true, { origin: 'https://evil.example' }),
      status: 403,
      says: /the origin https:\/\/evil\.example is not allowed; this companion answers only http:\/\/localhost:4306/,
      cors: false,
    },
    {
      rule: 'a request naming no origin is refused',
      send: () =>
        raw(open, {
          headers: { authorization: `Bearer ${open.token}` },
          body: JSON.stringify({ url: `${fx.base}/text`, accept: '*/*', allowPrivate: true }),
        }),
      status: 403,
      says: /names no Origin/,
      cors: false,
    },
    {
      rule: 'a missing token is refused',
      send: () =>
        raw(open, {
          headers: { origin: ORIGIN },
          body: JSON.stringify({ url: fx.base, accept: '', allowPrivate: true }),
        }),
      status: 401,
      says: /no token/,
      cors: true,
    },
    {
      rule: 'a wrong token is refused',
      send: () => ask(open, `${fx.base}/text`, true, { authorization: `Bearer ${closed.token}` }),
      status: 401,
      says: /wrong token/,
      cors: true,
    },
    {
      rule: 'a Host that is not a loopback name (DNS rebinding) is refused',
      send: () => ask(open, `${fx.base}/text`, true, { host: `rebind.example:${new URL(open.url).port}` }),
      status: 403,
      says: /is not this companion's loopback address/,
      cors: false,
    },
    {
      rule: 'the preflight of the allowed origin names the method and headers',
      send: () =>
        raw(open, {
          method: 'OPTIONS',
          headers: { origin: ORIGIN, 'access-control-request-method': 'POST' },
        }),
      status: 204,
      cors: true,
    },
    {
      rule: 'the preflight of another origin is refused',
      send: () => raw(open, { method: 'OPTIONS', headers: { origin: 'http://localhost:9999' } }),
      status: 403,
      cors: false,
    },
    {
      rule: 'another path is not answered',
      send: () => raw(open, { path: '/etc', headers: { origin: ORIGIN, authorization: `Bearer ${open.token}` } }),
      status: 404,
      says: /answers POST \/v1\/get/,
      cors: true,
    },
    {
      rule: 'another method is not answered',
      send: () => raw(open, { method: 'GET', headers: { origin: ORIGIN, authorization: `Bearer ${open.token}` } }),
      status: 405,
      cors: true,
    },
    {
      rule: 'a request body over 16 KB is refused',
      send: () =>
        raw(open, {
          headers: { origin: ORIGIN, authorization: `Bearer ${open.token}` },
          body: 'x'.repeat(20_000),
        }),
      status: 413,
      cors: true,
    },
    {
      rule: 'a body that is not the request shape is refused',
      send: () =>
        raw(open, {
          headers: { origin: ORIGIN, authorization: `Bearer ${open.token}` },
          body: JSON.stringify({ url: fx.base, method: 'DELETE' }),
        }),
      status: 400,
      says: /not \{"url", "accept", "allowPrivate"\}/,
      cors: true,
    },
  ];
  for (const row of rows) {
    it(row.rule, async () => {
      const r = await row.send();
      expect(r.status).toBe(row.status);
      expect(r.headers['access-control-allow-origin']).toBe(row.cors ? ORIGIN : undefined);
      if (row.says) expect(JSON.parse(r.body).refused).toMatch(row.says);
      if (row.status === 204) {
        expect(r.headers['access-control-allow-methods']).toBe('POST');
        expect(r.headers['access-control-allow-headers']).toContain('authorization');
      }
    });
  }
});

describe('serve-web: the bounds each request is held to', () => {
  const rows: readonly {
    rule: string;
    companion: () => Companion;
    url: (base: string) => string;
    allowPrivate?: boolean;
    /** The outcome: an HTTP status or a failure code. */
    expect: number | string;
    says?: RegExp;
    within: number;
  }[] = [
    { rule: 'a text page comes back whole', companion: () => open, url: (b) => `${b}/text`, expect: 200, within: 2000 },
    {
      rule: 'a redirect is handed back, not followed (the engine re-checks every hop)',
      companion: () => open,
      url: (b) => `${b}/loop`,
      expect: 302,
      within: 2000,
    },
    {
      rule: 'a 10 GB body stops at 5 MB',
      companion: () => open,
      url: (b) => `${b}/huge`,
      expect: 'too-large',
      within: 5000,
    },
    {
      rule: 'a slow-loris server ends at the deadline',
      companion: () => open,
      url: (b) => `${b}/slow`,
      expect: 'timeout',
      within: 4000,
    },
    {
      rule: 'a file: URL is refused before anything is fetched',
      companion: () => open,
      url: () => 'file:///etc/passwd',
      expect: 'unreachable',
      says: /the file: scheme is not fetched/,
      within: 500,
    },
    {
      rule: 'loopback is refused when the page does not allow private addresses',
      companion: () => open,
      url: (b) => `${b}/text`,
      allowPrivate: false,
      expect: 'private-address',
      says: /loopback or private-network address/,
      within: 500,
    },
    {
      rule: 'loopback is refused by a companion started without --allow-private, whatever the page allows',
      companion: () => closed,
      url: (b) => `${b}/text`,
      expect: 'private-address',
      says: /started without --allow-private/,
      within: 500,
    },
    {
      rule: 'a name that resolves to loopback is refused the same way',
      companion: () => closed,
      url: (b) => b.replace('127.0.0.1', 'localhost') + '/text',
      expect: 'private-address',
      says: /started without --allow-private/,
      within: 500,
    },
  ];
  for (const row of rows) {
    it(row.rule, async () => {
      const t0 = Date.now();
      const o = outcomeOf(await ask(row.companion(), row.url(fx.base), row.allowPrivate ?? true));
      expect(Date.now() - t0).toBeLessThan(row.within);
      if (typeof row.expect === 'number') {
        expect(o.ok && o.status).toBe(row.expect);
      } else {
        expect(o.ok ? `HTTP ${o.status}` : o.code).toBe(row.expect);
        if (row.says && !o.ok) expect(o.text).toMatch(row.says);
      }
    });
  }

  it(`answers at most ${MAX_IN_FLIGHT} requests at once; the next is told to wait`, async () => {
    const silent = Array.from({ length: MAX_IN_FLIGHT }, () => ask(open, `${fx.base}/silent`));
    await new Promise((r) => setTimeout(r, 200));
    const extra = await ask(open, `${fx.base}/text`);
    expect(extra.status).toBe(429);
    expect(JSON.parse(extra.body).refused).toMatch(/requests in flight; wait/);
    const ended = await Promise.all(silent);
    expect(ended.map((r) => outcomeOf(r)).every((o) => !o.ok && o.code === 'timeout')).toBe(true);
    expect((await ask(open, `${fx.base}/text`)).status).toBe(200);
  });
});

function io() {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = '';
  let err = '';
  stdout.on('data', (c: Buffer) => (out += c.toString()));
  stderr.on('data', (c: Buffer) => (err += c.toString()));
  return { io: { stdin: new PassThrough(), stdout, stderr }, out: () => out, err: () => err };
}

describe('slm serve-web: the command line', () => {
  const refused: readonly { rule: string; args: string[]; says: RegExp }[] = [
    {
      rule: 'a bind to every interface is refused',
      args: ['--host', '0.0.0.0'],
      says: /--host 0\.0\.0\.0 is not a loopback address/,
    },
    { rule: 'a bind to a LAN address is refused', args: ['--host', '192.168.1.5'], says: /not a loopback address/ },
    { rule: 'an IPv6 wildcard bind is refused', args: ['--host', '::'], says: /not a loopback address/ },
    {
      rule: 'an origin with a path is refused',
      args: ['--origin', 'http://localhost:5173/app'],
      says: /is not an origin/,
    },
    { rule: 'a port that is not a number is refused', args: ['--port', 'http'], says: /is not a port number/ },
    { rule: 'an unknown option is refused', args: ['--public'], says: /Unknown option/ },
  ];
  for (const row of refused) {
    it(`${row.rule} (exit 2, nothing served)`, async () => {
      const s = io();
      expect(await runSlm(['serve-web', ...row.args], s.io)).toBe(2);
      expect(s.err()).toMatch(row.says);
      expect(s.err()).toContain('usage:\n  slm serve-web');
    });
  }

  it('slm help serve-web and --help print its usage', async () => {
    for (const argv of [
      ['help', 'serve-web'],
      ['serve-web', '--help'],
    ]) {
      const s = io();
      expect(await runSlm(argv, s.io)).toBe(0);
      expect(s.out()).toMatch(/^usage:\n {2}slm serve-web \[--port 8787\]/);
      expect(s.out()).toContain('--allow-private');
    }
  });

  it('serves until stopped: prints the address and the token once, logs each request, exits 0', async () => {
    const s = io();
    let stop!: () => void;
    const done = serveWeb(['--port', '0', '--origin', ORIGIN, '--allow-private'], s.io, new Promise((r) => (stop = r)));
    await expect.poll(() => s.out(), { timeout: 3000 }).toContain('token: ');
    const url = /^url: (\S+)$/m.exec(s.out())![1]!;
    const token = /^token: (\S+)$/m.exec(s.out())![1]!;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(s.out().match(new RegExp(token, 'g'))).toHaveLength(1);
    const o = outcomeOf(await ask({ url, token, close: async () => {} }, `${fx.base}/text`));
    expect(o.ok && new TextDecoder().decode(o.body)).toContain('plain words');
    expect(s.err()).toMatch(/GET http:\/\/127\.0\.0\.1:\d+\/text → HTTP 200, 31 bytes/);
    stop();
    expect(await done).toBe(0);
  });

  it('a port in use is said and exits 1', async () => {
    const s = io();
    const port = new URL(open.url).port;
    expect(await serveWeb(['--port', port], s.io, Promise.resolve())).toBe(1);
    expect(s.err()).toContain(`port ${port} is already in use on 127.0.0.1; pick another with --port`);
  });
});
