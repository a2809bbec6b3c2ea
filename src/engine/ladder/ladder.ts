/**
 * The match ladder: exact → trailing-whitespace-insensitive → indentation-normalized →
 * blank-line-insensitive → quote/dash style → first+last-line anchored. The walk stops at the
 * first rung that finds anything: one place is a match, two or more are ambiguous and never
 * applied. Each match carries an adapter that fits new_str to the place it replaces: the file's
 * line endings always, the file's own indentation when old_str's differed, plain quotes and
 * dashes where old_str's typographic ones were drift.
 */
import { closestSpan } from '../fuzzy.ts';
import { driftsOf } from './drift.ts';
import { anchoredPlaces } from './anchors.ts';
import { makeReindent, indentStyle } from './indent.ts';
import { detectEol, isBlank, LineTable, splitText, withEol, type Eol, type SplitText } from './lines.ts';
import { fancyChars, plainOnly, RUNG_RULES, type LineRung } from './normalize.ts';
import { Haystack } from './haystack.ts';
import { exactPlaces, sequencePlaces, type Place } from './search.ts';
import type { ClosestSpan, LadderCandidate, LadderMatch, LadderOptions, MatchSpan, RungId } from './types.ts';

/** The rungs in the order they are tried. */
export const RUNG_ORDER: readonly RungId[] = [
  'exact',
  'trailing-ws',
  'indent',
  'blank-lines',
  'quotes-dashes',
  'anchors',
];

/** The strategy names the spec's messages use. */
export const RUNG_NAMES: Readonly<Record<RungId, string>> = {
  exact: 'exact',
  'trailing-ws': 'trailing-whitespace-insensitive',
  indent: 'indentation-normalized',
  'blank-lines': 'blank-line-insensitive',
  'quotes-dashes': 'quote/dash-style',
  anchors: 'anchored-first-last-line',
};

/** Narrows free-form setting values (`disabled_rungs`) to rung ids; unknown names are ignored. */
export function toRungIds(names: readonly string[]): RungId[] {
  return names.filter((n): n is RungId => (RUNG_ORDER as readonly string[]).includes(n));
}

/**
 * The most line pairs (old_str lines × searched file lines) the tolerant rungs and the
 * closest-span hint look at for one search. Past it only the exact search runs: a 3,000-line
 * old text that is not in a 15,000-line file would otherwise take tens of seconds at every rung.
 */
export const MAX_TOLERANT_LINE_PAIRS = 4_000_000;

/**
 * Finds `oldStr` in `text` by walking the ladder. Never throws; an empty `oldStr` finds nothing
 * (callers refuse it with their own message first).
 */
export function findMatch(text: string, oldStr: string, opts: LadderOptions): LadderMatch {
  if (oldStr === '') return { kind: 'none' };
  let table: LineTable | undefined;
  const lines = (): LineTable => (table ??= new LineTable(text));

  const window = opts.window && clampWindow(opts.window, lines());
  const from = window ? lines().starts[window.first]! : 0;
  const to = window ? lines().nextStart(window.last) : text.length;
  const exact = exactPlaces(text, oldStr, from, to);
  if (exact.length > 0) {
    const eol = table?.eol ?? detectEol(text);
    return decide(
      'exact',
      exact.map((p) => ({ span: p.span, drifts: [], adapt: (s: string) => withEol(s, eol) })),
    );
  }
  const old = splitText(oldStr);
  const searched = window ? window.last - window.first + 1 : lines().count;
  if (old.lines.length * searched > MAX_TOLERANT_LINE_PAIRS) return { kind: 'none' };
  if (!opts.tolerance) return { kind: 'none', closest: hint(lines(), oldStr, window) };

  const hay = new Haystack(lines(), window?.first, window?.last);
  for (const rung of RUNG_ORDER) {
    if (rung === 'exact' || opts.disabled.includes(rung)) continue;
    const places = rung === 'anchors' ? anchoredPlaces(hay, old) : sequencePlaces(hay, RUNG_RULES[rung], old);
    if (places.length > 0)
      return decide(
        rung,
        places.map((p) => candidate(rung, p, old, oldStr, hay)),
      );
  }
  return { kind: 'none', closest: hint(lines(), oldStr, window) };
}

