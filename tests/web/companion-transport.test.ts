/**
 * The tab's web transports with the real engine on top, against the loopback fixture: through
 * the web companion, web_fetch and web_search keep every rule they have on the CLI (redirects
 * re-checked and counted by the engine, the 5 MB cap, the deadline, the outside mark), and each
 * way the companion can be missing or misconfigured is a result that says what to do; a SearXNG
 * instance reached directly answers web_search and nothing else.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startCompanion, type Companion } from '../../src/cli/serve-web.ts';
import { createEngine } from '../../src/engine/create.ts';
import type { EngineSettings } from '../../src/engine/settings.ts';
import type { WebTransport } from '../../src/engine/web/transport.ts';
import { companionTransport, searchOnlyTransport } from '../../src/platform/companion-web.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { startWebFixture, type WebFixture } from '../support/web-fixtures.ts';

const ORIGIN = 'http://localhost:4306';

let fx: WebFixture;
let companion: Companion;
beforeAll(async () => {
  fx = await startWebFixture();
  companion = await startCompanion({ port: 0, host: '127.0.0.1', origin: ORIGIN, allowPrivate: true });
});
afterAll(async () => {
  await Promise.all([companion.close(), fx.close()]);
});

/** fetch as the page's worker makes it: with the page's Origin (Node's fetch sends none of its own). */
const fromPage: typeof fetch = (input, init) =>
  fetch(input, { ...init, headers: { ...(init?.headers as Record<string, string>), origin: ORIGIN } });

const LOCAL: Partial<EngineSettings> = { specialist_tools: true, web_allow_private: true, web_timeout: 3000 };

async function call(web: WebTransport, tool: string, args: Record<string, unknown>, settings = LOCAL) {
  const engine = createEngine(new MemoryWorkspace(), settings, { outside: { web } });
  return engine.call(tool, args);
}

interface Row {
  readonly rule: string;
  readonly web: () => WebTransport;
  readonly tool: 'web_fetch' | 'web_search';
  readonly args: (base: string) => Record<string, unknown>;
  readonly settings?: (base: string) => Partial<EngineSettings>;
  readonly ok: boolean;
  readonly says: RegExp;
}

const viaCompanion = () => companionTransport(companion, fromPage);
const searx = (b: string): Partial<EngineSettings> => ({
  ...LOCAL,
  web_search_provider: 'searxng',
  web_search_url: `${b}/searx`,
});

const ROWS: readonly Row[] = [
  {
    rule: 'web_fetch reads a page through the companion, marked as outside text',
    web: viaCompanion,
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/article` }),
    ok: true,
    says: /^\[outside text — web page http:\/\/127\.0\.0\.1:\d+\/article[\s\S]*Run `npm install widget`/,
  },
  {
    rule: 'redirects are followed by the engine, hop by hop through the companion',
    web: viaCompanion,
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/to-article?n=5` }),
    ok: true,
    says: /Install guide/,
  },
  {
    rule: 'a redirect loop ends after 5 hops',
    web: viaCompanion,
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/loop` }),
    ok: false,
    says: /redirected more than 5 times/,
  },
  {
    rule: 'a 10 GB response stops at 5 MB',
    web: viaCompanion,
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/huge` }),
    ok: false,
    says: /sends more than 5 MB/,
  },
  {
    rule: 'a slow-loris server ends at the session deadline',
    web: viaCompanion,
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/slow` }),
    settings: () => ({ ...LOCAL, web_timeout: 1000 }),
    ok: false,
    says: /did not finish answering within 1 s/,
  },
  {
    rule: 'web_search asks SearXNG through the companion',
    web: viaCompanion,
    tool: 'web_search',
    args: () => ({ query: 'widget port' }),
    settings: searx,
    ok: true,
    says: /search result\(s\) from SearXNG[\s\S]*1\. Searx one/,
  },
  {
    rule: 'a wrong token is named, with what to do',
    web: () => companionTransport({ url: companion.url, token: 'not-the-token' }, fromPage),
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/article` }),
    ok: false,
    says: /the web companion at http:\/\/127\.0\.0\.1:\d+ refused the request: wrong token: enter the token slm serve-web printed/,
  },
  {
    rule: 'a page of another origin is refused by the companion',
    web: () => companionTransport(companion),
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/article` }),
    ok: false,
    says: /refused the request: the request names no Origin/,
  },
  {
    rule: 'a companion that is not running says what to start',
    web: () => companionTransport({ url: 'http://127.0.0.1:1', token: 't' }, fromPage),
    tool: 'web_fetch',
    args: (b) => ({ url: `${b}/article` }),
    ok: false,
    says: /could not be reached[\s\S]*slm serve-web --port 8787/,
  },
  {
    rule: 'a SearXNG instance reached directly answers web_search',
    web: () => searchOnlyTransport(`${fx.base}/searx`),
    tool: 'web_search',
    args: () => ({ query: 'widget port' }),
    settings: searx,
    ok: true,
    says: /1\. Searx one/,
  },
  {
    rule: 'without the companion, web_fetch of another page says to start it',
    web: () => searchOnlyTransport(`${fx.base}/searx`),
    tool: 'web_fetch',
    args: () => ({ url: 'http://127.0.0.2:9/article' }),
    ok: false,
    says: /this tab reaches only the search instance[\s\S]*slm serve-web --port 8787/,
  },
];

describe('the tab transports under the engine', () => {
  for (const row of ROWS) {
    it(row.rule, async () => {
      const result = await call(row.web(), row.tool, row.args(fx.base), row.settings?.(fx.base) ?? LOCAL);
      expect(result.ok).toBe(row.ok);
      expect(result.text).toMatch(row.says);
      if (row.ok) expect(result.notes).toContainEqual(expect.objectContaining({ kind: 'outside', detail: 'web' }));
    });
  }

  it('with no web at all, the tools say what to run for the tab', async () => {
    const engine = createEngine(new MemoryWorkspace(), LOCAL);
    const result = await engine.call('web_search', { query: 'x' });
    expect(result.ok).toBe(false);
    expect(result.text).toContain('slm serve-web --port 8787');
  });
});
