/**
 * What the console shows of the workspace beside the tool results: the whole tree (with sizes
 * and link targets) and a file's text for the read-only viewer. This is the person's view,
 * not the model's: no line numbers, no windowing, but still through the jail, so the viewer
 * can never show anything a tool could not reach.
 */
import type { Engine } from '../engine/engine.ts';
import type { Workspace } from '../engine/workspace.ts';
import { walkTree } from '../engine/walk.ts';
import { decodeText, looksBinary } from '../engine/text.ts';
import { isWorkspaceError } from '../engine/workspace.ts';
import { notReadText, ReadBudget } from '../engine/file-size.ts';
import type { FileView, TreeEntry, WorkspaceSnapshot } from './protocol.ts';

/** Entries a snapshot lists at most; a model that writes thousands of files must not freeze the page. */
export const SNAPSHOT_MAX_ENTRIES = 2000;

/** Bytes of one file the viewer receives at most. */
export const VIEW_MAX_BYTES = 256 * 1024;

/** Every entry of the engine's workspace, depth-first and sorted (node_modules and .git are listed, not entered). */
export function snapshotWorkspace(engine: Engine): Promise<WorkspaceSnapshot> {
  return treeEntries(engine.workspace);
}

/** Every entry of `ws` with sizes and link targets, capped at SNAPSHOT_MAX_ENTRIES. */
export async function treeEntries(ws: Workspace): Promise<WorkspaceSnapshot> {
  const walked = await walkTree(ws, '', { maxEntries: SNAPSHOT_MAX_ENTRIES });
  const entries: TreeEntry[] = [];
  for (const { path, type } of walked.entries) {
    const st = await ws.lstat(path);
    if (!st) continue; // removed between the walk and now
    if (type === 'symlink') {
      entries.push({ path, type, size: st.size, target: (await ws.readlink(path)) ?? '' });
    } else {
      entries.push({ path, type, size: st.size });
    }
  }
  return { entries, truncated: walked.truncated };
}

/**
 * A file's text for the viewer. Throws an Error whose message is the jail's own text or names
 * the problem; the worker sends it back as data and the console shows it in place of the file.
 */
export async function viewFile(engine: Engine, path: string): Promise<FileView> {
  const jailed = await engine.ctx.resolve(path, 'read');
  if (!jailed.ok) throw new Error(jailed.text);
  const st = await engine.workspace.lstat(jailed.path);
  if (!st) throw new Error(`${path} does not exist any more; the file tree was refreshed.`);
  if (st.type === 'dir') throw new Error(`${path} is a directory; pick a file in the tree.`);
  return readFileView(engine.workspace, jailed.path, st.size);
}

/**
 * A file's view, read only when `budget` lets it be read whole (its size stat'ed before): host
 * memory follows the work, not a file's size. A file not read says why in `unread`.
 */
export async function readFileView(
  ws: Workspace,
  path: string,
  size: number,
  budget: ReadBudget = new ReadBudget(),
): Promise<FileView> {
  const unread = (bytes: number): FileView => ({
    path,
    size: bytes,
    text: null,
    truncated: true,
    unread: notReadText(path, bytes),
  });
  if (!budget.take(size)) return unread(size);
  try {
    return fileView(path, await ws.readFile(path));
  } catch (e) {
    // It grew past the limit after the stat.
    if (isWorkspaceError(e, 'EFBIG')) return unread(size);
    throw e;
  }
}

/** A file's bytes as the viewer shows them: text up to VIEW_MAX_BYTES, or null when binary. */
export function fileView(path: string, bytes: Uint8Array): FileView {
  const truncated = bytes.length > VIEW_MAX_BYTES;
  const head = truncated ? bytes.subarray(0, VIEW_MAX_BYTES) : bytes;
  return { path, size: bytes.length, text: looksBinary(head) ? null : decodeText(head), truncated };
}
