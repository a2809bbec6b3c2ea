/**
 * Read gutters: the line numbers a read tool prints before each line, which small models copy
 * into old_str. Several styles are in circulation:
 *   pipe   `    42|line`   (ws_read, `%6d|`)
 *   roo    ` 42 | line`    (number, space, bar, space)
 *   tab    `    42\tline`  (`cat -n`)
 *   arrow  `    42→line`
 *   colon  `42: line`      (hash-anchored tools' `N:` prefix)
 * A gutter on every non-blank line, numbered in increasing order, is a paste from a read: it is
 * stripped. A gutter on only some lines is not a paste and is refused by name. The colon style
 * is too close to real text (`8080: 'http'`) to be read as a gutter on some lines only.
 */

export type GutterStyle = 'pipe' | 'roo' | 'tab' | 'arrow' | 'colon';

const PATTERNS: Readonly<Record<GutterStyle, RegExp>> = {
  roo: /^ *(\d+) \| ?/,
  pipe: /^ *(\d+)\|/,
  tab: /^ *(\d+)\t/,
  arrow: /^ *(\d+)→/,
  colon: /^ *(\d+): ?/,
};
const STYLES = Object.keys(PATTERNS) as GutterStyle[];

export type GutterScan =
  | { readonly kind: 'none' }
  /** Every non-blank line carries the gutter; `stripped` is the text without it. */
  | { readonly kind: 'all'; readonly style: GutterStyle; readonly stripped: string }
  /** Some lines carry it: `lines` are the 0-based indices of those lines. */
  | { readonly kind: 'partial'; readonly style: GutterStyle; readonly lines: readonly number[]; readonly of: number };

interface Marked {
  readonly index: number;
  readonly number: number;
  readonly prefix: string;
}

function markedLines(lines: readonly string[], style: GutterStyle): Marked[] {
  const re = PATTERNS[style];
  const out: Marked[] = [];
  lines.forEach((line, index) => {
    const m = re.exec(line);
    if (m) out.push({ index, number: Number(m[1]), prefix: m[0] });
  });
  return out;
}

function increasing(marked: readonly Marked[]): boolean {
  return marked.every((m, i) => i === 0 || m.number > marked[i - 1]!.number);
}

/** Numbered exactly as a read would number consecutive lines: number − index is constant. */
function consecutive(marked: readonly Marked[]): boolean {
  return marked.every((m) => m.number - m.index === marked[0]!.number - marked[0]!.index);
}

/** Classifies the gutter of a search text (old_str or a patch body). */
export function scanGutter(text: string): GutterScan {
  const lines = text.split('\n').map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  if (nonBlank === 0) return { kind: 'none' };
  let partial: GutterScan = { kind: 'none' };
  for (const style of STYLES) {
    const marked = markedLines(lines, style);
    if (marked.length === 0) continue;
    const at = new Set(marked.map((m) => m.index));
    const everyLine = lines.every((l, i) => l.trim() === '' || at.has(i));
    if (everyLine && increasing(marked)) {
      return { kind: 'all', style, stripped: stripStyle(text, style) };
    }
    // Partial: only read-like numbering counts, so digits that belong to the text are not refused.
    if (partial.kind === 'none' && style !== 'colon' && !everyLine && consecutive(marked)) {
      partial = { kind: 'partial', style, lines: marked.map((m) => m.index), of: nonBlank };
    }
  }
  return partial;
}

/** Removes `style`'s gutter from every line that carries it. */
export function stripStyle(text: string, style: GutterStyle): string {
  const re = PATTERNS[style];
  return text
    .split('\n')
    .map((l) => l.replace(re, ''))
    .join('\n');
}

/**
 * new_str's counterpart: when old_str's gutter was stripped and at least half of new_str's
 * non-blank lines carry the same gutter, it is stripped from new_str too (a line the model
 * added without a number stays as written).
 */
export function stripMatchingGutter(text: string, style: GutterStyle): string {
  const lines = text.split('\n');
  const nonBlank = lines.filter((l) => l.trim() !== '').length;
  const marked = markedLines(lines, style).length;
  return nonBlank > 0 && marked * 2 >= nonBlank ? stripStyle(text, style) : text;
}

/** A before/after pair for the first gutter line of `text`, for the refusal message. */
export function gutterExample(text: string, style: GutterStyle): { before: string; after: string } | undefined {
  const re = PATTERNS[style];
  const line = text.split('\n').find((l) => re.test(l));
  if (line === undefined) return undefined;
  const before = line.endsWith('\r') ? line.slice(0, -1) : line;
  return { before, after: before.replace(re, '') };
}
