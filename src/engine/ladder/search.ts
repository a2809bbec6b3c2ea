/**
 * The searches behind the rungs: exact substring search, and line-sequence search under a rung's
 * normalizer. Both return every non-overlapping place in file order; the ladder decides what
 * one place or several mean. A sequence search starts only from the lines whose key is old_str's
 * first line's (see haystack.ts), so it is linear in the file's text, not in its lines × rungs.
 */
import { countBreaks, indentOf, isBlank, type SplitText } from './lines.ts';
import type { Haystack } from './haystack.ts';
import { indentationFits, type IndentPair } from './indent.ts';
import type { RungRule } from './normalize.ts';
import type { MatchSpan } from './types.ts';

/** A place a rung matched, before the replacement is adapted to it. */
export interface Place {
  readonly span: MatchSpan;
  /** old_str's indentation against the file's on the lines that correspond. */
  readonly pairs: readonly IndentPair[];
}

/** Every non-overlapping exact occurrence of `needle` within text offsets [from, to). */
export function exactPlaces(text: string, needle: string, from = 0, to = text.length): Place[] {
  const places: Place[] = [];
  let line = 1;
  let counted = 0;
  for (
    let i = text.indexOf(needle, from);
    i >= 0 && i + needle.length <= to;
    i = text.indexOf(needle, i + needle.length)
  ) {
    // Line numbers are counted incrementally from the previous place, not from the top each time.
    line += countBreaks(text, counted, i);
    counted = i;
    const endLine = line + countBreaks(needle, 0, needle.length - 1);
    places.push({ span: { start: i, end: i + needle.length, startLine: line, endLine }, pairs: [] });
  }
  return places;
}

/** old_str's lines a rung compares: all of them, or the non-blank ones. */
export function comparedLines(old: SplitText, skipBlank: boolean): string[] {
  return skipBlank ? old.lines.filter((l) => !isBlank(l)) : old.lines;
}

/**
 * Every non-overlapping place where old_str's lines equal a run of file lines under `rule`
 * (with blank lines skipped on both sides when the rule says so).
 */
export function sequencePlaces(hay: Haystack, rule: RungRule, old: SplitText): Place[] {
  const oldLines = comparedLines(old, rule.skipBlank);
  const k = oldLines.length;
  if (k === 0) return [];
  const oldKeys = oldLines.map(rule.key);
  // With blank lines skipped, old_str's trailing breaks are not part of the span (the adapter trims new_str's to match).
  const throughBreak = old.finalBreak && !rule.skipBlank;
  const places: Place[] = [];
  // The last line of the place found before: places do not overlap.
  let taken = -1;
  for (const start of hay.linesKeyed(rule.key, oldKeys[0]!)) {
    if (start <= taken) continue;
    const lines = hay.run(start, k, rule.skipBlank);
    if (lines.length < k) continue;
    let j = 1;
    while (j < k && hay.key(rule.key, lines[j]!) === oldKeys[j]) j++;
    if (j < k) continue;
    const pairs: IndentPair[] = [];
    for (let m = 0; m < k; m++) {
      const fileLine = hay.table.line(lines[m]!);
      if (!isBlank(oldLines[m]!)) pairs.push({ from: indentOf(oldLines[m]!), to: indentOf(fileLine) });
    }
    // Same words under a different indentation structure is another block, not drift.
    if (rule.ignoresIndent && !indentationFits(pairs, true)) continue;
    places.push({ span: hay.table.span(start, lines[k - 1]!, throughBreak), pairs });
    taken = lines[k - 1]!;
  }
  return places;
}
