/**
 * web_fetch: "Fetch an http(s) page and return its main text as markdown. web_fetch(url),
 * typically after web_search to read a result in full. Read-only." The GET goes through the
 * host's transport under `fetchText`'s rules; HTML becomes Markdown (`htmlToMarkdown`), other
 * text types are shown as they are. The text is marked as coming from outside, in the result the
 * model sees and in a note, and the engine caps it head + tail like every result.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal } from '../result.ts';
import { outsideNote } from '../outside.ts';
import { fetchText } from '../web/fetch-url.ts';
import { htmlToMarkdown } from '../web/extract.ts';
import { noWebText, outsideBanner } from '../web/banner.ts';

const schema = z.object({
  url: z.string().describe('The http(s) address of the page, e.g. "https://example.com/docs/install"'),
});

export const webFetch = defineTool({
  name: 'web_fetch',
  summary: 'Fetch an http(s) page and return its main text as markdown',
  writes: false,
  schema,
  aliases: { link: 'url', href: 'url', address: 'url', uri: 'url' },
  async run(args, ctx) {
    const web = ctx.outside?.web;
    if (!web) return refusal(noWebText('web_fetch'), 'no-web');
    const got = await fetchText(web, args.url, ctx.settings);
    if (!got.ok) return refusal(`web_fetch refused — ${got.text}`, got.rule);
    const isHtml = got.type === 'text/html' || got.type === 'application/xhtml+xml' || got.type === '';
    const page = isHtml ? await htmlToMarkdown(got.text) : undefined;
    const body = page ? (page.title ? `# ${page.title}\n\n${page.markdown}` : page.markdown) : got.text;
    const how =
      page?.method === 'flat'
        ? `; the page was too large for the reader (${page.why}), so its plain text is shown`
        : page?.method === 'whole-page'
          ? '; no main article was found, so the whole page is shown'
          : '';
    const head = outsideBanner(
      `web page ${got.url} (HTTP ${got.status}, ${got.type || 'text'}, ${got.bytes} bytes${how})`,
    );
    const text = body.trim() === '' ? `${head}\n(the page has no text)` : `${head}\n${body}`;
    return ok(text, [outsideNote('web', `web page ${got.url}, ${got.bytes} bytes`)]);
  },
});
