/**
 * fetchText's policy over a scripted transport (a public web cannot be reached from a test): a
 * redirect is checked again at every hop — to a private address, off the allowlist, to another
 * scheme — and the Node transport itself refuses a name that resolves to a private address, so
 * the address checked is the address reached.
 */
import { describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS, type EngineSettings } from '../../src/engine/settings.ts';
import { fetchText } from '../../src/engine/web/fetch-url.ts';
import type { HttpOutcome, HttpRequest, WebTransport } from '../../src/engine/web/transport.ts';
import { nodeRequest } from '../../src/platform/node-web.ts';

/** Answers each URL from a table; records every request. */
function scripted(table: Record<string, HttpOutcome>): WebTransport & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    request: async (req: HttpRequest) => {
      asked.push(req.url);
      return table[req.url] ?? { ok: false, code: 'unreachable', text: `no such page ${req.url}` };
    },
  };
}

const redirect = (to: string): HttpOutcome => ({
  ok: true,
  status: 301,
  headers: { location: to },
  body: new Uint8Array(),
});
const page = (text: string): HttpOutcome => ({
  ok: true,
  status: 200,
  headers: { 'content-type': 'text/plain' },
  body: new TextEncoder().encode(text),
});

const ROWS: readonly {
  rule: string;
  to: string;
  settings?: Partial<EngineSettings>;
  refused: string;
  says: RegExp;
}[] = [
  {
    rule: 'a public page redirecting to loopback',
    to: 'http://127.0.0.1/admin',
    refused: 'private-address',
    says: /redirect to http:\/\/127\.0\.0\.1\/admin refused: 127\.0\.0\.1 is a loopback/,
  },
  {
    rule: 'a public page redirecting to cloud metadata',
    to: 'http://169.254.169.254/latest/meta-data/',
    refused: 'private-address',
    says: /169\.254\.169\.254 is a loopback or private-network address/,
  },
  {
    rule: 'a public page redirecting to an IPv6-mapped loopback',
    to: 'http://[::ffff:127.0.0.1]/',
    refused: 'private-address',
    says: /is a loopback or private-network address/,
  },
  {
    rule: 'a public page redirecting off the allowlist',
    to: 'https://evil.test/x',
    settings: { web_domains: ['docs.example'] },
    refused: 'url-domain',
    says: /evil\.test is not on this session's web_domains allowlist \(docs\.example\)/,
  },
  {
    rule: 'a public page redirecting to javascript:',
    to: 'javascript:alert(1)',
    refused: 'url-scheme',
    says: /the javascript: scheme is not fetched/,
  },
];

describe('fetchText re-checks every redirect', () => {
  it.each(ROWS)('$rule', async (row) => {
    const t = scripted({ 'https://docs.example/start': redirect(row.to) });
    const got = await fetchText(t, 'https://docs.example/start', { ...DEFAULT_SETTINGS, ...row.settings });
    expect(got.ok).toBe(false);
    if (!got.ok) {
      expect(got.rule).toBe(row.refused);
      expect(got.text).toMatch(row.says);
    }
    expect(t.asked).toEqual(['https://docs.example/start']);
  });

  it('follows an allowed redirect to a subdomain on the allowlist', async () => {
    const t = scripted({
      'https://docs.example/start': redirect('https://api.docs.example/page'),
      'https://api.docs.example/page': page('hello'),
    });
    const got = await fetchText(t, 'https://docs.example/start', {
      ...DEFAULT_SETTINGS,
      web_domains: ['docs.example'],
    });
    expect(got).toMatchObject({ ok: true, url: 'https://api.docs.example/page', text: 'hello' });
  });
});

describe('the Node transport', () => {
  it('refuses a name that resolves to loopback, before connecting', async () => {
    const got = await nodeRequest({
      url: 'http://localhost:9/',
      headers: {},
      maxBytes: 1000,
      allowPrivate: false,
      signal: new AbortController().signal,
    });
    expect(got).toMatchObject({ ok: false, code: 'private-address' });
    if (!got.ok) expect(got.text).toMatch(/^localhost \((127\.0\.0\.1|::1)\) is a loopback/);
  });

  it('refuses a literal private address, before connecting', async () => {
    const got = await nodeRequest({
      url: 'http://10.0.0.1/',
      headers: {},
      maxBytes: 1000,
      allowPrivate: false,
      signal: new AbortController().signal,
    });
    expect(got).toMatchObject({ ok: false, code: 'private-address' });
  });
});
