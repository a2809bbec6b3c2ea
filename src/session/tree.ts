/**
 * The workspace as recorded: every entry of the tree in walk order (the same walker the search
 * tools use, so node_modules and .git are left out), and its short hash. The hash is what a
 * replay compares after each step: any file created, changed, moved or removed changes it.
 */
import { decodeText, encodeText, looksBinary } from '../engine/text.ts';
import { walkTree } from '../engine/walk.ts';
import { isWorkspaceError, type EntryType, type Workspace } from '../engine/workspace.ts';
import { MAX_WHOLE_FILE_BYTES } from '../engine/file-size.ts';
import { concatBytes, shortHash } from './hash.ts';

export interface TreeEntry {
  readonly path: string;
  readonly type: EntryType;
  /** A file's bytes (absent for a file too large to read whole). */
  readonly bytes?: Uint8Array;
  /** The size of a file over MAX_WHOLE_FILE_BYTES: it is stat'ed, never read. */
  readonly tooLarge?: number;
  /** A symlink's target text. */
  readonly target?: string;
}

/**
 * Reads every entry below the root. A tree larger than the walker's bound is a programmer
 * error here (sessions run on small projects); it throws rather than hash half a tree.
 */
export async function readTree(ws: Workspace): Promise<TreeEntry[]> {
  const walked = await walkTree(ws, '');
  if (walked.truncated)
    throw new RangeError(
      `readTree: the workspace at ${ws.root} has more entries than the walker visits (${walked.entries.length}); record a smaller project`,
    );
  const out: TreeEntry[] = [];
  for (const e of walked.entries) {
    if (e.type === 'file') out.push(await readEntry(ws, e.path));
    else if (e.type === 'symlink') out.push({ path: e.path, type: e.type, target: (await ws.readlink(e.path)) ?? '' });
    else out.push({ path: e.path, type: e.type });
  }
  return out;
}

/** A file's entry: stat'ed first, and read only when it is small enough to hold whole. */
async function readEntry(ws: Workspace, path: string): Promise<TreeEntry> {
  const st = await ws.lstat(path);
  if (st && st.size > MAX_WHOLE_FILE_BYTES) return { path, type: 'file', tooLarge: st.size };
  try {
    return { path, type: 'file', bytes: await ws.readFile(path) };
  } catch (e) {
    // It grew past the limit after the stat.
    if (isWorkspaceError(e, 'EFBIG')) return { path, type: 'file', tooLarge: MAX_WHOLE_FILE_BYTES + 1 };
    throw e;
  }
}

/**
 * The short hash of the whole tree: each entry as `type path length\n` followed by its bytes
 * (or link target), so no two different trees serialise alike (the length fences the bytes). A
 * file too large to read whole is `file path large:SIZE\n` with no bytes: its size counts, and a
 * change that keeps the size is not seen.
 */
export async function workspaceHash(ws: Workspace): Promise<string> {
  const chunks: Uint8Array[] = [];
  for (const e of await readTree(ws)) {
    if (e.tooLarge !== undefined) {
      chunks.push(encodeText(`${e.type} ${e.path} large:${e.tooLarge}\n`));
      continue;
    }
    const body = e.bytes ?? encodeText(e.target ?? '');
    chunks.push(encodeText(`${e.type} ${e.path} ${body.length}\n`), body);
  }
  return shortHash(concatBytes(chunks));
}

/** The workspace's text files by path (binary files left out). */
export async function textFiles(ws: Workspace): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for (const e of await readTree(ws)) if (e.bytes && !looksBinary(e.bytes)) out[e.path] = decodeText(e.bytes);
  return out;
}
