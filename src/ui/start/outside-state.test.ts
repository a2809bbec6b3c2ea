/**
 * The outside-tools settings as the start screen edits them: one row per rule — what the run
 * gets (the engine settings by their contract names; the companion only with address and token),
 * what keeps Run disabled and why, the start screen's notice while no companion is set, and that
 * the token is never kept.
 */
import { describe, expect, it } from 'vitest';
import { OutsideState } from './outside-state.svelte.ts';

function memoryStore() {
  const data = new Map<string, string>();
  return { data, getItem: (k: string) => data.get(k) ?? null, setItem: (k: string, v: string) => void data.set(k, v) };
}

describe('outside tools on the start screen', () => {
  const rows: readonly {
    rule: string;
    set: (o: OutsideState) => void;
    problem?: RegExp;
    notice?: RegExp | null;
    companion?: boolean;
  }[] = [
    { rule: 'off: no choice, no problem, no notice', set: () => {}, notice: null },
    {
      rule: 'on with no companion: the notice says what to run',
      set: (o) => (o.specialistTools = true),
      notice: /no web companion is set: web_fetch and web_search will answer[\s\S]*slm serve-web --port 8787 --origin/,
      companion: false,
    },
    {
      rule: 'on with SearXNG and no companion: the notice names web_fetch',
      set: (o) => {
        o.specialistTools = true;
        o.provider = 'searxng';
        o.searchUrl = 'https://searx.example';
      },
      notice: /web_search asks the SearXNG instance directly \(it must allow this page\), but web_fetch/,
    },
    {
      rule: 'an address without a token keeps Run disabled',
      set: (o) => {
        o.specialistTools = true;
        o.companionUrl = 'http://127.0.0.1:8787';
      },
      problem: /Enter the token slm serve-web printed/,
      notice: null,
    },
    {
      rule: 'address and token: the run gets the companion',
      set: (o) => {
        o.specialistTools = true;
        o.companionUrl = 'http://127.0.0.1:8787';
        o.companionToken = 'tok';
      },
      companion: true,
      notice: null,
    },
    {
      rule: 'an address that is not a URL is named',
      set: (o) => {
        o.specialistTools = true;
        o.companionUrl = '127.0.0.1:8787';
      },
      problem: /is not an http URL/,
    },
    {
      rule: 'SearXNG needs its URL',
      set: (o) => {
        o.specialistTools = true;
        o.provider = 'searxng';
      },
      problem: /SearXNG needs its address/,
    },
    {
      rule: 'an MCP server needs a name',
      set: (o) => {
        o.specialistTools = true;
        o.addServer();
      },
      problem: /MCP server 1 needs a name/,
    },
    {
      rule: 'an MCP server needs its URL',
      set: (o) => {
        o.specialistTools = true;
        o.addServer();
        o.mcpServers[0]!.name = 'docs';
      },
      problem: /"docs" needs its Streamable HTTP URL/,
    },
  ];
  for (const row of rows) {
    it(row.rule, () => {
      const o = new OutsideState();
      row.set(o);
      if (row.problem) expect(o.problem).toMatch(row.problem);
      else expect(o.problem).toBeNull();
      if (row.notice === null) expect(o.notice).toBeNull();
      else if (row.notice) expect(o.notice).toMatch(row.notice);
      if (row.companion !== undefined) expect(o.choice?.companion !== undefined).toBe(row.companion);
      if (!o.specialistTools) expect(o.choice).toBeUndefined();
    });
  }

  it('the run gets the settings by their contract names', () => {
    const o = new OutsideState();
    o.specialistTools = true;
    o.domains = 'Example.org, docs.rs\npython.org';
    o.allowPrivate = true;
    o.addServer();
    Object.assign(o.mcpServers[0]!, { name: 'docs', url: 'http://127.0.0.1:3000/mcp', readOnly: false });
    expect(o.choice?.settings).toEqual({
      specialist_tools: true,
      web_search_provider: 'duckduckgo',
      web_search_url: '',
      web_allow_private: true,
      web_domains: ['example.org', 'docs.rs', 'python.org'],
      mcp_servers: [{ name: 'docs', url: 'http://127.0.0.1:3000/mcp', read_only: false }],
    });
  });

  it('keeps everything for the next visit but the token', () => {
    const store = memoryStore();
    const o = new OutsideState(store);
    o.specialistTools = true;
    o.companionUrl = 'http://127.0.0.1:8787';
    o.companionToken = 'secret-token';
    o.remember();
    expect([...store.data.values()].join()).not.toContain('secret-token');
    const again = new OutsideState(store);
    expect(again.specialistTools).toBe(true);
    expect(again.companionUrl).toBe('http://127.0.0.1:8787');
    expect(again.companionToken).toBe('');
  });
});
