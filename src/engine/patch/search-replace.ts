/**
 * SEARCH/REPLACE blocks, in three dialects:
 * - conflict markers: `<<<<<<< SEARCH` / `=======` / `>>>>>>> REPLACE`, one block or several
 *   (text between blocks — file names, fences, prose — is ignored; a missing final
 *   `>>>>>>> REPLACE` ends the block at the end of the text);
 * - plain headers: a `SEARCH` line, then `=======` or a `REPLACE` line, then the new lines, up
 *   to a closing `REPLACE` line or the end;
 * - a bare `=======` separator: the lines before it are searched for, the lines after it
 *   replace them.
 * Each block's lines are whole lines. A content line that looks like a marker is written with
 * a backslash in front (`\=======`), as Roo-Code does; the backslash is removed. Roo-Code's
 * `:start_line:` / `-------` lines after the opening marker are dropped: a block is found by
 * its text alone.
 */
import { anchorlessHunk, type Hunk, type ParseFailure } from './model.ts';

const OPEN = /^<{5,9}\s*(?:SEARCH)?\s*:?\s*$/i;
const SEPARATOR = /^={5,9}\s*$/;
const CLOSE = /^>{5,9}\s*(?:REPLACE)?\s*:?\s*$/i;
const PLAIN_SEARCH = /^SEARCH\s*:?\s*$/i;
const PLAIN_REPLACE = /^REPLACE\s*:?\s*$/i;
/** Roo-Code's line hints and the dashes that end them, right after the opening marker. */
const ROO_META = /^(?::(?:start|end)_line:\s*\d*|-{7})\s*$/;
/** A marker-like content line escaped with a backslash. */
const ESCAPED = /^\\(?=<{5,9}|={5,9}|>{5,9}|-{7})/;

/** The blocks' hunks, or why the text is not well-formed blocks. */
export type BlocksResult = { readonly ok: true; readonly hunks: readonly Hunk[] } | ParseFailure;

/** How the blocks are marked: conflict markers, plain header lines, or one bare separator. */
type Dialect = 'markers' | 'plain' | 'separator';

/** Which SEARCH/REPLACE dialect the lines use, if any. */
export function searchReplaceDialect(lines: readonly string[]): Dialect | null {
  if (lines.some((l) => OPEN.test(l) || /^>{5,9}\s*REPLACE\s*$/i.test(l))) return 'markers';
  if (lines.some((l) => PLAIN_SEARCH.test(l))) return 'plain';
  if (lines.some((l) => SEPARATOR.test(l))) return 'separator';
  return null;
}

/** Reads the blocks of `lines` in `dialect`. */
export function parseBlocks(lines: readonly string[], dialect: Dialect): BlocksResult {
  if (dialect === 'separator') return separatorBlock(lines);
  const isOpen = dialect === 'markers' ? (l: string) => OPEN.test(l) : (l: string) => PLAIN_SEARCH.test(l);
  const isClose = dialect === 'markers' ? (l: string) => CLOSE.test(l) : (l: string) => PLAIN_REPLACE.test(l);
  // Plain blocks may also use their REPLACE header line as the separator.
  const isSeparator =
    dialect === 'markers'
      ? (l: string) => SEPARATOR.test(l)
      : (l: string) => SEPARATOR.test(l) || PLAIN_REPLACE.test(l);
  const hunks: Hunk[] = [];
  let state: 'outside' | 'meta' | 'search' | 'replace' = 'outside';
  let search: string[] = [];
  let replace: string[] = [];
  const finish = () => hunks.push(anchorlessHunk(search, replace));
  for (const line of lines) {
    switch (state) {
      case 'outside':
        if (isOpen(line)) {
          state = 'meta';
          search = [];
          replace = [];
        }
        break;
      case 'meta':
      case 'search':
        if (state === 'meta' && ROO_META.test(line)) break;
        state = 'search';
        if (isSeparator(line)) state = 'replace';
        else if (isOpen(line) || isClose(line)) return misplaced(hunks.length + 1, line);
        else search.push(unescape(line));
        break;
      case 'replace':
        if (isClose(line)) {
          finish();
          state = 'outside';
        } else if (isOpen(line)) {
          // The closing marker was left out: the next block begins.
          finish();
          state = 'meta';
          search = [];
          replace = [];
        } else replace.push(unescape(line));
        break;
      default: {
        const never: never = state;
        throw new Error(`parseBlocks: unhandled state ${String(never)}`);
      }
    }
  }
  if (state === 'meta' || state === 'search') return noSeparator(hunks.length + 1);
  if (state === 'replace') {
    // No closing marker at the end: trailing blank lines are the text's end, not content.
    while (replace.length > 0 && replace[replace.length - 1]!.trim() === '') replace.pop();
    finish();
  }
  return { ok: true, hunks };
}

function unescape(line: string): string {
  return line.replace(ESCAPED, '');
}

function separatorBlock(lines: readonly string[]): BlocksResult {
  const seps = lines.flatMap((l, i) => (SEPARATOR.test(l) ? [i] : []));
  if (seps.length !== 1) {
    return {
      ok: false,
      rule: 'malformed-block',
      text:
        `Patch refused — the text has ${seps.length} "=======" lines but no <<<<<<< SEARCH / >>>>>>> REPLACE markers, so it cannot be told which lines are searched for and which replace them. Nothing was changed. ` +
        `Mark each block:\n<<<<<<< SEARCH\nlines to find\n=======\nlines to put there\n>>>>>>> REPLACE`,
    };
  }
  const at = seps[0]!;
  return { ok: true, hunks: [anchorlessHunk(lines.slice(0, at).map(unescape), lines.slice(at + 1).map(unescape))] };
}

function misplaced(block: number, line: string): ParseFailure {
  return {
    ok: false,
    rule: 'malformed-block',
    text:
      `Patch refused — block ${block} has ${JSON.stringify(line)} inside its SEARCH part, before its ======= line. Nothing was changed. ` +
      `Each block is "<<<<<<< SEARCH", the lines to find, "=======", the lines to put there, ">>>>>>> REPLACE". ` +
      `If the file itself has such a line, write it with a backslash in front (\\=======).`,
  };
}

function noSeparator(block: number): ParseFailure {
  return {
    ok: false,
    rule: 'malformed-block',
    text:
      `Patch refused — block ${block} has no ======= line after its SEARCH lines, so nothing says what replaces them. Nothing was changed. ` +
      `Write the block as:\n<<<<<<< SEARCH\nlines to find\n=======\nlines to put there\n>>>>>>> REPLACE`,
  };
}
