/**
 * The search providers web_search asks, each a request URL and a reader of its answer:
 * DuckDuckGo's HTML results page (the spec's provider; read by a linear scan of its result
 * anchors, so a page of any shape ends in bounded time) and a SearXNG instance's JSON API
 * (`/search?q=…&format=json` answering `{"results": [{"title", "url", "content"}]}`). A reader
 * returns the results it found or why it found none.
 */
import type { EngineSettings, WebSearchProvider } from '../settings.ts';
import { flatText } from './extract.ts';

/** The most results a search returns. */
export const MAX_RESULTS = 8;

export interface SearchHit {
  readonly title: string;
  readonly url: string;
  readonly snippet: string;
}

export type SearchRead =
  { readonly ok: true; readonly hits: readonly SearchHit[] } | { readonly ok: false; readonly text: string };

export interface SearchProvider {
  /** How the result names the provider, e.g. `DuckDuckGo`. */
  readonly label: string;
  /** The request URL for `query`, or a message when the settings do not say where to ask. */
  url(query: string, settings: EngineSettings): { ok: true; url: string } | { ok: false; text: string };
  readonly accept: string;
  read(body: string): SearchRead;
}

const DUCKDUCKGO_URL = 'https://html.duckduckgo.com/html/';
const SNIPPET_CHARS = 300;

function clip(text: string, n: number): string {
  const t = text.replace(/\s+/g, ' ').trim();
  return t.length > n ? `${t.slice(0, n - 1)}…` : t;
}

/** DuckDuckGo wraps result links as `//duckduckgo.com/l/?uddg=<target>`; this unwraps them (undefined for its ad links). */
function unwrapDuckLink(href: string): string | undefined {
  const h = href.replace(/&amp;/g, '&');
  let url: URL;
  try {
    url = new URL(h, 'https://duckduckgo.com/');
  } catch {
    return undefined;
  }
  if (url.hostname.endsWith('duckduckgo.com')) {
    const target = url.searchParams.get('uddg');
    return target && /^https?:\/\//i.test(target) ? target : undefined;
  }
  return /^https?:$/.test(url.protocol) ? url.href : undefined;
}

function readDuckDuckGo(body: string): SearchRead {
  const hits: SearchHit[] = [];
  const anchor = /<a\b([^>]*\bclass="[^"]*\bresult__a\b[^"]*"[^>]*)>([\s\S]*?)<\/a>/g;
  const matches = [...body.matchAll(anchor)];
  for (let i = 0; i < matches.length && hits.length < MAX_RESULTS; i++) {
    const m = matches[i]!;
    const href = /\bhref="([^"]*)"/.exec(m[1]!)?.[1];
    const url = href ? unwrapDuckLink(href) : undefined;
    if (!url) continue;
    const end = matches[i + 1]?.index ?? body.length;
    const block = body.slice(m.index + m[0].length, Math.min(end, m.index + m[0].length + 20_000));
    const snippet = /class="[^"]*\bresult__snippet\b[^"]*"[^>]*>([\s\S]*?)<\/(?:a|div|td)>/.exec(block)?.[1] ?? '';
    hits.push({ title: clip(flatText(m[2]!), 200), url, snippet: clip(flatText(snippet), SNIPPET_CHARS) });
  }
  if (hits.length) return { ok: true, hits };
  if (/class="[^"]*\bno-results\b/.test(body) || /No\s+results\s+found/i.test(body)) return { ok: true, hits: [] };
  return {
    ok: false,
    text:
      "DuckDuckGo's answer held no results this reader recognises — the page may have changed shape, or the provider " +
      'answered with a check page instead of results. Try again later, or a person can set web_search_provider "searxng" with a web_search_url.',
  };
}

function readSearxng(body: string): SearchRead {
  let value: unknown;
  try {
    value = JSON.parse(body);
  } catch (e) {
    return {
      ok: false,
      text: `the SearXNG instance did not answer JSON (${(e as Error).message.slice(0, 120)}); check that web_search_url is a SearXNG instance with the JSON format enabled.`,
    };
  }
  const results = (value as { results?: unknown } | null)?.results;
  if (!Array.isArray(results))
    return {
      ok: false,
      text: 'the SearXNG answer has no "results" list; check that web_search_url is a SearXNG instance with the JSON format enabled.',
    };
  const hits: SearchHit[] = [];
  for (const r of results) {
    if (hits.length >= MAX_RESULTS) break;
    const { title, url, content } = (r ?? {}) as Record<string, unknown>;
    if (typeof url !== 'string' || !/^https?:\/\//i.test(url)) continue;
    hits.push({
      title: clip(typeof title === 'string' ? title : url, 200),
      url,
      snippet: clip(typeof content === 'string' ? content : '', SNIPPET_CHARS),
    });
  }
  return { ok: true, hits };
}

/** A request URL with `q` set, on the base the settings name. */
function withQuery(base: string, path: string, query: string, extra: Record<string, string> = {}) {
  try {
    const url = new URL(path, base.endsWith('/') ? base : `${base}/`);
    url.searchParams.set('q', query);
    for (const [k, v] of Object.entries(extra)) url.searchParams.set(k, v);
    return { ok: true as const, url: url.href };
  } catch {
    return {
      ok: false as const,
      text: `web_search_url ${JSON.stringify(base)} is not a URL; a person can fix it in the settings.`,
    };
  }
}

export const PROVIDERS: Readonly<Record<WebSearchProvider, SearchProvider>> = {
  duckduckgo: {
    label: 'DuckDuckGo',
    url: (query, s) => withQuery(s.web_search_url || DUCKDUCKGO_URL, '', query),
    accept: 'text/html',
    read: readDuckDuckGo,
  },
  searxng: {
    label: 'SearXNG',
    url: (query, s) =>
      s.web_search_url
        ? withQuery(s.web_search_url, 'search', query, { format: 'json' })
        : {
            ok: false,
            text: 'web_search_provider is "searxng" but web_search_url is empty; a person sets it to the instance\'s address (e.g. http://127.0.0.1:8888).',
          },
    accept: 'application/json',
    read: readSearxng,
  },
};