/** One place → a unique match; several → ambiguous (with the non-overlapping ones kept for replace_all). */
function decide(rung: RungId, candidates: LadderCandidate[]): LadderMatch {
  if (candidates.length === 1) {
    const only = candidates[0]!;
    return { kind: 'unique', rung, span: only.span, drifts: only.drifts, adapt: only.adapt };
  }
  const apart: LadderCandidate[] = [];
  for (const c of candidates)
    if (apart.length === 0 || c.span.start >= apart[apart.length - 1]!.span.end) apart.push(c);
  return { kind: 'ambiguous', rung, spans: candidates.map((c) => c.span), candidates: apart };
}

/** Turns a 1-based line window into 0-based line indices inside the file. */
function clampWindow(w: { startLine: number; endLine: number }, table: LineTable): { first: number; last: number } {
  const first = Math.min(Math.max(w.startLine - 1, 0), Math.max(table.count - 1, 0));
  const last = Math.min(Math.max(w.endLine - 1, first), Math.max(table.count - 1, 0));
  return { first, last };
}

/** The closest span for a not-found result, within the window when there is one. */
function hint(table: LineTable, oldStr: string, window?: { first: number; last: number }): ClosestSpan | undefined {
  if (table.count === 0) return undefined;
  return closestSpan(table, splitText(oldStr).lines, window?.first, window?.last);
}

/** A line-rung place with its adapter. */
function candidate(rung: LineRung, place: Place, old: SplitText, oldStr: string, hay: Haystack): LadderCandidate {
  const table = hay.table;
  const spanText = table.text.slice(place.span.start, place.span.end);
  // Typographic characters old_str had and the matched lines lack were drift; new_str's copies are too.
  const drift = new Set([...fancyChars(oldStr)].filter((c) => !spanText.includes(c)));
  const skipBlank = RUNG_RULES[rung].skipBlank;
  return {
    span: place.span,
    drifts: driftsOf(rung, old, oldStr, table, place.span),
    adapt: (newStr: string) => {
      const repl: Lines = skipBlank ? trimEdgeBlanks(splitText(newStr), old) : splitText(newStr);
      let newLines = repl.lines;
      const reindent = makeReindent(place.pairs, newLines, () => indentStyle(allLines(table)));
      if (reindent) newLines = newLines.map(reindent);
      if (drift.size > 0) newLines = newLines.map((l) => plainOnly(l, drift));
      return joinLines(newLines, repl.finalBreak, table.eol);
    },
  };
}

function* allLines(table: LineTable): Iterable<string> {
  for (let i = 0; i < table.count; i++) yield table.line(i);
}

function joinLines(lines: readonly string[], finalBreak: boolean, eol: Eol): string {
  return lines.join(eol) + (finalBreak ? eol : '');
}

/** A replacement's lines and whether it ends with a line break. */
interface Lines {
  readonly lines: readonly string[];
  readonly finalBreak: boolean;
}

function leadingBlanks(ls: readonly string[]): number {
  let n = 0;
  while (n < ls.length && isBlank(ls[n]!)) n++;
  return n;
}

function trailingBlanks(ls: readonly string[]): number {
  let n = 0;
  while (n < ls.length && isBlank(ls[ls.length - 1 - n]!)) n++;
  return n;
}

/**
 * When blank lines are skipped, old_str's leading blank lines and trailing line breaks are not
 * part of the span; drop as many of new_str's own so they are not added twice.
 */
function trimEdgeBlanks(repl: SplitText, old: SplitText): Lines {
  const lead = Math.min(leadingBlanks(repl.lines), leadingBlanks(old.lines));
  // Breaks after the last non-blank line: one per trailing blank line, plus a final break.
  const breaks = (t: SplitText) => Math.min(trailingBlanks(t.lines), t.lines.length - 1) + (t.finalBreak ? 1 : 0);
  let drop = Math.min(breaks(repl), breaks(old));
  let finalBreak = repl.finalBreak;
  if (finalBreak && drop > 0) {
    finalBreak = false;
    drop--;
  }
  return { lines: repl.lines.slice(lead, Math.max(lead, repl.lines.length - drop)), finalBreak };
}

/** Replaces each span (non-overlapping, any order) with its text. */
export function replaceSpans(text: string, edits: readonly { span: MatchSpan; text: string }[]): string {
  const sorted = [...edits].sort((x, y) => x.span.start - y.span.start);
  let out = '';
  let at = 0;
  for (const e of sorted) {
    if (e.span.start < at)
      throw new RangeError(`replaceSpans: overlapping spans at offset ${e.span.start} (previous ended at ${at})`);
    out += text.slice(at, e.span.start) + e.text;
    at = e.span.end;
  }
  return out + text.slice(at);
}
