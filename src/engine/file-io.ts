/**
 * Reading and writing text files for the file tools: what is at a jailed path (missing,
 * directory, binary or text), the standard messages for each, and the one way a tool commits
 * new text — write it, keep a checkpoint of what it replaced, mark it seen and report the change.
 */
import type { ToolContext } from './context.ts';
import type { JailOp } from './jail.ts';
import { fail, refusal, type FileChange, type Note, type ToolResult } from './result.ts';
import { decodeText, encodeText, looksBinary } from './text.ts';
import { isWorkspaceError, type Stat, type Workspace } from './workspace.ts';
import { missingPathText } from './missing-path.ts';
import { MAX_WHOLE_FILE_BYTES, tooLargeText } from './file-size.ts';

/** A path that passed the jail: `path` is physical (what the backend sees), `display` what the model wrote. */
export interface JailedPath {
  readonly path: string;
  readonly display: string;
}

export type FileState =
  | { readonly kind: 'missing' }
  | { readonly kind: 'dir' }
  /** A FIFO, socket or device a command made: never read (a read could wait forever). */
  | { readonly kind: 'special'; readonly what: string }
  | { readonly kind: 'binary'; readonly size: number }
  | { readonly kind: 'text'; readonly text: string };

/** What is at a jailed path. Never throws for a missing file. */
export async function fileState(ws: Workspace, path: string, known?: Stat | null): Promise<FileState> {
  const st = known === undefined ? await ws.lstat(path) : known;
  if (!st) {
    const what = await ws.specialKind?.(path);
    return what ? { kind: 'special', what } : { kind: 'missing' };
  }
  if (st.type === 'dir') return { kind: 'dir' };
  if (st.type === 'symlink') {
    // The jail resolves every link before a tool sees a path; a link here is an engine bug.
    throw new Error(`fileState(${JSON.stringify(path)}): got a symlink, but jailed paths are resolved`);
  }
  // Too large to read whole: said like a binary file, and never read.
  if (st.size > MAX_WHOLE_FILE_BYTES) return { kind: 'binary', size: st.size };
  let bytes: Uint8Array;
  try {
    bytes = await ws.readFile(path);
  } catch (e) {
    if (isWorkspaceError(e, 'ENOENT')) return { kind: 'missing' };
    throw e;
  }
  return bytesState(bytes);
}

function bytesState(bytes: Uint8Array): FileState {
  if (looksBinary(bytes)) return { kind: 'binary', size: bytes.length };
  return { kind: 'text', text: decodeText(bytes) };
}

/**
 * What is at a path the tree walk listed as a file, for a search that skips files over
 * `maxBytes` (`large`, never read): one backend call where the backend has `readUpTo`.
 */
export async function searchedFileState(
  ws: Workspace,
  path: string,
  maxBytes: number,
): Promise<FileState | { readonly kind: 'large' }> {
  if (!ws.readUpTo) {
    const st = await ws.lstat(path);
    return (st?.size ?? 0) > maxBytes ? { kind: 'large' } : fileState(ws, path, st);
  }
  const bytes = await ws.readUpTo(path, maxBytes);
  if (bytes === null) return { kind: 'missing' };
  return bytes instanceof Uint8Array ? bytesState(bytes) : { kind: 'large' };
}

/** Jails `raw`; the jail's refusal becomes the result. */
export async function jail(
  ctx: ToolContext,
  raw: string,
  op: JailOp,
): Promise<{ ok: true; file: JailedPath } | { ok: false; result: ToolResult }> {
  const r = await ctx.resolve(raw, op);
  if (!r.ok) return { ok: false, result: refusal(r.text, `jail:${r.rule}`) };
  return { ok: true, file: { path: r.path, display: r.display } };
}

export function directoryText(file: JailedPath): string {
  return `${file.display} is a directory, not a file. Use ws_list ${JSON.stringify({ path: file.display })} to see what is in it, then name one of its files.`;
}

/** Why a file tool does not touch a FIFO, socket or device at `file`, and what to do instead. */
export function specialFileText(file: JailedPath, what: string, tool: string): string {
  return (
    `${file.display} is ${what}, not a regular file: the file tools do not read or write it (a read could wait forever), so ${tool} leaves it as it is. ` +
    `A command made it: use ws_shell to work with it (rm ${file.display} removes it), or name a regular file — ws_list shows them.`
  );
}

