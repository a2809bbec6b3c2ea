/**
 * Which lines of a file match a ws_grep pattern. The simple way tests every line; the fast way,
 * which ws_grep uses, looks only where a match can be and tests just those lines, with the same
 * answer. When every match must contain one of a few literals, only the lines holding one of
 * them are tested (found with `indexOf`); ignoring case, a file whose lower-cased text holds
 * none of them is passed over. Otherwise the pattern is searched over the whole text
 * once, in multi-line mode, and only the lines where a match starts are tested. A pattern that
 * can tell a line from a file (`\A`, `\z`, a change of the `m` flag) is matched line by line.
 */
import { RE2JS } from 're2js';
import { splitLines } from '../text.ts';
import { requiredLiteral } from './grep-literal.ts';

/** A pattern compiled for ws_grep's search. */
export interface LineMatcher {
  /** The pattern as one line is tested against it. */
  readonly re: RE2JS;
  /** The same pattern in multi-line mode, searched over a whole file. */
  readonly whole: RE2JS;
  /** Every match contains at least one of these (none holds a line break); null when none is known. */
  readonly anyOf: readonly string[] | null;
  /** False when a match in the whole text may not be one in its line alone (see the file's comment). */
  readonly wholeAlike: boolean;
  /**
   * Ignoring case: lower-cased literals of which every match contains one, lower-cased (a file
   * whose lower-cased text holds none cannot match); null when none is known.
   */
  readonly foldedAnyOf: readonly string[] | null;
}

/** A matching line: its 0-based index and its text without the trailing CR. */
export interface LineHit {
  readonly index: number;
  readonly line: string;
}

/**
 * ASCII text whose case RE2 folds only to ASCII: `k` and `s` also fold to the Kelvin sign and
 * the long s, which lower-casing would not find.
 */
const ASCII_FOLDS = /^[\x20-\x7e]+$/;
const FOLDS_BEYOND_ASCII = /[ks]/i;

/** Assertions and flags that read differently over a whole file than over one line. */
const LINE_SENSITIVE = /\\[Az]|\(\?[a-zA-Z-]*m/;

/** Compiles `source` (a valid RE2 pattern) for ws_grep; `literal`: it is a quoted literal string, `pattern` itself. */
export function lineMatcher(
  source: string,
  flags: number,
  literal: string | null,
  caseInsensitive: boolean,
): LineMatcher {
  const literals = literal !== null ? [literal] : requiredLiterals(source);
  const anyOf = caseInsensitive ? null : literals;
  const folded = caseInsensitive && literals?.every((l) => ASCII_FOLDS.test(l) && !FOLDS_BEYOND_ASCII.test(l));
  return {
    re: RE2JS.compile(source, flags),
    whole: RE2JS.compile(source, flags | RE2JS.MULTILINE),
    anyOf: anyOf && anyOf.every((l) => l !== '' && !/[\r\n]/.test(l)) ? anyOf : null,
    wholeAlike: literal !== null || !LINE_SENSITIVE.test(source),
    foldedAnyOf: folded ? literals!.map((l) => l.toLowerCase()) : null,
  };
}

/** Every line of `text` that `re` matches, tested one by one: the definition the fast way must equal. */
export function simpleMatchingLines(text: string, re: RE2JS): LineHit[] {
  const out: LineHit[] = [];
  const lines = splitLines(text);
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.endsWith('\r') ? lines[i]!.slice(0, -1) : lines[i]!;
    if (re.test(line)) out.push({ index: i, line });
  }
  return out;
}

/** Every line of `text` that `m.re` matches, testing only the lines where a match can be. */
export function matchingLines(text: string, m: LineMatcher): LineHit[] {
  // A literal is never empty, so no candidate lies in an empty rest after the last line break.
  if (m.anyOf) return candidateLines(text, m.re, (from) => nextLiteral(text, m.anyOf!, from), true, true);
  if (m.foldedAnyOf) {
    const lower = text.toLowerCase();
    if (!m.foldedAnyOf.some((l) => lower.includes(l))) return [];
  }
  if (!m.wholeAlike) return simpleMatchingLines(text, m.re);
  // Lines are matched without their CR, so the whole text must not hold one before a line break
  // ("x$"): with each CR LF made LF and a final CR dropped, its lines are the lines as matched.
  let t = text.includes('\r') ? text.replace(/\r\n/g, '\n') : text;
  if (t.endsWith('\r')) t = t.slice(0, -1);
  const matcher = m.whole.matcher(t);
  // The empty rest after a final line break is no line; a final CR's line is one (the CR dropped).
  const tailIsLine = text !== '' && !text.endsWith('\n');
  return candidateLines(
    t,
    m.re,
    (from) => (from <= t.length && matcher.find(from) ? matcher.start() : -1),
    tailIsLine,
    false,
  );
}

