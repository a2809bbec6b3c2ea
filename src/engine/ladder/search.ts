/**
 * The searches behind the rungs: exact substring search, and line-sequence search under a rung's
 * normalizer. Both return every non-overlapping place in file order; the ladder decides what
 * one place or several mean. Line keys are computed once per normalizer and only for the lines
 * in the search window, so a search is linear in the file.
 */
import { countBreaks, indentOf, isBlank, type LineTable, type SplitText } from './lines.ts';
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
  for (let i = text.indexOf(needle, from); i >= 0 && i + needle.length <= to; i = text.indexOf(needle, i + needle.length)) {
    // Line numbers are counted incrementally from the previous place, not from the top each time.
    line += countBreaks(text, counted, i);
    counted = i;
    const endLine = line + countBreaks(needle, 0, needle.length - 1);
    places.push({ span: { start: i, end: i + needle.length, startLine: line, endLine }, pairs: [] });
  }
  return places;
}

/** A file's lines within a search window, with per-normalizer keys computed on demand. */
export class Haystack {
  private readonly keyCache = new Map<(line: string) => string, string[]>();
  private nonBlankCache: number[] | undefined;
  private allCache: number[] | undefined;

  /** `first`/`last`: the window, 0-based inclusive line indices. */
  constructor(
    readonly table: LineTable,
    readonly first = 0,
    readonly last = table.count - 1,
  ) {}

  /** `key(line)` for each line; indices outside the window hold ''. */
  keys(key: (line: string) => string): string[] {
    let keys = this.keyCache.get(key);
    if (!keys) {
      keys = new Array<string>(this.table.count).fill('');
      for (let i = this.first; i <= this.last; i++) keys[i] = key(this.table.line(i));
      this.keyCache.set(key, keys);
    }
    return keys;
  }

  /** Indices of the window's lines, or of its non-blank lines only. */
  lineIndices(skipBlank: boolean): number[] {
    if (skipBlank) {
      if (!this.nonBlankCache) {
        this.nonBlankCache = [];
        for (let i = this.first; i <= this.last; i++) if (!isBlank(this.table.line(i))) this.nonBlankCache.push(i);
      }
      return this.nonBlankCache;
    }
    if (!this.allCache) {
      this.allCache = [];
      for (let i = this.first; i <= this.last; i++) this.allCache.push(i);
    }
    return this.allCache;
  }
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
  const keys = hay.keys(rule.key);
  const idx = hay.lineIndices(rule.skipBlank);
  // With blank lines skipped, old_str's trailing breaks are not part of the span (the adapter trims new_str's to match).
  const throughBreak = old.finalBreak && !rule.skipBlank;
  const places: Place[] = [];
  const head = oldKeys[0]!;
  for (let p = 0; p + k <= idx.length; p++) {
    if (keys[idx[p]!] !== head) continue;
    let j = 1;
    while (j < k && keys[idx[p + j]!] === oldKeys[j]) j++;
    if (j < k) continue;
    const pairs: IndentPair[] = [];
    for (let m = 0; m < k; m++) {
      const fileLine = hay.table.line(idx[p + m]!);
      if (!isBlank(oldLines[m]!)) pairs.push({ from: indentOf(oldLines[m]!), to: indentOf(fileLine) });
    }
    // Same words under a different indentation structure is another block, not drift.
    if (rule.ignoresIndent && !indentationFits(pairs, true)) continue;
    places.push({ span: hay.table.span(idx[p]!, idx[p + k - 1]!, throughBreak), pairs });
    p += k - 1;
  }
  return places;
}
