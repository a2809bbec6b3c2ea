/**
 * Applying one file's hunks, in order, to its text. Each hunk is found where it belongs
 * (`locateHunk`), with the delta of the hunks before it carried forward: when hunk 1 landed
 * ten lines below its @@ line and added two lines, hunk 2 is looked for twelve lines below
 * its own. A pure insertion (no old lines) goes after its @@ line. Every hunk is tried (up to
 * MAX_DIAGNOSED_FAILURES failures), so the report can name each one that would apply and each
 * one that did not; the caller writes
 * nothing unless all of them applied. Line numbers in the outcomes are those of the file as
 * it was before the patch — the file the model read, and the one still on disk after a miss.
 */
import {
  detectEol,
  LineTable,
  plainPunctuation,
  replaceSpans,
  splitText,
  type ClosestSpan,
  type LadderOptions,
  type MatchSpan,
  type RungId,
  type Drift,
} from '../ladder/index.ts';
import { splitLines } from '../text.ts';
import { countBreaks } from '../ladder/lines.ts';
import { planGutter, type GutterPlan } from './gutter.ts';
import { locateHunk, TOP, type LineStart, type Located } from './locate.ts';
import type { Hunk } from './model.ts';

/** Why a hunk did not apply; line numbers are the original file's. */
export type HunkFailure =
  | { readonly kind: 'not-found'; readonly oldText: string; readonly closest?: ClosestSpan }
  | {
      readonly kind: 'ambiguous';
      readonly rung: RungId;
      readonly spans: readonly MatchSpan[];
      readonly scope: 'window' | 'file';
      readonly header?: number;
    }
  | {
      readonly kind: 'conflict';
      readonly near: { readonly rung: RungId; readonly span: MatchSpan };
      readonly far: { readonly rung: RungId; readonly spans: readonly MatchSpan[] };
      readonly header: number;
    }
  | { readonly kind: 'partial-gutter'; readonly plan: Extract<GutterPlan, { kind: 'partial' }> }
  | { readonly kind: 'insert-range'; readonly afterLine: number; readonly lineCount: number }
  | { readonly kind: 'no-anchor' }
  /** Not looked for: MAX_DIAGNOSED_FAILURES hunks before it had failed, so the patch cannot apply anyway. */
  | { readonly kind: 'not-tried'; readonly failedBefore: number };

/**
 * Failed hunks diagnosed per file, at most. A failing hunk costs a search of the whole file at
 * every rung of the ladder (and a closest-span hint); after this many the patch is refused
 * anyway, so the rest are named as not tried, which bounds a call's work.
 */
export const MAX_DIAGNOSED_FAILURES = 10;

/** What became of one hunk: anchored (where, by which rung), inserted by line number, or failed. */
export type HunkOutcome =
  | {
      readonly kind: 'anchored';
      readonly rung: RungId;
      /** Every drift the match tolerated (none for exact). */
      readonly drifts: readonly Drift[];
      readonly startLine: number;
      readonly endLine: number;
      /** window = near its @@ line; file = its @@ line was missing or wrong and the whole file was searched. */
      readonly scope: 'window' | 'file';
      /** The @@ line as written, when the hunk had one. */
      readonly header?: number;
      /** A read gutter was stripped from the hunk's lines. */
      readonly gutter: boolean;
    }
  | { readonly kind: 'inserted'; readonly afterLine: number; readonly lines: number }
  | { readonly kind: 'failed'; readonly failure: HunkFailure };

/** One file's hunks applied in memory: the text and every hunk's outcome. */
export interface FileApply {
  readonly ok: boolean;
  /** The patched text (meaningful only when ok). */
  readonly text: string;
  readonly outcomes: readonly HunkOutcome[];
}

/** How hunks are located: the ladder's options, and whether a pasted read gutter is stripped (absent: it is, while tolerance is on). */
export type HunkOptions = Pick<LadderOptions, 'tolerance' | 'disabled'> & { readonly gutter?: boolean };

