/**
 * From a patch text to the hunk model: clean the text, tell its form, and read it.
 * Cleaning drops what no form carries: the transport's line endings (a patch's CRLF is not the
 * file's; the file's own ending is applied when writing) and Markdown fences around the patch
 * with the prose outside them ("Here is the diff:" … "This adds the check."); prose after a
 * hunk inside the fence is left to the readers, which know where a hunk ends. Forms are told
 * apart by their markers, most specific first: conflict-marker SEARCH/REPLACE blocks (their
 * content may hold anything, even `@@`), then a unified diff (`@@`, `---`/`+++`,
 * `diff --git`), then plain SEARCH/REPLACE headers or a bare `=======`, and last a bare
 * block of `-`/`+` lines, read as one hunk without line numbers.
 */
import { isDiffLine, readHunkBody } from './hunk-body.ts';
import type { ParseFailure, ParseResult } from './model.ts';
import { parseBlocks, searchReplaceDialect } from './search-replace.ts';
import { looksUnified, parseUnified } from './unified.ts';

/** A fence line: three or more backticks or tildes at column 0, with an optional info string. */
const FENCE = /^(`{3,}|~{3,})[\w.+#-]*\s*$/;
/** The lines that start a patch in any form; a fence before the first of them wraps the patch. */
const PATCH_START = /^(?:--- |\+\+\+ |@@|diff --git |Index: |<{5,9}|={5,9}\s*$|SEARCH\s*:?\s*$)/i;

/** The patch text as lines: LF only, the final line break not counted as an empty last line. */
function patchLines(text: string): string[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n');
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

/**
 * Removes a Markdown fence around the patch, and the prose before its opener and after its
 * closer. A fence counts only when it comes before the patch's first marker line, so a fence
 * inside the patched content (a README's code block in a SEARCH section) is content. The
 * closer is the last bare fence of the opener's kind; without one, or when more patch follows
 * it (blocks fenced one by one), everything after the opener is kept.
 */
function unfence(lines: readonly string[]): readonly string[] {
  let open = -1;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (FENCE.test(line)) {
      open = i;
      break;
    }
    if (PATCH_START.test(line)) return lines;
  }
  if (open < 0) return lines;
  const marker = FENCE.exec(lines[open]!)![1]!;
  let close = -1;
  for (let i = lines.length - 1; i > open; i--) {
    const bare = lines[i]!.trimEnd();
    if (bare.length >= marker.length && bare === marker[0]!.repeat(bare.length)) {
      close = i;
      break;
    }
  }
  // The readers skip fence lines between parts, so nothing is cut when more patch follows.
  const more = close >= 0 && lines.slice(close + 1).some((l) => PATCH_START.test(l));
  return lines.slice(open + 1, close < 0 || more ? lines.length : close);
}

/** Blank lines at the start and end carry nothing in any form. */
function trimBlankEdges(lines: readonly string[]): readonly string[] {
  let from = 0;
  let to = lines.length;
  while (from < to && lines[from]!.trim() === '') from++;
  while (to > from && lines[to - 1]!.trim() === '') to--;
  return lines.slice(from, to);
}

/** The accepted forms with a short example of each, for refusals. */
const FORMS_HELP =
  'Send one of:\n' +
  '• a unified diff: "--- a/src/app.js\\n+++ b/src/app.js\\n@@ -12,3 +12,3 @@\\n context\\n-old line\\n+new line\\n context"\n' +
  '• a SEARCH/REPLACE block (with path): "<<<<<<< SEARCH\\nold lines\\n=======\\nnew lines\\n>>>>>>> REPLACE"\n' +
  '• a bare block of "-" (removed) and "+" (added) lines (with path).\n' +
  'To change one place, ws_edit {path, old_str, new_str} is simpler.';

/** Reads `text` in whichever accepted form it is written. Never throws. */
export function parsePatchText(text: string): ParseResult {
  const lines = trimBlankEdges(unfence(patchLines(text)));
  if (lines.length === 0) {
    return refuse(
      'empty-patch',
      `Patch refused — the patch is empty, so it changes nothing. Nothing was changed.\n${FORMS_HELP}`,
    );
  }
  if (lines.length === 1 && /\\n/.test(lines[0]!)) {
    return refuse(
      'escaped-newlines',
      'Patch refused — the patch is a single line with its line breaks written out as \\n, so no line of it can be told apart. Nothing was changed. ' +
        'Send real line breaks: in the JSON string each \\n must be the escape for a newline, not a backslash followed by n.',
    );
  }
  const dialect = searchReplaceDialect(lines);
  if (dialect !== 'markers' && looksUnified(lines)) {
    const r = parseUnified(lines);
    return r.ok ? { ok: true, patch: { form: 'unified', files: r.files } } : r;
  }
  if (dialect) {
    const r = parseBlocks(lines, dialect);
    if (!r.ok) return r;
    if (r.hunks.length === 0) {
      return refuse(
        'malformed-block',
        `Patch refused — no complete SEARCH/REPLACE block was found (a block opens with <<<<<<< SEARCH). Nothing was changed.\n${FORMS_HELP}`,
      );
    }
    return { ok: true, patch: { form: 'search-replace', files: [{ hunks: r.hunks }] } };
  }
  const first = lines.findIndex(isDiffLine);
  const body = first < 0 ? undefined : readHunkBody(lines, first, () => false);
  if (!body?.changes) {
    return refuse(
      'not-a-patch',
      `Patch refused — the text is not a patch in any form ws_patch reads (no @@ hunk, no SEARCH/REPLACE markers, no -/+ lines). Nothing was changed.\n${FORMS_HELP}`,
    );
  }
  return { ok: true, patch: { form: 'bare', files: [{ hunks: [body.hunk] }] } };
}

function refuse(rule: string, text: string): ParseFailure {
  return { ok: false, rule, text };
}
