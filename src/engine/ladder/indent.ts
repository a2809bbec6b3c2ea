/**
 * Re-applying the file's own indentation to a replacement. When old_str matched only after its
 * indentation was ignored (shifted by a level, dedented to column 0, tabs written as spaces or
 * the reverse), new_str carries the same drift; each of its lines is re-indented the way the
 * matched lines map from old_str's indentation to the file's.
 */
import { indentOf, isBlank } from './lines.ts';

/** One matched line: its indentation in old_str and in the file. */
export interface IndentPair {
  readonly from: string;
  readonly to: string;
}

/** How a set of lines is indented: with tabs or spaces, and the width of one space level. */
export interface IndentStyle {
  readonly tabs: boolean;
  readonly unit: number;
}

const DEFAULT_UNIT = 4;

/** The indentation style of `lines`, or `fallback` when none of them is indented. */
export function indentStyle(lines: Iterable<string>, fallback?: () => IndentStyle): IndentStyle {
  let tabbed = 0;
  let spaced = 0;
  const widths: number[] = [];
  for (const line of lines) {
    const ind = indentOf(line);
    if (ind === '' || isBlank(line)) continue;
    if (ind.charCodeAt(0) === 9) tabbed++;
    else {
      spaced++;
      if (!ind.includes('\t')) widths.push(ind.length);
    }
  }
  if (tabbed === 0 && spaced === 0) return fallback ? fallback() : { tabs: false, unit: DEFAULT_UNIT };
  return { tabs: tabbed > spaced, unit: spaceUnit(widths) };
}

/**
 * The width of one indentation level among space-indented lines: 4 when nearly every even
 * width is a multiple of 4, else 2. Odd widths (` * ` comment continuations, aligned
 * arguments) say nothing about the level and are ignored.
 */
function spaceUnit(widths: readonly number[]): number {
  const even = widths.filter((w) => w % 2 === 0);
  if (even.length === 0) return DEFAULT_UNIT;
  const fours = even.filter((w) => w % 4 === 0).length;
  return fours >= even.length * 0.8 ? 4 : 2;
}

/** Columns of an indentation with tabs `tabWidth` wide. */
function columns(ind: string, tabWidth: number): number {
  let w = 0;
  for (let i = 0; i < ind.length; i++) w += ind.charCodeAt(i) === 9 ? tabWidth : 1;
  return w;
}

/** Tab widths tried when tabs on one side stand for spaces on the other. */
const TAB_WIDTHS = [4, 2, 8, 3];

/** A tab width under which every pair is moved by the same number of columns, or null. */
function uniformTabWidth(pairs: readonly IndentPair[], preferred: number): number | null {
  for (const t of [preferred, ...TAB_WIDTHS.filter((w) => w !== preferred)]) {
    const shift = columns(pairs[0]!.to, t) - columns(pairs[0]!.from, t);
    if (pairs.every((p) => columns(p.to, t) - columns(p.from, t) === shift)) return t;
  }
  return null;
}

/**
 * True when old_str's indentation maps onto the file's by one shift (a level more or less, tabs
 * for spaces): the drift the indentation rungs forgive. A match that needs different shifts on
 * different lines is a different block that happens to hold the same words (an inner `}` for an
 * outer one), unless old_str had no indentation structure to keep (`flat`: every line at the same
 * indentation, as when a model strips it all) and the caller accepts that.
 */
export function indentationFits(pairs: readonly IndentPair[], acceptFlat: boolean): boolean {
  if (pairs.length < 2 || uniformTabWidth(pairs, DEFAULT_UNIT) !== null) return true;
  return acceptFlat && pairs.every((p) => p.from === pairs[0]!.from);
}

/**
 * Builds the re-indenter for a match, or returns null when old_str's indentation already equals
 * the file's on every matched line (the replacement is then used as written).
 *
 * A replacement line whose indentation occurs in old_str gets what that indentation became in
 * the file (the first occurrence wins when old_str had flattened the file's structure). Any
 * other indentation is measured in columns and moved by the matched lines' shift, then written
 * in the file's style, which turns tabs into spaces or spaces into tabs as the file needs.
 */
export function makeReindent(
  pairs: readonly IndentPair[],
  replacementLines: readonly string[],
  fileStyle: () => IndentStyle,
): ((line: string) => string) | null {
  if (pairs.length === 0 || pairs.every((p) => p.from === p.to)) return null;
  const table = new Map<string, string>();
  for (const p of pairs) if (!table.has(p.from)) table.set(p.from, p.to);

  const file = indentStyle(
    pairs.map((p) => `${p.to}x`),
    fileStyle,
  );
  const old = indentStyle([...pairs.map((p) => `${p.from}x`), ...replacementLines], () => file);
  // Columns per tab: the space level of whichever side uses spaces, so one tab is one level —
  // unless another width is the one that moves every matched line alike.
  const unit = file.tabs === old.tabs ? DEFAULT_UNIT : file.tabs ? old.unit : file.unit;
  const tabWidth = uniformTabWidth(pairs, unit) ?? unit;
  const render = (w: number): string => {
    const cols = Math.max(0, w);
    return file.tabs ? '\t'.repeat(Math.floor(cols / tabWidth)) + ' '.repeat(cols % tabWidth) : ' '.repeat(cols);
  };
  const first = pairs[0]!;
  const shift = columns(first.to, tabWidth) - columns(first.from, tabWidth);

  return (line: string): string => {
    if (isBlank(line)) return line;
    const ind = indentOf(line);
    const mapped = table.get(ind) ?? render(columns(ind, tabWidth) + shift);
    return mapped + line.slice(ind.length);
  };
}