/** Applies `hunks` to `before`; `ok` only when every hunk applied. */
export function applyHunks(before: string, hunks: readonly Hunk[], opts: HunkOptions): FileApply {
  const eol = detectEol(before);
  const map = new LineMap();
  const outcomes: HunkOutcome[] = [];
  let text = before;
  // Added to an @@ line number to get its line in the text as patched so far.
  let shift = 0;
  // A line start the next hunk's window search may walk from: the text before it is unchanged.
  let known: LineStart = TOP;
  let failed = 0;
  for (const hunk of hunks) {
    if (failed >= MAX_DIAGNOSED_FAILURES) {
      outcomes.push({ kind: 'failed', failure: { kind: 'not-tried', failedBefore: failed } });
      continue;
    }
    if (hunk.oldLines.length === 0) {
      const after = hunk.oldStart === undefined ? (text === '' ? 0 : undefined) : hunk.oldStart + shift;
      const count = lineCount(text);
      if (after === undefined) {
        outcomes.push({ kind: 'failed', failure: { kind: 'no-anchor' } });
        failed++;
      } else if (after < 0 || after > count) {
        outcomes.push({
          kind: 'failed',
          failure: { kind: 'insert-range', afterLine: hunk.oldStart ?? after, lineCount: lineCount(before) },
        });
        failed++;
      } else {
        text = insertLines(text, after, hunk.newLines, eol, hunk.newNoEol);
        known = TOP;
        outcomes.push({ kind: 'inserted', afterLine: map.toOriginal(after), lines: hunk.newLines.length });
        map.record(after + 1, 0, hunk.newLines.length);
        shift += hunk.newLines.length;
      }
      continue;
    }
    const expected = hunk.oldStart === undefined ? undefined : Math.max(1, hunk.oldStart + shift);
    const found = findHunk(text, hunk, eol, opts, expected, known);
    if (found.kind === 'failed') {
      outcomes.push({ kind: 'failed', failure: map.failure(found.failure) });
      failed++;
      continue;
    }
    const { located, oldLines, newLines, gutter } = found;
    const reachesEnd = onLastLine(text, located.span);
    known = { line: located.span.startLine, offset: text.lastIndexOf('\n', located.span.start - 1) + 1 };
    const r = replaceLines(text, located, keepContext(text, located, oldLines, newLines, hunk.newFromOld, eol));
    text = atEof(r.text, hunk, reachesEnd, eol);
    outcomes.push({
      kind: 'anchored',
      rung: located.rung,
      drifts: located.drifts,
      startLine: map.toOriginal(located.span.startLine),
      endLine: map.toOriginal(located.span.endLine),
      scope: located.scope,
      ...(hunk.oldStart !== undefined ? { header: hunk.oldStart } : {}),
      gutter,
    });
    map.record(located.span.startLine, r.removed, r.added);
    shift = (hunk.oldStart === undefined ? shift : located.span.startLine - hunk.oldStart) + r.added - r.removed;
  }
  return { ok: outcomes.every((o) => o.kind !== 'failed'), text, outcomes };
}

type Found =
  | {
      readonly kind: 'found';
      readonly located: Extract<Located, { kind: 'found' }>;
      /** The hunk's lines as they were matched (a read gutter stripped, or as written). */
      readonly oldLines: readonly string[];
      readonly newLines: readonly string[];
      readonly gutter: boolean;
    }
  | { readonly kind: 'failed'; readonly failure: HunkFailure };