/** Where the next literal of `anyOf` starts at or after `from`, or -1. */
function nextLiteral(text: string, anyOf: readonly string[], from: number): number {
  let at = -1;
  for (const literal of anyOf) {
    const i = text.indexOf(literal, from);
    if (i !== -1 && (at === -1 || i < at)) at = i;
  }
  return at;
}

/**
 * Tests the line holding each position `next` finds (a candidate), then asks for the next one
 * from the line after; line numbers are counted on the way, once. `tailIsLine`: the text after
 * its last line break is a line even when empty; `stripCr`: a line's final CR is still there.
 */
function candidateLines(
  text: string,
  re: RE2JS,
  next: (from: number) => number,
  tailIsLine: boolean,
  stripCr: boolean,
): LineHit[] {
  const out: LineHit[] = [];
  let index = 0;
  let counted = 0;
  for (let at = next(0); at !== -1;) {
    const start = at === 0 ? 0 : text.lastIndexOf('\n', at - 1) + 1;
    if (start === text.length && !tailIsLine) break;
    const nl = text.indexOf('\n', at);
    const end = nl === -1 ? text.length : nl;
    for (let i = text.indexOf('\n', counted); i !== -1 && i < start; i = text.indexOf('\n', i + 1)) index++;
    counted = start;
    const raw = text.slice(start, end);
    const line = stripCr && raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (re.test(line)) out.push({ index, line });
    if (nl === -1) break;
    at = next(nl + 1);
  }
  return out;
}

/**
 * Literals of which every match contains at least one: the required literal, or one per branch
 * of a top-level alternation (`TODO|FIXME`, `(alpha|omega)`); null when a branch has none.
 */
export function requiredLiterals(pattern: string): string[] | null {
  const single = requiredLiteral(pattern);
  if (single !== null) return [single];
  const branches = topLevelBranches(unwrapGroups(pattern));
  if (branches.length < 2) return null;
  const out: string[] = [];
  for (const branch of branches) {
    const literal = requiredLiteral(unwrapGroups(branch));
    if (literal === null) return null;
    out.push(literal);
  }
  return out;
}

/** The pattern without groups around all of it: `((a|b))` → `a|b`. A group followed by anything (`(a|b)?`) stays. */
function unwrapGroups(pattern: string): string {
  let p = pattern;
  for (;;) {
    const open = p.startsWith('(?:') ? 3 : p.startsWith('(') && !p.startsWith('(?') ? 1 : 0;
    if (open === 0 || closingParen(p) !== p.length - 1) return p;
    p = p.slice(open, -1);
  }
}

/** The index of the `)` closing the group that opens at 0, or -1. */
function closingParen(p: string): number {
  let depth = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(p, i);
    else if (c === '(') depth++;
    else if (c === ')' && --depth === 0) return i;
  }
  return -1;
}

/** The branches of `p`'s alternation outside groups and classes. */
function topLevelBranches(p: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let from = 0;
  for (let i = 0; i < p.length; i++) {
    const c = p[i];
    if (c === '\\') i++;
    else if (c === '[') i = classEnd(p, i);
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === '|' && depth === 0) {
      out.push(p.slice(from, i));
      from = i + 1;
    }
  }
  out.push(p.slice(from));
  return out;
}

/** The index of the `]` ending the class that opens at `i` (a leading `]` after an optional `^` belongs to it). */
function classEnd(p: string, i: number): number {
  let j = i + 1;
  if (p[j] === '^') j++;
  if (p[j] === ']') j++;
  while (j < p.length && p[j] !== ']') {
    // A POSIX class inside (`[[:digit:]x]`) ends at its own `:]`.
    const posix = p[j] === '[' && p[j + 1] === ':' ? p.indexOf(':]', j + 2) : -1;
    j = posix !== -1 ? posix + 2 : j + (p[j] === '\\' ? 2 : 1);
  }
  return j;
}
