/**
 * web_search through the engine and the Node transport against loopback providers: one row per
 * rule — DuckDuckGo's HTML page read (ads dropped, links unwrapped, at most 8), SearXNG's JSON
 * read (non-web links dropped), the provider named, no results said, garbage and HTTP 429
 * answered with what happened and what to do, a SearXNG setting without a URL, the private-address
 * rule applied to the provider too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create.ts';
import type { EngineSettings } from '../../src/engine/settings.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { nodeWebTransport } from '../../src/platform/node-web.ts';
import { startWebFixture, type WebFixture } from '../support/web-fixtures.ts';

let fx: WebFixture;
beforeAll(async () => {
  fx = await startWebFixture();
});
afterAll(() => fx.close());

async function search(query: string, settings: (base: string) => Partial<EngineSettings>) {
  const engine = createEngine(
    new MemoryWorkspace(),
    { specialist_tools: true, web_allow_private: true, web_timeout: 3000, ...settings(fx.base) },
    { outside: { web: nodeWebTransport } },
  );
  return engine.call('web_search', { query });
}

const ddg = (b: string): Partial<EngineSettings> => ({ web_search_url: `${b}/ddg/` });
const searx = (b: string): Partial<EngineSettings> => ({
  web_search_provider: 'searxng',
  web_search_url: `${b}/searx`,
});

const ROWS: readonly {
  rule: string;
  query: string;
  settings: (base: string) => Partial<EngineSettings>;
  ok: boolean;
  says: RegExp;
  never?: RegExp;
  count?: number;
}[] = [
  {
    rule: "DuckDuckGo's page: at most 8 results, links unwrapped, ads dropped, provider named",
    query: 'widget port',
    settings: ddg,
    ok: true,
    says: /8 search result\(s\) from DuckDuckGo for "widget port"[\s\S]*1\. Result 1 & more\n {3}http:\/\/127\.0\.0\.1:\d+\/page\/1\n {3}Snippet number 1 about widgets\./,
    never: /y\.js|Result 9|\bAd\b/,
    count: 8,
  },
  {
    rule: 'no results is said, not an error',
    query: 'nothing',
    settings: ddg,
    ok: true,
    says: /^DuckDuckGo found no results for "nothing"\. Try fewer or different words\.$/,
  },
  {
    rule: 'SearXNG JSON: title, URL, content; a non-web link dropped; provider named',
    query: 'widget',
    settings: searx,
    ok: true,
    says: /2 search result\(s\) from SearXNG for "widget"[\s\S]*1\. Searx one\n {3}http:\/\/127\.0\.0\.1:\d+\/article\n {3}first hit\n2\. Searx two/,
    never: /javascript:/,
    count: 2,
  },
  {
    rule: 'a DuckDuckGo page of garbage says what happened and what to do',
    query: 'x',
    settings: (b) => ({ web_search_url: `${b}/garbage/` }),
    ok: false,
    says: /web_search got no usable answer from DuckDuckGo — DuckDuckGo's answer held no results this reader recognises[\s\S]*web_search_provider "searxng"/,
  },
  {
    rule: 'a SearXNG answer that is not JSON',
    query: 'x',
    settings: (b) => ({ web_search_provider: 'searxng', web_search_url: `${b}/garbage` }),
    ok: false,
    says: /from SearXNG — the SearXNG instance did not answer JSON/,
  },
  {
    rule: 'HTTP 429 is named as rate limiting',
    query: 'x',
    settings: (b) => ({ web_search_url: `${b}/limited/` }),
    ok: false,
    says: /could not get results from DuckDuckGo — .* answered HTTP 429 \(rate-limited: too many requests; wait before asking again\)/,
  },
  {
    rule: 'SearXNG without web_search_url',
    query: 'x',
    settings: () => ({ web_search_provider: 'searxng' }),
    ok: false,
    says: /web_search_provider is "searxng" but web_search_url is empty/,
  },
  {
    rule: 'a loopback provider without web_allow_private',
    query: 'x',
    settings: (b) => ({ ...ddg(b), web_allow_private: false }),
    ok: false,
    says: /127\.0\.0\.1 is a loopback or private-network address/,
  },
];

describe('web_search', () => {
  it.each(ROWS)('$rule', async (row) => {
    const result = await search(row.query, row.settings);
    expect(result.text).toMatch(row.says);
    if (row.never) expect(result.text).not.toMatch(row.never);
    expect(result.ok).toBe(row.ok);
    if (row.count !== undefined) expect(result.text.match(/^\d+\. /gm)).toHaveLength(row.count);
    if (row.ok) expect(result.notes).toContainEqual(expect.objectContaining({ kind: 'outside', detail: 'web' }));
  });

  it('an empty query is refused before anything is asked', async () => {
    const before = fx.hits.get('/ddg/') ?? 0;
    const result = await search('   ', ddg);
    expect(result.ok).toBe(false);
    expect(result.text).toMatch(/web_search needs a query/);
    expect(fx.hits.get('/ddg/') ?? 0).toBe(before);
  });
});
