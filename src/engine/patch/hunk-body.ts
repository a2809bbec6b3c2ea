/**
 * Reading a hunk's body leniently: ` ` context, `-` removed and `+` added lines, and
 * `\ No newline at end of file`. Two habits of models are forgiven:
 * - a context line whose leading space was lost (an editor trimmed it, or the model forgot
 *   it): an unprefixed line, or a run of them, followed by a diff line is context;
 * - prose after the hunk ("This adds the check."): an unprefixed run that no diff line
 *   follows ends the hunk and is dropped, rather than becoming context that never matches.
 */
import type { Hunk } from './model.ts';

/** The `\ No newline at end of file` marker (any text after the backslash). */
const NO_EOL = /^\\ /;

/** A hunk body read from the patch lines. */
export interface HunkBody {
  readonly hunk: Omit<Hunk, 'oldStart'>;
  /** True when the body holds at least one removed or added line. */
  readonly changes: boolean;
  /** Index of the first line not consumed: a boundary or the end. */
  readonly next: number;
}

/**
 * Reads a hunk body from `lines[start]` up to the first line `isBoundary` accepts (the next
 * `@@` or file header) or the end. Unprefixed lines are context only when a diff line follows
 * them before the boundary.
 */
export function readHunkBody(lines: readonly string[], start: number, isBoundary: (i: number) => boolean): HunkBody {
  const oldLines: string[] = [];
  const newLines: string[] = [];
  const newFromOld: number[] = [];
  let oldNoEol = false;
  let newNoEol = false;
  let changes = false;
  let last: ' ' | '-' | '+' | undefined;
  let run: string[] = [];
  const context = (text: string): void => {
    newFromOld.push(oldLines.length);
    oldLines.push(text);
    newLines.push(text);
  };
  let i = start;
  for (; i < lines.length && !isBoundary(i); i++) {
    const line = lines[i]!;
    const c = line[0];
    if (c === ' ' || c === '-' || c === '+') {
      // The unprefixed lines before this diff line were context with their prefix lost.
      for (const r of run) context(r);
      run = [];
      const text = line.slice(1);
      if (c === ' ') context(text);
      else if (c === '-') oldLines.push(text);
      else {
        newLines.push(text);
        newFromOld.push(-1);
      }
      if (c !== ' ') changes = true;
      last = c;
    } else if (NO_EOL.test(line) && run.length === 0 && last !== undefined) {
      if (last !== '+') oldNoEol = true;
      if (last !== '-') newNoEol = true;
    } else {
      run.push(line);
    }
  }
  return { hunk: { oldLines, newLines, newFromOld, oldNoEol, newNoEol }, changes, next: i };
}

/** True for a line that reads as a diff line (` `, `-` or `+` first). */
export function isDiffLine(line: string): boolean {
  const c = line[0];
  return c === ' ' || c === '-' || c === '+';
}
