/**
 * The closest-span hint: when no ladder rung matched, find the lines of the file that look most
 * like old_str, so the not-found message can quote them with their line numbers. Candidate
 * places are voted for by the rarer words each line of old_str shares with the file, then the
 * best few are scored by character-bigram similarity — linear in the file, never quadratic.
 */
import type { ClosestSpan } from './ladder/types.ts';
import type { LineTable } from './ladder/lines.ts';
import { plainPunctuation } from './ladder/normalize.ts';
import { editDistance } from './missing-path.ts';

/** Below this similarity a span is not worth quoting: old_str is not in the file in any form. */
export const MIN_HINT_SIMILARITY = 0.3;
/** A word on more lines than this is too common to point anywhere. */
const MAX_WORD_LINES = 40;
/** How many of the best-voted places are scored in full. */
const SCORED_PLACES = 6;

const WORD = /[\p{L}\p{N}_]{2,}/gu;

const WORD_CHAR = /[\p{L}\p{N}_]/u;

/** The lines in [first, last] where `word` occurs as a whole word; stops past MAX_WORD_LINES lines. */
function linesWithWord(table: LineTable, word: string, first: number, last: number): number[] {
  const text = table.text;
  const to = table.nextStart(last);
  const at: number[] = [];
  for (let i = text.indexOf(word, table.starts[first]); i >= 0 && i < to; i = text.indexOf(word, i + word.length)) {
    if (WORD_CHAR.test(text.charAt(i - 1)) || WORD_CHAR.test(text.charAt(i + word.length))) continue;
    const line = table.lineAt(i);
    if (at[at.length - 1] === line) continue;
    at.push(line);
    if (at.length > MAX_WORD_LINES) break;
  }
  return at;
}

/**
 * Dice coefficient over character bigrams: 1 for equal texts, 0 for texts sharing no bigram.
 * Cheap (linear) and tolerant of the one-character typos and dropped words models make.
 */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  if (a.length < 2 || b.length < 2) return 0;
  const grams = new Map<number, number>();
  for (let i = 0; i + 1 < a.length; i++) {
    const g = (a.charCodeAt(i) << 16) | a.charCodeAt(i + 1);
    grams.set(g, (grams.get(g) ?? 0) + 1);
  }
  let shared = 0;
  for (let i = 0; i + 1 < b.length; i++) {
    const g = (b.charCodeAt(i) << 16) | b.charCodeAt(i + 1);
    const n = grams.get(g);
    if (n) {
      shared++;
      grams.set(g, n - 1);
    }
  }
  return (2 * shared) / (a.length - 1 + (b.length - 1));
}

/**
 * How alike two lines are: 1 − edit distance / the longer length. Unlike bigrams it treats a
 * one-character typo in a short line (`retrn` for `return`) as the small drift it is. Lines less
 * than `floor` alike return 0 early (the distance computation stops once it is out of reach).
 */
export function lineSimilarity(a: string, b: string, floor = 0): number {
  if (a === b) return 1;
  const longer = Math.max(a.length, b.length);
  const limit = Math.floor((1 - floor) * longer);
  const d = editDistance(a, b, limit);
  return d > limit ? 0 : 1 - d / longer;
}

/** The comparison form of a block of lines for the hint: plain punctuation, no indentation or blank lines. */
function comparable(lines: readonly string[]): string {
  return lines
    .map((l) => plainPunctuation(l).trim())
    .filter((l) => l !== '')
    .join('\n');
}

/**
 * The span of `oldLines.length` lines in `table` (within lines [first, last], 0-based) most like
 * `oldLines`, or undefined when nothing is at least MIN_HINT_SIMILARITY alike.
 */
export function closestSpan(
  table: LineTable,
  oldLines: readonly string[],
  first = 0,
  last = table.count - 1,
): ClosestSpan | undefined {
  const n = oldLines.length;
  const places = last - first + 1 - n + 1;
  if (n === 0 || places <= 0) return undefined;

  // Which file lines hold each word old_str uses: one native substring scan per word, stopping
  // once the word is too common to point anywhere.
  const oldWords = oldLines.map((l) => new Set(plainPunctuation(l).match(WORD) ?? []));
  const wanted = new Map<string, number[]>();
  for (const ws of oldWords)
    for (const w of ws) if (!wanted.has(w)) wanted.set(w, linesWithWord(table, w, first, last));
  if (wanted.size === 0) return undefined;

  // Each old line k votes for the places where the lines sharing its words would put old_str.
  const votes = new Float64Array(places);
  oldWords.forEach((ws, k) => {
    for (const w of ws) {
      const at = wanted.get(w)!;
      if (at.length === 0 || at.length > MAX_WORD_LINES) continue;
      for (const i of at) {
        const p = Math.min(Math.max(i - k - first, 0), places - 1);
        votes[p]! += 1 / ws.size;
      }
    }
  });
  const best = [...votes.keys()]
    .filter((p) => votes[p]! > 0)
    .sort((a, b) => votes[b]! - votes[a]! || a - b)
    .slice(0, SCORED_PLACES);
  if (best.length === 0) return undefined;

  const target = comparable(oldLines);
  let top: ClosestSpan | undefined;
  for (const p of best) {
    const lines: string[] = [];
    for (let i = first + p; i < first + p + n; i++) lines.push(table.line(i));
    const sim = similarity(target, comparable(lines));
    if (!top || sim > top.similarity) {
      top = { startLine: first + p + 1, endLine: first + p + n, text: lines.join('\n'), similarity: sim };
    }
  }
  return top && top.similarity >= MIN_HINT_SIMILARITY ? top : undefined;
}
