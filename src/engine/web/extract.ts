/**
 * A page's main text as Markdown: linkedom parses the HTML (no browser needed), Mozilla's
 * Readability finds the article, turndown writes it as Markdown from linkedom's nodes (in Node
 * and in a worker alike). All three recurse over the
 * tree, and Readability's work grows faster than the page, so a page is first measured by a
 * linear scan: one nested deeper than `MAX_DEPTH` or with more than `MAX_ELEMENTS` elements
 * gets a flat text extraction instead, and the result says so.
 */
import { loadOnce } from '../lazy-load.ts';

/** Deepest element nesting handed to the DOM libraries. */
export const MAX_DEPTH = 64;
/** Most elements handed to the DOM libraries. */
export const MAX_ELEMENTS = 20_000;

export interface Extracted {
  readonly title: string;
  readonly markdown: string;
  /** `readability`: the article found; `whole-page`: no article, the body converted; `flat`: the page was too deep or large for a DOM. */
  readonly method: 'readability' | 'whole-page' | 'flat';
  /** Why the flat extraction was used, when it was. */
  readonly why?: string;
}

const VOID = new Set('area base br col embed hr img input link meta param source track wbr'.split(' '));

/** Max nesting depth and element count of `html`, by a linear scan of its tags. */
export function measureHtml(html: string): { depth: number; elements: number } {
  let depth = 0;
  let max = 0;
  let elements = 0;
  const tag = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)[^>]*?(\/?)>/g;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const name = m[2]!.toLowerCase();
    if (m[1]) depth = Math.max(0, depth - 1);
    else {
      elements++;
      if (!m[3] && !VOID.has(name)) max = Math.max(max, ++depth);
    }
  }
  return { depth: max, elements };
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|[a-zA-Z]+);/g, (all, e: string) => {
    if (e[0] === '#') {
      const code = e[1] === 'x' || e[1] === 'X' ? parseInt(e.slice(2), 16) : parseInt(e.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : all;
    }
    return ENTITIES[e.toLowerCase()] ?? all;
  });
}

/** The text of `html` without a DOM: scripts and styles dropped, block tags as line breaks. */
export function flatText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|noscript|template)\b[\s\S]*?<\/\1\s*>/gi, '')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<\/?(p|div|br|li|h[1-6]|tr|section|article|pre|blockquote|ul|ol|table)\b[^>]*>/gi, '\n')
      .replace(/<[^>]*>/g, ''),
  )
    .replace(/[ \t\f\r]+/g, ' ')
    .replace(/ ?\n ?/g, '\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

const loadLibraries = loadOnce('web page reader (linkedom, Readability, turndown)', async () => {
  const [{ parseHTML }, { Readability }, { default: TurndownService }] = await Promise.all([
    import('linkedom'),
    import('@mozilla/readability'),
    import('turndown'),
  ]);
  return { parseHTML, Readability, TurndownService };
});

function titleOf(html: string): string {
  const m = /<title[^>]*>([\s\S]*?)<\/title>/i.exec(html);
  return m ? decodeEntities(m[1]!).replace(/\s+/g, ' ').trim() : '';
}

/** The main text of the HTML page `html` as Markdown. */
export async function htmlToMarkdown(html: string): Promise<Extracted> {
  const size = measureHtml(html);
  if (size.depth > MAX_DEPTH || size.elements > MAX_ELEMENTS) {
    const why =
      size.depth > MAX_DEPTH
        ? `elements nested ${size.depth} deep (over ${MAX_DEPTH})`
        : `${size.elements} elements (over ${MAX_ELEMENTS})`;
    return { title: titleOf(html), markdown: flatText(html), method: 'flat', why };
  }
  const { parseHTML, Readability, TurndownService } = await loadLibraries();
  const turndown = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
  turndown.remove(['script', 'style', 'noscript', 'iframe', 'form']);
  const article = new Readability(parseHTML(html).document as never).parse();
  // turndown is handed linkedom's nodes, never a string: its browser build parses strings with
  // the page's `document`, which a worker (the tab's engine) does not have.
  const markdownOf = (node: unknown) => turndown.turndown(node as never).trim();
  if (article?.content && (article.textContent ?? '').trim() !== '') {
    const content = parseHTML(`<html><body><div id="turndown-root">${article.content}</div></body></html>`).document;
    return {
      title: article.title || titleOf(html),
      markdown: markdownOf(content.getElementById('turndown-root')),
      method: 'readability',
    };
  }
  const body = parseHTML(html).document.body;
  return { title: titleOf(html), markdown: body ? markdownOf(body) : '', method: 'whole-page' };
}
