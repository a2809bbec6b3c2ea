/**
 * Where a hunk goes. The match ladder runs over the whole file and, when the hunk carries a
 * line number, inside a window of ±AnchorWindowLines around it:
 * - a place in the window found by the same rung as the whole file's first match is the
 *   hunk's place, even when the file has other places at that rung (the line number tells
 *   them apart); two or more places in the window are ambiguous and refused;
 * - when the window's best is looser than a match elsewhere in the file (the line number
 *   says "here, roughly", the text says "there, exactly"), the hunk is refused as a conflict —
 *   unless the window's best is only first+last-line anchors: a hunk found whole elsewhere
 *   outweighs two matching lines near a line number, and the whole file's search decides;
 * - nothing in the window: the header is missing or wrong, and the whole file's search
 *   decides — one place, or refused as ambiguous exactly as ws_edit refuses.
 * A hunk is made of whole lines, so an exact match must cover whole lines (leading or
 * trailing whitespace of the line aside); a match in the middle of a line is not a place.
 *
 * An exact match in the window decides by itself (no rung ranks above exact, so the whole
 * file cannot outweigh it), so that case is settled first by searching the window's own text
 * (`exactInWindow`): a multi-hunk patch whose hunks are where their @@ lines say costs each
 * hunk its window, not a ladder over the whole file.
 */
import { similarity } from '../fuzzy.ts';
import {
  detectEol,
  findMatch,
  withEol,
  RUNG_ORDER,
  type ClosestSpan,
  type LadderMatch,
  type LadderOptions,
  type MatchSpan,
  type RungId,
  type Drift,
} from '../ladder/index.ts';
import { countBreaks } from '../ladder/lines.ts';

/** Lines either side of a hunk's @@ line searched before the whole file (the spec's AnchorWindowLines). */
export const AnchorWindowLines = 20;

/** Where a hunk goes: one place (and how it was found), or why there is none. */
export type Located =
  | {
      readonly kind: 'found';
      readonly rung: RungId;
      readonly span: MatchSpan;
      /** Every drift the match tolerated (none for exact). */
      readonly drifts: readonly Drift[];
      readonly adapt: (newStr: string) => string;
      /** 'window' = near its @@ line; 'file' = found by searching the whole file. */
      readonly scope: 'window' | 'file';
    }
  | {
      readonly kind: 'ambiguous';
      readonly rung: RungId;
      readonly spans: readonly MatchSpan[];
      readonly scope: 'window' | 'file';
    }
  | {
      readonly kind: 'conflict';
      /** The best place near the @@ line and the stricter match elsewhere. */
      readonly near: { readonly rung: RungId; readonly span: MatchSpan };
      readonly far: { readonly rung: RungId; readonly spans: readonly MatchSpan[] };
    }
  | { readonly kind: 'none'; readonly closest?: ClosestSpan };

/** A line of the text and the offset it starts at: where a walk to a later line may begin. */
export interface LineStart {
  readonly line: number;
  readonly offset: number;
}

/** Line 1 starts at offset 0. */
export const TOP: LineStart = { line: 1, offset: 0 };

type Settled =
  | {
      readonly kind: 'unique';
      readonly rung: RungId;
      readonly span: MatchSpan;
      readonly drifts: readonly Drift[];
      readonly adapt: (s: string) => string;
    }
  | { readonly kind: 'ambiguous'; readonly rung: RungId; readonly spans: readonly MatchSpan[] }
  | { readonly kind: 'none'; readonly closest?: ClosestSpan };

/**
 * Finds `oldText` (a hunk's old lines joined with the file's line ending) in `text`.
 * `expectedLine` is the hunk's @@ line with earlier hunks' delta applied; `lineCount` is the
 * old side's number of lines, so the window holds the whole hunk.
 */
export function locateHunk(
  text: string,
  oldText: string,
  opts: LadderOptions,
  expectedLine?: number,
  lineCount = 1,
  known: LineStart = TOP,
): Located {
  const window =
    expectedLine === undefined
      ? undefined
      : {
          startLine: Math.max(1, expectedLine - AnchorWindowLines),
          endLine: Math.max(1, expectedLine + lineCount - 1 + AnchorWindowLines),
        };
  const quick = window && oldText !== '' ? exactInWindow(text, oldText, window, known) : null;
  if (quick) return quick;
  const file = settle(text, findMatch(text, oldText, opts), oldText);
  if (window === undefined) return fromFile(file);
  const near = settle(text, findMatch(text, oldText, { ...opts, window }), oldText);
  if (near.kind === 'none') return fromFile(file);
  if (file.kind !== 'none' && rank(file.rung) < rank(near.rung)) {
    // Anchors alone (a middle that differs) do not hold against the whole hunk found elsewhere.
    if (near.rung === 'anchors') return fromFile(file);
    const far = file.kind === 'unique' ? [file.span] : file.spans;
    const span = near.kind === 'unique' ? near.span : near.spans[0]!;
    return { kind: 'conflict', near: { rung: near.rung, span }, far: { rung: file.rung, spans: far } };
  }
  return near.kind === 'unique'
    ? { kind: 'found', rung: near.rung, span: near.span, drifts: near.drifts, adapt: near.adapt, scope: 'window' }
    : { kind: 'ambiguous', rung: near.rung, spans: near.spans, scope: 'window' };
}

