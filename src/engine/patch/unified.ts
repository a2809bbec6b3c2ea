/**
 * Unified diffs. A well-formed diff is read by jsdiff's `parsePatch` (file headers with
 * timestamps, git's extended headers, `\ No newline at end of file`). jsdiff is strict: it
 * throws when a hunk's lines do not add up to its header's counts, or on a line it cannot
 * classify — which is most diffs a small model writes. Those are read by the tolerant reader
 * here: counts are ignored (the lines say what the hunk is), `@@` headers without numbers are
 * anchorless hunks, lost context prefixes and trailing prose are handled by `readHunkBody`.
 * Both readers produce the same model, so what happens next does not depend on which one read
 * the diff.
 */
import { parsePatch, type StructuredPatch } from 'diff';
import { readHunkBody } from './hunk-body.ts';
import { DEV_NULL, type FileHeaders, type FilePatch, type Hunk, type ParseFailure } from './model.ts';

/** A hunk header; the numbers are optional (`@@ @@` and `@@ ... @@` are anchorless hunks). */
const HUNK_HEADER = /^@@/;
const OLD_START = /^@@+\s*-(\d+)/;
const GIT_HEADER = /^diff --git (.+)$/;
const INDEX_HEADER = /^Index: /;
/** A timestamp some tools write after the name, separated by spaces instead of a tab. */
const TRAILING_TIMESTAMP = /\s+\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d(?:\.\d+)?)?(?:\s*[+-]\d{4})?$/;

/** The files of a unified diff, or why it cannot be applied. */
export type UnifiedResult = { readonly ok: true; readonly files: readonly FilePatch[] } | ParseFailure;

/** True when the lines hold a unified diff's markers: a hunk header, a file header pair or a git header. */
export function looksUnified(lines: readonly string[]): boolean {
  return lines.some((l, i) => HUNK_HEADER.test(l) || GIT_HEADER.test(l) || isHeaderPair(lines, i));
}

/** Reads a unified diff with jsdiff, or with the tolerant reader when jsdiff rejects it or finds no hunk. */
export function parseUnified(lines: readonly string[]): UnifiedResult {
  let strict: StructuredPatch[] | undefined;
  try {
    strict = parsePatch(lines.join('\n') + '\n');
  } catch {
    // A malformed hunk (miscounted, unprefixed lines, prose): the tolerant reader takes it.
    strict = undefined;
  }
  const special = strict?.find((p) => p.isRename || p.isCopy || p.isBinary);
  if (special) return specialRefusal(special);
  const files =
    strict && strict.some((p) => p.hunks.length > 0)
      ? strict.filter((p) => p.hunks.length > 0).map(fromJsdiff)
      : tolerant(lines);
  if (!files.some((f) => f.hunks.length > 0)) {
    return {
      ok: false,
      rule: 'no-hunks',
      text:
        'Patch refused — the diff has file headers but no @@ hunk with - or + lines, so it changes nothing. Nothing was changed. ' +
        'Each change needs a hunk: "@@ -12,3 +12,3 @@" followed by its lines, each starting with " " (context), "-" (removed) or "+" (added).',
    };
  }
  return { ok: true, files: files.filter((f) => f.hunks.length > 0) };
}

