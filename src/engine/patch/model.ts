/**
 * The hunk model every accepted patch form parses into. A unified diff, a SEARCH/REPLACE block
 * and a bare -/+ block all become files of hunks: the lines a hunk expects to find (its old
 * side: context and removed lines) and the lines it leaves in their place (its new side:
 * context and added lines). Lines carry no line breaks; the file's own line ending is applied
 * when a hunk is matched and written.
 */

/** Which form the patch text was written in. */
export type PatchForm = 'unified' | 'search-replace' | 'bare';

/** One hunk: the lines it expects to find and the lines it leaves in their place. */
export interface Hunk {
  /** Context and removed lines, in file order. */
  readonly oldLines: readonly string[];
  /** Context and added lines, in file order. */
  readonly newLines: readonly string[];
  /**
   * The `@@ -N` number as written: the first old line, or — when the old side is empty — the
   * line the new lines go after (0 = the top). Absent when the hunk carries no line numbers.
   */
  readonly oldStart?: number;
  /**
   * For diff hunks: for each new line, the index of the same line on the old side when it is a
   * context line, else -1. A context line says "this line stays", so the file's own line is
   * kept there. Absent for SEARCH/REPLACE blocks, whose new side is written as given.
   */
  readonly newFromOld?: readonly number[];
  /** `\ No newline at end of file` after the old side's last line. */
  readonly oldNoEol: boolean;
  /** `\ No newline at end of file` after the new side's last line. */
  readonly newNoEol: boolean;
}

/** The file names of a `---` / `+++` pair as written (a/ b/ prefixes kept); null is /dev/null. */
export interface FileHeaders {
  readonly old: string | null;
  readonly new: string | null;
}

/** One file's hunks. `headers` is absent when the form names no file (the `path` argument does). */
export interface FilePatch {
  readonly headers?: FileHeaders;
  readonly hunks: readonly Hunk[];
}

/** A whole patch: its form and its files. */
export interface ParsedPatch {
  readonly form: PatchForm;
  readonly files: readonly FilePatch[];
}

/** A parse that failed: the message for the model and the refusal rule id. */
export interface ParseFailure {
  readonly ok: false;
  readonly text: string;
  readonly rule: string;
}

/** A patch text read into the model, or the refusal. */
export type ParseResult = { readonly ok: true; readonly patch: ParsedPatch } | ParseFailure;

/** The name /dev/null stands for: no file (a creation or a deletion). */
export const DEV_NULL = '/dev/null';

/** A hunk with no line numbers, as SEARCH/REPLACE and bare blocks make them. */
export function anchorlessHunk(oldLines: readonly string[], newLines: readonly string[]): Hunk {
  return { oldLines, newLines, oldNoEol: false, newNoEol: false };
}
