/**
 * The last rung: old_str's first and last lines anchor the span and its middle may differ (a
 * line mistyped, dropped or added while re-emitting it). It is the rung that can do the most
 * damage, so it is fenced in on every side:
 * - old_str needs at least 3 non-blank lines (two anchors and a middle);
 * - the anchors are old_str's first and last lines, each grown by the neighbouring lines that
 *   also match exactly, and one anchor line must be distinctive — real words, not just `}`;
 * - the span may be at most a fifth of old_str (1 to 3 lines) longer or shorter than it;
 * - the head/tail pair must be rare: past a few dozen candidate pairs nothing is matched;
 * - the anchors keep old_str's indentation structure (one shift for all of them);
 * - the middle must still be old_str's middle line by line: at most that many lines dropped or
 *   added, and the lines that pair up alike on average, so a hallucinated block between two
 *   real lines is not taken for a drifted copy.
 * Lines are compared as the quote/dash rung compares them: trimmed, plain punctuation, blank
 * lines skipped.
 */
import { lineSimilarity } from '../fuzzy.ts';
import { indentationFits, type IndentPair } from './indent.ts';
import { indentOf, type SplitText } from './lines.ts';
import { RUNG_RULES } from './normalize.ts';
import type { Haystack } from './haystack.ts';
import { comparedLines, type Place } from './search.ts';

/** Non-blank lines old_str needs for this rung. */
export const MIN_ANCHORED_LINES = 3;
/** Word characters at least one anchor must have. */
export const MIN_ANCHOR_WORD_CHARS = 6;
/** However long old_str is, the span may differ from it by at most this many lines. */
const MAX_LENGTH_TOLERANCE = 3;
/** Head+tail pairs worth a closer look; past this the anchors do not single out a place. */
const MAX_ANCHOR_CANDIDATES = 32;
/** How alike the middle lines that pair up must be on average (0..1). */
export const MIN_PAIRED_SIMILARITY = 0.7;
/** Two lines below this similarity are not counted as the same line drifted. */
const MIN_LINE_SIMILARITY = 0.5;

const WORD_CHAR = /[\p{L}\p{N}_]/gu;

function wordChars(s: string): number {
  return s.match(WORD_CHAR)?.length ?? 0;
}

/** How many lines longer or shorter than old_str (non-blank lines) the span may be. */
function lengthTolerance(lines: number): number {
  return Math.min(MAX_LENGTH_TOLERANCE, Math.max(1, Math.floor(lines / 5)));
}

/** How two runs of lines pair up: lines paired, lines left without a partner, and the pairs' mean similarity. */
export interface Pairing {
  readonly pairs: number;
  readonly unpaired: number;
  readonly similarity: number;
}

/**
 * The best in-order pairing of two runs of lines (each pair worth its similarity; lines less
 * than MIN_LINE_SIMILARITY alike do not pair). A dropped or added line is left unpaired, a
 * mistyped one pairs with a similarity below 1. Only lines at most `band` positions apart are
 * compared — a pairing that needs more leaves more than `band` lines unpaired anyway — so the
 * cost is linear in the runs' length.
 */
export function pairLines(a: readonly string[], b: readonly string[], band = Math.max(a.length, b.length)): Pairing {
  type Cell = { sum: number; pairs: number };
  const better = (x: Cell, y: Cell): Cell => (y.sum > x.sum ? y : x);
  let prev: Cell[] = Array.from({ length: b.length + 1 }, () => ({ sum: 0, pairs: 0 }));
  for (let i = 1; i <= a.length; i++) {
    const cur: Cell[] = [{ sum: 0, pairs: 0 }];
    for (let j = 1; j <= b.length; j++) {
      let best = better(prev[j]!, cur[j - 1]!);
      const s = Math.abs(i - j) <= band ? lineSimilarity(a[i - 1]!, b[j - 1]!, MIN_LINE_SIMILARITY) : 0;
      if (s >= MIN_LINE_SIMILARITY) best = better(best, { sum: prev[j - 1]!.sum + s, pairs: prev[j - 1]!.pairs + 1 });
      cur.push(best);
    }
    prev = cur;
  }
  const end = prev[b.length]!;
  return {
    pairs: end.pairs,
    unpaired: a.length + b.length - 2 * end.pairs,
    similarity: end.pairs === 0 ? 1 : end.sum / end.pairs,
  };
}