/** A header name without git's a/ or b/ prefix (or a leading ./). */
export function plainName(name: string): string {
  return name.replace(/^\.\//, '').replace(/^[ab]\//, '');
}

/** The file name of a header line's rest: timestamp and quotes removed; /dev/null is null. */
export function headerName(raw: string | undefined): string | null {
  let s = (raw ?? '').split('\t')[0]!.trim().replace(TRAILING_TIMESTAMP, '');
  if (s.length >= 2 && s.startsWith('"') && s.endsWith('"')) s = s.slice(1, -1).replace(/\\(["\\])/g, '$1');
  return s === DEV_NULL || s === '' ? null : s;
}

function isHeaderPair(lines: readonly string[], i: number): boolean {
  return lines[i]!.startsWith('--- ') && (lines[i + 1]?.startsWith('+++ ') ?? false);
}

function fromJsdiff(p: StructuredPatch): FilePatch {
  const named = p.oldFileName !== undefined || p.newFileName !== undefined;
  const headers: FileHeaders | undefined = named
    ? { old: headerName(p.oldFileName), new: headerName(p.newFileName) }
    : undefined;
  const hunks = p.hunks.map((h): Hunk => {
    const body = readHunkBody(h.lines, 0, () => false).hunk;
    // jsdiff moves an empty old side's start one line on; the model keeps the number as written.
    return { ...body, oldStart: h.oldLines === 0 ? h.oldStart - 1 : h.oldStart };
  });
  return headers ? { headers, hunks } : { hunks };
}

/** `diff --git a/x b/y` → the two names (split at " b/", the only unambiguous place). */
function gitNames(rest: string): FileHeaders {
  const at = rest.indexOf(' b/');
  if (at < 0) return { old: headerName(rest), new: headerName(rest) };
  return { old: headerName(rest.slice(0, at)), new: headerName(rest.slice(at + 1)) };
}

interface Building {
  headers?: FileHeaders;
  /** The headers came from a ---/+++ pair (a git line's names may still be refined by one). */
  dashed: boolean;
  hunks: Hunk[];
}

/** The tolerant reader: header counts ignored, numbers optional, prose between parts skipped. */
function tolerant(lines: readonly string[]): FilePatch[] {
  const files: Building[] = [];
  let cur: Building | undefined;
  const start = (headers: FileHeaders | undefined, dashed: boolean): Building => {
    const f: Building = { dashed, hunks: [] };
    if (headers) f.headers = headers;
    files.push(f);
    return f;
  };
  const boundary = (i: number): boolean =>
    HUNK_HEADER.test(lines[i]!) || GIT_HEADER.test(lines[i]!) || INDEX_HEADER.test(lines[i]!) || isHeaderPair(lines, i);
  let i = 0;
  while (i < lines.length) {
    const line = lines[i]!;
    const git = GIT_HEADER.exec(line);
    if (git) {
      cur = start(gitNames(git[1]!), false);
      i++;
    } else if (isHeaderPair(lines, i)) {
      const headers = { old: headerName(line.slice(4)), new: headerName(lines[i + 1]!.slice(4)) };
      if (!cur || cur.dashed || cur.hunks.length > 0) cur = start(headers, true);
      else {
        cur.headers = headers;
        cur.dashed = true;
      }
      i += 2;
    } else if (HUNK_HEADER.test(line)) {
      cur ??= start(undefined, false);
      const m = OLD_START.exec(line);
      const body = readHunkBody(lines, i + 1, boundary);
      if (body.hunk.oldLines.length > 0 || body.hunk.newLines.length > 0) {
        cur.hunks.push(m ? { ...body.hunk, oldStart: Number(m[1]) } : body.hunk);
      }
      i = body.next;
    } else {
      i++;
    }
  }
  return files.map((f) => (f.headers ? { headers: f.headers, hunks: f.hunks } : { hunks: f.hunks }));
}

function specialRefusal(p: StructuredPatch): ParseFailure {
  const shown = (raw: string | undefined): string | undefined => {
    const n = headerName(raw);
    return n === null ? undefined : plainName(n);
  };
  const name = shown(p.newFileName) ?? shown(p.oldFileName) ?? 'a file';
  if (p.isBinary) {
    return {
      ok: false,
      rule: 'binary-diff',
      text: `Patch refused — the diff changes ${name} as a binary file, which a text patch cannot carry. Nothing was changed.`,
    };
  }
  const what = p.isRename ? 'renames' : 'copies';
  return {
    ok: false,
    rule: p.isRename ? 'rename-diff' : 'copy-diff',
    text:
      `Patch refused — the diff ${what} ${shown(p.oldFileName) ?? 'a file'} to ${name}; ws_patch changes text inside files only. Nothing was changed. ` +
      `Move the file with ws_mv first, then send the hunks as a diff of the new path.`,
  };
}
