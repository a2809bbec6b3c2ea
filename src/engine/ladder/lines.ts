/**
 * Line tables: a file's text split into lines once, with the offsets the ladder needs to turn a
 * line-level match back into a character span, and the file's own line ending so that what is
 * written back keeps it.
 */
import type { MatchSpan } from './types.ts';

export type Eol = '\n' | '\r\n';

/** A text split into lines. Line contents exclude the line break (and a `\r` before it). */
export class LineTable {
  /** Offset where each line starts. */
  readonly starts: number[] = [];
  /** Offset where each line's content ends (before `\r\n` / `\n`). */
  readonly ends: number[] = [];
  /** The dominant line ending: CRLF when most breaks are CRLF. */
  readonly eol: Eol;

  constructor(readonly text: string) {
    let start = 0;
    // A final line break does not start another line (as an editor shows it).
    while (start < text.length) {
      const nl = text.indexOf('\n', start);
      if (nl < 0) {
        this.starts.push(start);
        this.ends.push(text.length);
        break;
      }
      const cr = nl > start && text.charCodeAt(nl - 1) === 13;
      this.starts.push(start);
      this.ends.push(cr ? nl - 1 : nl);
      start = nl + 1;
    }
    this.eol = detectEol(text);
  }

  get count(): number {
    return this.starts.length;
  }

  /** Content of line `i` (0-based). */
  line(i: number): string {
    return this.text.slice(this.starts[i], this.ends[i]);
  }

  /** Offset just past line `i`'s line break (or the end of the text). */
  nextStart(i: number): number {
    return i + 1 < this.count ? this.starts[i + 1]! : this.text.length;
  }

  /** The 0-based line holding character offset `offset` (binary search). */
  lineAt(offset: number): number {
    let lo = 0;
    let hi = this.count - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.starts[mid]! <= offset) lo = mid;
      else hi = mid - 1;
    }
    return lo;
  }

  /**
   * The span of lines [first, last] (0-based, inclusive): from the first line's start to the
   * last line's content end, so the file's own line break after the span is kept. With
   * `throughBreak` the span also takes the last line's break (old_str ended with a newline).
   */
  span(first: number, last: number, throughBreak = false): MatchSpan {
    return {
      start: this.starts[first]!,
      end: throughBreak ? this.nextStart(last) : this.ends[last]!,
      startLine: first + 1,
      endLine: last + 1,
    };
  }
}

/** The lines of a search or replacement text, and whether it ended with a line break. */
export interface SplitText {
  readonly lines: string[];
  readonly finalBreak: boolean;
}

/** Splits old_str/new_str on LF or CRLF; a final break is reported rather than kept as an empty line. */
export function splitText(s: string): SplitText {
  const lines = s.split(/\r?\n/);
  const finalBreak = lines.length > 1 && lines[lines.length - 1] === '';
  if (finalBreak) lines.pop();
  return { lines, finalBreak };
}

/** Rewrites every line break in `s` as `eol`. */
export function withEol(s: string, eol: Eol): string {
  return eol === '\n' ? s.replace(/\r\n/g, '\n') : s.replace(/\r?\n/g, '\r\n');
}

/** Leading spaces and tabs of a line. */
export function indentOf(line: string): string {
  let i = 0;
  while (i < line.length && (line.charCodeAt(i) === 32 || line.charCodeAt(i) === 9)) i++;
  return line.slice(0, i);
}

/** True when the line holds nothing but whitespace. */
export function isBlank(line: string): boolean {
  return line.trim() === '';
}

/** The dominant line ending of a text (CRLF when most breaks are CRLF); cheap when it has no `\r`. */
export function detectEol(text: string): Eol {
  if (!text.includes('\r\n')) return '\n';
  let crlf = 0;
  let lf = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) {
    if (i > 0 && text.charCodeAt(i - 1) === 13) crlf++;
    else lf++;
  }
  return crlf > lf ? '\r\n' : '\n';
}

/** How many line breaks text[from, to) holds. */
export function countBreaks(text: string, from: number, to: number): number {
  let n = 0;
  for (let i = text.indexOf('\n', from); i >= 0 && i < to; i = text.indexOf('\n', i + 1)) n++;
  return n;
}