/**
 * The whole-line exact places of `oldText` inside the window, found in the window's text
 * alone — what `findMatch` with the window and `settle` give when they find any; null when
 * there are none (or the window starts past the file's last line), and the full search decides.
 * The walk to the window starts at `known` when that line is not below the window.
 */
function exactInWindow(
  text: string,
  oldText: string,
  window: { startLine: number; endLine: number },
  known: LineStart,
): Located | null {
  const start = known.line <= window.startLine ? known : TOP;
  let from = start.offset;
  for (let line = start.line; line < window.startLine; line++) {
    const nl = text.indexOf('\n', from);
    if (nl < 0) return null;
    from = nl + 1;
  }
  if (from >= text.length) return null;
  let to = from;
  for (let line = window.startLine; line <= window.endLine && to < text.length; line++) {
    const nl = text.indexOf('\n', to);
    to = nl < 0 ? text.length : nl + 1;
  }
  const spans: MatchSpan[] = [];
  let line = window.startLine;
  let counted = from;
  for (
    let i = text.indexOf(oldText, from);
    i >= 0 && i + oldText.length <= to;
    i = text.indexOf(oldText, i + oldText.length)
  ) {
    line += countBreaks(text, counted, i);
    counted = i;
    const span = {
      start: i,
      end: i + oldText.length,
      startLine: line,
      endLine: line + countBreaks(oldText, 0, oldText.length - 1),
    };
    if (wholeLines(text, span)) spans.push(span);
  }
  if (spans.length === 0) return null;
  if (spans.length > 1) return { kind: 'ambiguous', rung: 'exact', spans, scope: 'window' };
  const eol = detectEol(text);
  return { kind: 'found', rung: 'exact', span: spans[0]!, drifts: [], adapt: (s) => withEol(s, eol), scope: 'window' };
}

function fromFile(s: Settled): Located {
  switch (s.kind) {
    case 'unique':
      return { kind: 'found', rung: s.rung, span: s.span, drifts: s.drifts, adapt: s.adapt, scope: 'file' };
    case 'ambiguous':
      return { kind: 'ambiguous', rung: s.rung, spans: s.spans, scope: 'file' };
    case 'none':
      return s;
    default: {
      const never: never = s;
      throw new Error(`fromFile: unhandled ${JSON.stringify(never)}`);
    }
  }
}

function rank(rung: RungId): number {
  return RUNG_ORDER.indexOf(rung);
}

/** A ladder result with exact places that do not cover whole lines dropped. */
function settle(text: string, m: LadderMatch, oldText: string): Settled {
  if (m.kind === 'none') return m;
  if (m.rung !== 'exact') return m.kind === 'unique' ? m : { kind: 'ambiguous', rung: m.rung, spans: m.spans };
  const all = m.kind === 'unique' ? [m.span] : m.spans;
  const spans = all.filter((s) => wholeLines(text, s));
  // Found only inside longer lines: not a place, but the nearest thing to one for the hint.
  if (spans.length === 0) return { kind: 'none', closest: partLineHint(text, all[0]!, oldText) };
  if (spans.length > 1) return { kind: 'ambiguous', rung: 'exact', spans };
  const eol = detectEol(text);
  return { kind: 'unique', rung: 'exact', span: spans[0]!, drifts: [], adapt: (s) => withEol(s, eol) };
}

/** The whole lines around a match that sits inside longer lines. */
function partLineHint(text: string, span: MatchSpan, oldText: string): ClosestSpan {
  const from = text.lastIndexOf('\n', span.start - 1) + 1;
  const nl = text.indexOf('\n', span.end);
  const lines = text.slice(from, nl < 0 ? text.length : nl).replace(/\r(?=\n|$)/g, '');
  return { startLine: span.startLine, endLine: span.endLine, text: lines, similarity: similarity(oldText, lines) };
}

/** True when only spaces and tabs stand between the span and the line breaks around it. */
function wholeLines(text: string, span: MatchSpan): boolean {
  for (let i = span.start - 1; i >= 0 && text[i] !== '\n'; i--) if (text[i] !== ' ' && text[i] !== '\t') return false;
  for (let i = span.end; i < text.length && text[i] !== '\n'; i++)
    if (text[i] !== ' ' && text[i] !== '\t' && text[i] !== '\r') return false;
  return true;
}
