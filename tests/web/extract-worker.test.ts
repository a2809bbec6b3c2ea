/**
 * web_fetch's Markdown as the tab's engine worker makes it: with turndown's browser build (the
 * one a browser bundle picks), which parses a string with the page's `document` — a worker has
 * none, and neither has Node. The extraction hands it linkedom's nodes, so both paths work.
 */
import { describe, expect, it, vi } from 'vitest';
import { ARTICLE_HTML } from '../support/web-fixtures.ts';

// The path is a string so the type check does not look for declarations of the untyped build.
const BROWSER_BUILD = '../../node_modules/turndown/lib/turndown.browser.es.js';
vi.mock('turndown', async () => (await import(/* @vite-ignore */ BROWSER_BUILD)) as object);

describe('the page reader without a document', () => {
  it('has no document here, as in a worker', () => {
    expect(typeof (globalThis as { document?: unknown }).document).toBe('undefined');
  });

  it('an article becomes Markdown with the browser build of turndown', async () => {
    const { htmlToMarkdown } = await import('../../src/engine/web/extract.ts');
    const page = await htmlToMarkdown(ARTICLE_HTML);
    expect(page.method).toBe('readability');
    expect(page.markdown).toMatch(
      /Run `npm install widget`[\s\S]*\*\*4711\*\*[\s\S]*```\nimport \{ widget \} from 'widget';\n```/,
    );
  });

  it('a page with no article is converted whole', async () => {
    const { htmlToMarkdown } = await import('../../src/engine/web/extract.ts');
    const page = await htmlToMarkdown('<html><body><ul><li>one</li><li>two</li></ul></body></html>');
    expect(page.markdown).toMatch(/^- +one\n- +two$/);
  });
});
