/**
 * Which files a patch changes, and what is there now. A unified diff names its files in its
 * `---` / `+++` headers (git's `a/` and `b/` prefixes stripped, unless the file really is
 * under `a/`); `/dev/null` on the old side creates a file, on the new side deletes one.
 * SEARCH/REPLACE and bare blocks name none: the `path` argument does, and for a diff with
 * headers a given `path` must agree with them. Every file passes the jail for writing
 * (`.slmcode/` included) before anything is read.
 */
import type { ToolContext } from '../context.ts';
import {
  binaryText,
  directoryText,
  fileState,
  jail,
  notTextResult,
  specialFileText,
  type FileState,
  type JailedPath,
} from '../file-io.ts';
import { refusal, type ToolResult } from '../result.ts';
import { splitLines } from '../text.ts';
import type { FileHeaders, FilePatch, Hunk, ParsedPatch } from './model.ts';
import { plainName } from './unified.ts';

/** One file the patch changes. */
export interface Target {
  readonly file: JailedPath;
  /** The file's text now; null when it does not exist (the patch creates it). */
  readonly before: string | null;
  readonly mode: 'modify' | 'create' | 'delete';
  readonly hunks: readonly Hunk[];
}

/** Every file of the patch resolved, or the refusal that stops it before anything is read further. */
export type Targets =
  { readonly ok: true; readonly targets: readonly Target[] } | { readonly ok: false; readonly result: ToolResult };

/** The names a header pair may mean, most likely first: the new name, then the old, each without and with its a/ b/ prefix. */
export function headerCandidates(h: FileHeaders, side: 'both' | 'old' | 'new' = 'both'): string[] {
  const names = side === 'old' ? [h.old] : side === 'new' ? [h.new] : [h.new, h.old];
  const out: string[] = [];
  for (const n of names) {
    if (n === null) continue;
    // The prefix is stripped first, but a file really under a/ or b/ is tried as written too.
    for (const c of [plainName(n), n.replace(/^\.\//, '')]) if (!out.includes(c)) out.push(c);
  }
  return out;
}

function modeOf(h: FileHeaders | undefined): Target['mode'] {
  if (h?.old === null && h.new !== null) return 'create';
  if (h?.new === null && h.old !== null) return 'delete';
  return 'modify';
}

/** Resolves every file of `patch` to a jailed path and its current state, or the refusal that stops the patch. */
export async function resolveTargets(
  ctx: ToolContext,
  patch: ParsedPatch,
  pathArg: string | undefined,
): Promise<Targets> {
  const given = pathArg?.trim() ? pathArg.trim().replace(/^\.\//, '') : undefined;
  const headed = patch.files.filter((f) => f.headers);
  if (given !== undefined && headed.length > 0 && !headed.some((f) => headerCandidates(f.headers!).includes(given))) {
    return { ok: false, result: refusal(mismatchText(given, headed), 'path-mismatch') };
  }
  const targets: Target[] = [];
  for (const f of patch.files) {
    const r = await resolveOne(ctx, f, given, patch.form);
    if (!r.ok) return r;
    const same = targets.findIndex((t) => t.file.path === r.target.file.path);
    // A file named twice: its parts apply one after the other.
    if (same >= 0) targets[same] = { ...targets[same]!, hunks: [...targets[same]!.hunks, ...r.target.hunks] };
    else targets.push(r.target);
  }
  return { ok: true, targets };
}

async function resolveOne(
  ctx: ToolContext,
  f: FilePatch,
  given: string | undefined,
  form: ParsedPatch['form'],
): Promise<{ ok: true; target: Target } | { ok: false; result: ToolResult }> {
  const mode = modeOf(f.headers);
  let names: string[];
  if (!f.headers) {
    if (given === undefined) return { ok: false, result: refusal(pathRequiredText(form), 'path-required') };
    names = [given];
  } else {
    const all = headerCandidates(f.headers, mode === 'create' ? 'new' : mode === 'delete' ? 'old' : 'both');
    names = given !== undefined && all.includes(given) ? [given] : all;
  }
  const picked = await pick(ctx, names);
  if (!picked.ok) return picked;
  const { file, state } = picked;
  if (state.kind === 'dir')
    return { ok: false, result: refusal(`Patch refused — ${directoryText(file)}`, 'directory') };
  if (state.kind === 'binary')
    return { ok: false, result: refusal(`Patch refused — ${binaryText(file, state.size, 'ws_patch')}`, 'binary') };
  if (state.kind === 'special')
    return {
      ok: false,
      result: refusal(`Patch refused — ${specialFileText(file, state.what, 'ws_patch')}`, 'special'),
    };
  const text = state.kind === 'text' ? state.text : null;
  if (mode === 'create') {
    if (text !== null && text.trim() !== '')
      return { ok: false, result: refusal(existsText(file.display, text), 'file-exists') };
    return { ok: true, target: { file, before: text, mode, hunks: f.hunks } };
  }
  if (text === null) {
    // A block with nothing to find creates the file; anything else needs the file to exist.
    if (mode === 'modify' && f.hunks.every((h) => h.oldLines.length === 0))
      return { ok: true, target: { file, before: null, mode: 'create', hunks: f.hunks } };
    return {
      ok: false,
      result: await notTextResult(ctx, file, state as Exclude<FileState, { kind: 'text' }>, 'ws_patch'),
    };
  }
  return { ok: true, target: { file, before: text, mode, hunks: f.hunks } };
}

/** The first name that exists, or else the first name; each is jailed for writing. */
async function pick(
  ctx: ToolContext,
  names: readonly string[],
): Promise<{ ok: true; file: JailedPath; state: FileState } | { ok: false; result: ToolResult }> {
  let first: { ok: true; file: JailedPath; state: FileState } | { ok: false; result: ToolResult } | undefined;
  for (const name of names) {
    const j = await jail(ctx, name, 'write');
    const r = j.ok ? { ok: true as const, file: j.file, state: await fileState(ctx.ws, j.file.path) } : j;
    first ??= r;
    if (r.ok && r.state.kind !== 'missing') return r;
  }
  return first!;
}

function mismatchText(given: string, headed: readonly FilePatch[]): string {
  const named = headed.map((f) => headerCandidates(f.headers!)[0]).filter((n): n is string => n !== undefined);
  const list = named.map((n) => JSON.stringify(n)).join(', ');
  return (
    `Patch refused — path ${JSON.stringify(given)} disagrees with the diff's --- / +++ headers, which name ${list}. Nothing was changed. ` +
    `Send path ${JSON.stringify(named[0] ?? given)} (or leave path out: the headers name the file); if ${JSON.stringify(given)} is the file you mean, correct the --- / +++ lines.`
  );
}

function pathRequiredText(form: ParsedPatch['form']): string {
  const what =
    form === 'unified'
      ? 'a diff without --- / +++ file headers'
      : form === 'search-replace'
        ? 'a SEARCH/REPLACE block'
        : 'a bare -/+ block';
  return `Patch refused — ${what} does not say which file it changes, and no path was given. Nothing was changed. Repeat the call with "path": the file to patch, e.g. {"path": "src/app.js", "patch": "…"}.`;
}

function existsText(display: string, text: string): string {
  const n = splitLines(text).length;
  return (
    `Patch refused — the diff creates ${display} (its --- line is /dev/null), but ${display} already exists (${n} line${n === 1 ? '' : 's'}). Nothing was changed. ` +
    `To change it, ws_read it and send a diff against its current lines; to replace it whole, use ws_write.`
  );
}