/** Locates a hunk with its lines as written, or with a read gutter stripped when that is what they carry. */
function findHunk(
  text: string,
  hunk: Hunk,
  eol: '\n' | '\r\n',
  opts: HunkOptions,
  expected: number | undefined,
  known: LineStart,
): Found {
  const asWritten = hunk.oldLines.join(eol);
  const plan =
    opts.tolerance && opts.gutter !== false
      ? planGutter(hunk.oldLines, hunk.newLines, () => text.includes(asWritten))
      : ({ kind: 'keep' } as const);
  if (plan.kind === 'partial') return { kind: 'failed', failure: { kind: 'partial-gutter', plan } };
  const ladder: LadderOptions = { tolerance: opts.tolerance, disabled: opts.disabled };
  const oldLines = plan.kind === 'strip' ? plan.oldLines : hunk.oldLines;
  let searched = oldLines.join(eol);
  let located = locateHunk(text, searched, ladder, expected, oldLines.length, known);
  if (plan.kind === 'strip') {
    if (located.kind === 'found') return { kind: 'found', located, oldLines, newLines: plan.newLines, gutter: true };
    // Numbers that belong to the text after all: the lines as written may still match.
    const raw = locateHunk(text, asWritten, ladder, expected, hunk.oldLines.length, known);
    if (raw.kind !== 'none') {
      located = raw;
      searched = asWritten;
    }
  }
  switch (located.kind) {
    case 'found':
      return { kind: 'found', located, oldLines: hunk.oldLines, newLines: hunk.newLines, gutter: false };
    case 'none':
      return {
        kind: 'failed',
        failure: located.closest
          ? { kind: 'not-found', oldText: searched, closest: located.closest }
          : { kind: 'not-found', oldText: searched },
      };
    case 'ambiguous':
      return {
        kind: 'failed',
        failure: {
          kind: 'ambiguous',
          rung: located.rung,
          spans: located.spans,
          scope: located.scope,
          ...(hunk.oldStart !== undefined ? { header: hunk.oldStart } : {}),
        },
      };
    case 'conflict':
      return {
        kind: 'failed',
        failure: { kind: 'conflict', near: located.near, far: located.far, header: hunk.oldStart ?? 0 },
      };
    default: {
      const never: never = located;
      throw new Error(`findHunk: unhandled ${JSON.stringify(never)}`);
    }
  }
}

/**
 * The text that goes where the hunk matched: its new lines fitted to the file by the rung's
 * adapter (line endings, indentation, quote style) — and, for a diff hunk, each context line
 * taken from the file as it is, since a context line says "this line stays". That needs the
 * old lines to map one to one onto the matched lines, each context line recognizably the
 * file's (same text once indentation, trailing whitespace and quote style are set aside);
 * otherwise the hunk's own new side is written, as ws_edit writes new_str. `null` deletes.
 */
function keepContext(
  text: string,
  located: Extract<Located, { kind: 'found' }>,
  oldLines: readonly string[],
  newLines: readonly string[],
  newFromOld: readonly number[] | undefined,
  eol: string,
): string | null {
  if (newLines.length === 0) return null;
  const fitted = located.adapt(newLines.join('\n'));
  const { span } = located;
  // Exact matches are the file's lines already; without a one-to-one mapping there is nothing to keep.
  if (!newFromOld || located.rung === 'exact' || span.endLine - span.startLine + 1 !== oldLines.length) return fitted;
  const out = splitText(fitted);
  if (out.lines.length !== newLines.length) return fitted;
  const table = new LineTable(text);
  const key = (l: string): string => plainPunctuation(l).trim();
  const lines = [...out.lines];
  for (let i = 0; i < lines.length; i++) {
    const k = newFromOld[i]!;
    if (k < 0) continue;
    const fileLine = table.line(span.startLine - 1 + k);
    if (key(fileLine) !== key(oldLines[k]!)) return fitted;
    lines[i] = fileLine;
  }
  return lines.join(eol) + (out.finalBreak ? eol : '');
}

/**
 * Replaces the matched lines with `replacement`; null deletes the lines with their line
 * breaks (a hunk is whole lines: removing them must not leave an empty line behind).
 */
