/**
 * web_search: "Search the web (DuckDuckGo). web_search(query) returns the top results as title,
 * URL, and snippet, so the agent can look up docs, library usage, or an error message. Read-only,
 * no approval." The provider is the setting `web_search_provider` (DuckDuckGo's HTML page, or a
 * SearXNG instance at `web_search_url`); the request goes through the same bounded GET as
 * web_fetch, at most `MAX_RESULTS` results come back, and the provider is named in the result.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal } from '../result.ts';
import { outsideNote } from '../outside.ts';
import { fetchText } from '../web/fetch-url.ts';
import { noWebText, outsideBanner } from '../web/banner.ts';
import { MAX_RESULTS, PROVIDERS, type SearchHit } from '../web/search-providers.ts';

const MAX_QUERY_CHARS = 500;

const schema = z.object({
  query: z.string().describe('What to search for, e.g. "vitest mock a module default export"'),
});

function listHits(hits: readonly SearchHit[]): string {
  return hits.map((h, i) => `${i + 1}. ${h.title}\n   ${h.url}${h.snippet ? `\n   ${h.snippet}` : ''}`).join('\n');
}

export const webSearch = defineTool({
  name: 'web_search',
  summary: 'Search the web; returns the top results as title, URL and snippet',
  writes: false,
  schema,
  aliases: { q: 'query', search: 'query', text: 'query', terms: 'query' },
  async run(args, ctx) {
    const web = ctx.outside?.web;
    if (!web) return refusal(noWebText('web_search'), 'no-web');
    const query = args.query.trim();
    if (query === '')
      return refusal(
        'web_search needs a query: say what to look for, e.g. {"query": "npm ERR! ERESOLVE"}.',
        'empty-query',
      );
    if (query.length > MAX_QUERY_CHARS)
      return refusal(
        `the query is ${query.length} characters long; keep it under ${MAX_QUERY_CHARS} — a few key words.`,
        'query-length',
      );
    const provider = PROVIDERS[ctx.settings.web_search_provider];
    const where = provider.url(query, ctx.settings);
    if (!where.ok) return refusal(`web_search could not ask ${provider.label} — ${where.text}`, 'search-config');
    const got = await fetchText(web, where.url, ctx.settings, provider.accept);
    if (!got.ok) return refusal(`web_search could not get results from ${provider.label} — ${got.text}`, got.rule);
    const read = provider.read(got.text);
    if (!read.ok)
      return refusal(`web_search got no usable answer from ${provider.label} — ${read.text}`, 'search-garbage');
    const note = outsideNote('web', `search results from ${provider.label} for ${JSON.stringify(query)}`);
    if (!read.hits.length)
      return ok(`${provider.label} found no results for ${JSON.stringify(query)}. Try fewer or different words.`, [
        note,
      ]);
    const head = outsideBanner(
      `${read.hits.length} search result(s) from ${provider.label} for ${JSON.stringify(query)} (at most ${MAX_RESULTS})`,
    );
    return ok(
      `${head}\n${listHits(read.hits)}\nRead one in full with web_fetch ${JSON.stringify({ url: read.hits[0]!.url })}.`,
      [note],
    );
  },
});
