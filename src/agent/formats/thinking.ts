/**
 * Reasoning spans: what a model writes while thinking is not its call. Each pair's spans are
 * blanked (same length, so every index still points into the raw text) before any format is
 * read. A close with no open before it (the template opened the thought in the prompt) blanks
 * everything before it; an open that never closes blanks the rest of the text.
 */

const PAIRS: readonly (readonly [string, string])[] = [
  ['<think>', '</think>'],
  ['<seed:think>', '</seed:think>'],
  ['[THINK]', '[/THINK]'],
  ['<|START_THINKING|>', '<|END_THINKING|>'],
  ['<|inner_prefix|>', '<|inner_suffix|>'],
  ['<|channel|>analysis<|message|>', '<|end|>'],
];

export interface Unthought {
  /** The text with every reasoning span replaced by spaces. */
  readonly text: string;
  /** Where each blanked span ends, ascending. */
  readonly ends: readonly number[];
}

export function blankThinking(raw: string): Unthought {
  const spans: [number, number][] = [];
  for (const [open, close] of PAIRS) {
    let at = 0;
    const firstOpen = raw.indexOf(open);
    const firstClose = raw.indexOf(close);
    if (firstClose >= 0 && (firstOpen < 0 || firstClose < firstOpen)) {
      spans.push([0, firstClose + close.length]);
      at = firstClose + close.length;
    }
    for (let o = raw.indexOf(open, at); o >= 0; o = raw.indexOf(open, at)) {
      const c = raw.indexOf(close, o + open.length);
      const end = c < 0 ? raw.length : c + close.length;
      spans.push([o, end]);
      at = end;
    }
  }
  let text = raw;
  for (const [s, e] of spans) text = text.slice(0, s) + ' '.repeat(e - s) + text.slice(e);
  return { text, ends: spans.map(([, e]) => e).sort((a, b) => a - b) };
}