function replaceLines(
  text: string,
  located: Extract<Located, { kind: 'found' }>,
  replacement: string | null,
): { text: string; removed: number; added: number } {
  const { span } = located;
  const removed = span.endLine - span.startLine + 1;
  if (replacement === null) {
    const table = new LineTable(text);
    const from = table.starts[span.startLine - 1]!;
    // An exact match that took a line break ended on an empty old line: the blank line after it is part of the match.
    const tookBreak = span.end > span.start && span.end < text.length && text[span.end - 1] === '\n';
    const to = table.nextStart(span.endLine - 1 + (tookBreak ? 1 : 0));
    return { text: text.slice(0, from) + text.slice(to), removed, added: 0 };
  }
  return {
    text: replaceSpans(text, [{ span, text: replacement }]),
    removed,
    added: splitLines(replacement.replace(/\r\n/g, '\n')).length || 1,
  };
}

/** `\ No newline at end of file` on a hunk that reaches the file's last line decides its final line break. */
function atEof(text: string, hunk: Hunk, reachesEnd: boolean, eol: string): string {
  if (!reachesEnd) return text;
  if (hunk.newNoEol) return text.replace(/\r?\n$/, '');
  if (hunk.oldNoEol && text !== '' && !text.endsWith('\n')) return text + eol;
  return text;
}

/**
 * Whether the span's last line is the text's last line. Two line breaks after the span mean a
 * whole line follows it, so only a span near the end needs the text's line count.
 */
function onLastLine(text: string, span: MatchSpan): boolean {
  const next = text.indexOf('\n', span.end);
  if (next >= 0 && text.indexOf('\n', next + 1) >= 0) return false;
  return span.endLine >= lineCount(text);
}

/** `splitLines(text).length`, without making the lines. */
function lineCount(text: string): number {
  if (text === '') return 0;
  const breaks = countBreaks(text, 0, text.length);
  return text.endsWith('\n') ? breaks : breaks + 1;
}

/** Inserts `lines` after line `after` (0 = the top). */
function insertLines(text: string, after: number, lines: readonly string[], eol: string, noEol = false): string {
  if (lines.length === 0) return text;
  const body = lines.join(eol);
  if (text === '') return noEol ? body : body + eol;
  if (after === 0) return body + eol + text;
  const at = new LineTable(text).nextStart(after - 1);
  // After a last line without a line break: the break goes before the new lines, and the file still ends without one.
  if (at === text.length && !text.endsWith('\n')) return text + eol + body;
  return text.slice(0, at) + body + eol + text.slice(at);
}

/** Maps line numbers of the text as patched so far back to the file as it was before the patch. */
class LineMap {
  private readonly edits: { at: number; removed: number; added: number }[] = [];

  /** An edit that replaced `removed` lines at line `at` with `added` lines. */
  record(at: number, removed: number, added: number): void {
    this.edits.push({ at, removed, added });
  }

  toOriginal(line: number): number {
    let l = line;
    for (let k = this.edits.length - 1; k >= 0; k--) {
      const e = this.edits[k]!;
      if (l >= e.at + e.added) l -= e.added - e.removed;
      else if (l >= e.at) l = e.at + Math.min(l - e.at, Math.max(e.removed - 1, 0));
    }
    return l;
  }

  private span(s: MatchSpan): MatchSpan {
    return { ...s, startLine: this.toOriginal(s.startLine), endLine: this.toOriginal(s.endLine) };
  }

  /** A failure with its line numbers in the file's original numbering. */
  failure(f: HunkFailure): HunkFailure {
    switch (f.kind) {
      case 'not-found':
        return f.closest
          ? {
              ...f,
              closest: {
                ...f.closest,
                startLine: this.toOriginal(f.closest.startLine),
                endLine: this.toOriginal(f.closest.endLine),
              },
            }
          : f;
      case 'ambiguous':
        return { ...f, spans: f.spans.map((s) => this.span(s)) };
      case 'conflict':
        return {
          ...f,
          near: { ...f.near, span: this.span(f.near.span) },
          far: { ...f.far, spans: f.far.spans.map((s) => this.span(s)) },
        };
      case 'partial-gutter':
      case 'insert-range':
      case 'no-anchor':
      case 'not-tried':
        return f;
      default: {
        const never: never = f;
        throw new Error(`LineMap.failure: unhandled ${JSON.stringify(never)}`);
      }
    }
  }
}
