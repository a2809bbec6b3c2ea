/**
 * What each inexact rung ignores, as a line normalizer. The rungs are cumulative: each one
 * ignores everything the rungs before it ignored and one more kind of drift, so a looser rung
 * finds every place a stricter one finds (and maybe more — which the ambiguity rule catches).
 */
import type { RungId } from './types.ts';

/**
 * Typographic characters small models substitute for plain ones, with the plain text the file
 * most likely has. Curly quotes, primes and guillemets → straight quotes; hyphen variants and
 * en/em dashes → `-`; the ellipsis → `...`; a no-break space → a space.
 */
const PLAIN: Readonly<Record<string, string>> = {
  '\u2018': "'",
  '\u2019': "'",
  '\u201a': "'",
  '\u201b': "'",
  '\u2032': "'",
  '\u2039': "'",
  '\u203a': "'",
  '\u201c': '"',
  '\u201d': '"',
  '\u201e': '"',
  '\u201f': '"',
  '\u2033': '"',
  '\u00ab': '"',
  '\u00bb': '"',
  '\u2010': '-',
  '\u2011': '-',
  '\u2012': '-',
  '\u2013': '-',
  '\u2014': '-',
  '\u2015': '-',
  '\u2212': '-',
  '\u2026': '...',
  '\u00a0': ' ',
};

const FANCY = new RegExp(`[${Object.keys(PLAIN).join('')}]`, 'g');
const HAS_FANCY = new RegExp(FANCY.source);

/** Replaces typographic quotes, dashes, ellipses and no-break spaces with their plain forms. */
export function plainPunctuation(s: string): string {
  return HAS_FANCY.test(s) ? s.replace(FANCY, (c) => PLAIN[c]!) : s;
}

/** The typographic characters that occur in `s`. */
export function fancyChars(s: string): Set<string> {
  return new Set(s.match(FANCY) ?? []);
}

/**
 * Rewrites, in `s`, only the given typographic characters as their plain forms: the ones the
 * model's old_str had and the file did not, so new_str's copies of them are the same drift.
 */
export function plainOnly(s: string, chars: ReadonlySet<string>): string {
  if (chars.size === 0) return s;
  return s.replace(FANCY, (c) => (chars.has(c) ? PLAIN[c]! : c));
}

/** The line-based rungs, i.e. every rung but exact. */
export type LineRung = Exclude<RungId, 'exact'>;

/** How a line-based rung compares lines. */
export interface RungRule {
  /**
   * The comparison key of one line: '' exactly when the line is blank. A key only trims
   * whitespace and writes typographic characters as plain ones, which verbatimCore relies on.
   */
  readonly key: (line: string) => string;
  /** Blank lines are skipped on both sides. */
  readonly skipBlank: boolean;
  /** Leading whitespace is ignored (so the match must then show one consistent indentation shift). */
  readonly ignoresIndent: boolean;
}

const trimEnd = (s: string): string => s.trimEnd();
const trim = (s: string): string => s.trim();
const plainTrim = (s: string): string => plainPunctuation(s).trim();

export const RUNG_RULES: Readonly<Record<LineRung, RungRule>> = {
  'trailing-ws': { key: trimEnd, skipBlank: false, ignoresIndent: false },
  indent: { key: trim, skipBlank: false, ignoresIndent: true },
  'blank-lines': { key: trim, skipBlank: true, ignoresIndent: true },
  'quotes-dashes': { key: plainTrim, skipBlank: true, ignoresIndent: true },
  anchors: { key: plainTrim, skipBlank: true, ignoresIndent: true },
};

/** The characters PLAIN's plain forms are written with, escaped for a character class. */
const WRITTEN_CHARS = [...new Set(Object.values(PLAIN).join(''))].map((c) => c.replace(/[\\\]^-]/g, '\\$&')).join('');
/** A run of them: each may stand for a typographic character in the line. */
const PLAIN_WRITTEN = new RegExp(`[${WRITTEN_CHARS}]+`);

/**
 * The longest run of a rung's line key without the characters plain forms are written with, or
 * '' when it has none. No key rewrites such a run, so every line whose key is `key` holds it as
 * written: the searches look for it in the file's text to find the lines worth keying.
 */
export function verbatimCore(key: string): string {
  let best = '';
  for (const part of key.split(PLAIN_WRITTEN)) if (part.length > best.length) best = part;
  return best;
}