export function binaryText(file: JailedPath, size: number, tool: string): string {
  if (size > MAX_WHOLE_FILE_BYTES)
    return `${tooLargeText(file.display, size)}; ${tool} works on text files it can read whole. Look inside it with a command (head -c, tail -c, grep, wc), or find the file you need with ws_glob or ws_grep.`;
  return (
    `${file.display} is a binary file (${size} bytes); ${tool} works on text files only. ` +
    `Binary files cannot be shown or edited with the ws_* file tools — find the text file you need with ws_glob or ws_grep.`
  );
}

/** The result for a state other than text, with its recovery pointer. */
export async function notTextResult(
  ctx: ToolContext,
  file: JailedPath,
  state: Exclude<FileState, { kind: 'text' }>,
  tool: string,
): Promise<ToolResult> {
  switch (state.kind) {
    case 'missing':
      return fail(await missingPathText(ctx.ws, file.path, file.display), [
        { kind: 'hint', text: `${file.display} does not exist`, detail: 'missing' },
      ]);
    case 'dir':
      return fail(directoryText(file), [{ kind: 'hint', text: `${file.display} is a directory`, detail: 'directory' }]);
    case 'special':
      return fail(specialFileText(file, state.what, tool), [
        { kind: 'hint', text: `${file.display} is ${state.what}`, detail: 'special' },
      ]);
    case 'binary':
      return fail(binaryText(file, state.size, tool), [
        { kind: 'hint', text: `${file.display} is binary`, detail: 'binary' },
      ]);
    default: {
      const never: never = state;
      throw new Error(`notTextResult: unhandled state ${JSON.stringify(never)}`);
    }
  }
}

/** Jails `raw` and reads it as text, or returns the result that explains why it cannot. */
export async function openText(
  ctx: ToolContext,
  raw: string,
  op: JailOp,
  tool: string,
): Promise<{ ok: true; file: JailedPath; text: string } | { ok: false; result: ToolResult }> {
  const j = await jail(ctx, raw, op);
  if (!j.ok) return j;
  const state = await fileState(ctx.ws, j.file.path);
  if (state.kind !== 'text') return { ok: false, result: await notTextResult(ctx, j.file, state, tool) };
  return { ok: true, file: j.file, text: state.text };
}

/** Keeps `before` in the checkpoint store when file checkpoints are on; null when they are off. */
export function recordCheckpoint(
  ctx: ToolContext,
  tool: string,
  path: string,
  before: string | null,
): { id: number; note: Note } | null {
  if (!ctx.settings.file_checkpoints) return null;
  const cp = ctx.state.addCheckpoint(tool, path, before);
  return {
    id: cp.id,
    note: {
      kind: 'checkpoint',
      text: `checkpoint #${cp.id} keeps ${path} as it was before ${tool}`,
      detail: String(cp.id),
    },
  };
}

/** The message for a backend failure while changing a file; nothing was changed. */
export function writeErrorText(tool: string, display: string, e: unknown): string {
  if (isWorkspaceError(e, 'ENOTDIR')) {
    return `${tool} could not write ${display}: a folder on its path is a file. Check the path with ws_list and choose one whose folders are folders. Nothing was changed.`;
  }
  if (isWorkspaceError(e, 'EISDIR'))
    return `${tool} could not write ${display}: it is a directory. Name a file inside it. Nothing was changed.`;
  const msg = e instanceof Error ? e.message : String(e);
  return `${tool} could not write ${display} (${msg}). Nothing was changed; check the path with ws_list and retry.`;
}

export interface Committed {
  readonly notes: Note[];
  readonly changes: FileChange[];
}

/**
 * Writes `after` to a jailed file whose current text is `before` (null = it does not exist),
 * keeps a checkpoint, marks the new text as seen, and returns the notes and change record.
 */
export async function commitText(
  ctx: ToolContext,
  tool: string,
  file: JailedPath,
  before: string | null,
  after: string,
): Promise<{ ok: true; committed: Committed } | { ok: false; result: ToolResult }> {
  try {
    await ctx.ws.writeFile(file.path, encodeText(after));
  } catch (e) {
    if (!isWorkspaceError(e)) throw e;
    return { ok: false, result: fail(writeErrorText(tool, file.display, e)) };
  }
  const cp = recordCheckpoint(ctx, tool, file.path, before);
  ctx.state.markSeen(file.path, after);
  return { ok: true, committed: { notes: cp ? [cp.note] : [], changes: [{ path: file.path, before, after }] } };
}