/** Every place where old_str's first and last lines anchor a span whose middle is close to old_str's. */
export function anchoredPlaces(hay: Haystack, old: SplitText): Place[] {
  const rule = RUNG_RULES.anchors;
  const oldLines = comparedLines(old, true);
  const k = oldLines.length;
  if (k < MIN_ANCHORED_LINES) return [];
  const oldKeys = oldLines.map(rule.key);
  const tol = lengthTolerance(k);
  const found: { place: Place; unpaired: number }[] = [];
  let looked = 0;
  for (const head of hay.linesKeyed(rule.key, oldKeys[0]!)) {
    // The file's non-blank lines from the head line on, as far as the tail line may be.
    const run = hay.run(head, k + tol, true);
    const fileKey = (n: number): string => hay.key(rule.key, run[n]!);
    // The head anchor: old_str's first line and the lines after it that match too.
    let a = 1;
    while (a < k - 1 && a < run.length && fileKey(a) === oldKeys[a]) a++;
    // q is the tail line's position in the run.
    for (let q = Math.max(a, k - 1 - tol); q < run.length; q++) {
      if (fileKey(q) !== oldKeys[k - 1]) continue;
      if (++looked > MAX_ANCHOR_CANDIDATES) return [];
      let b = 1;
      while (a + b < k && q - b >= a && fileKey(q - b) === oldKeys[k - 1 - b]) b++;
      const anchors = [...oldKeys.slice(0, a), ...oldKeys.slice(k - b)];
      if (!anchors.some((l) => wordChars(l) >= MIN_ANCHOR_WORD_CHARS)) continue;
      const pairing = pairLines(
        oldKeys.slice(a, k - b),
        run.slice(a, q - b + 1).map((i) => hay.key(rule.key, i)),
        tol,
      );
      if (pairing.unpaired > tol || pairing.similarity < MIN_PAIRED_SIMILARITY) continue;
      const pairs: IndentPair[] = [];
      for (let t = 0; t < a; t++) pairs.push({ from: indentOf(oldLines[t]!), to: indentOf(hay.table.line(run[t]!)) });
      for (let t = b - 1; t >= 0; t--)
        pairs.push({ from: indentOf(oldLines[k - 1 - t]!), to: indentOf(hay.table.line(run[q - t]!)) });
      if (!indentationFits(pairs, false)) continue;
      found.push({ place: { span: hay.table.span(head, run[q]!), pairs }, unpaired: pairing.unpaired });
    }
  }
  return settleOverlaps(found);
}

/**
 * Overlapping places are one region read with different extents (a repeated `}` as the tail, a
 * repeated head line). When one of them pairs strictly more lines than the others it is the
 * region's extent; otherwise they all stay, and the ladder refuses them as ambiguous.
 */
function settleOverlaps(found: readonly { place: Place; unpaired: number }[]): Place[] {
  const sorted = [...found].sort((a, b) => a.place.span.start - b.place.span.start);
  const places: Place[] = [];
  for (let i = 0; i < sorted.length;) {
    let end = sorted[i]!.place.span.end;
    let j = i + 1;
    while (j < sorted.length && sorted[j]!.place.span.start < end) end = Math.max(end, sorted[j++]!.place.span.end);
    const group = sorted.slice(i, j);
    const fewest = Math.min(...group.map((g) => g.unpaired));
    const best = group.filter((g) => g.unpaired === fewest);
    places.push(...(best.length === 1 ? best : group).map((g) => g.place));
    i = j;
  }
  return places;
}
