/**
 * The workspace as recorded: every entry of the tree in walk order (the same walker the search
 * tools use, so node_modules and .git are left out), and its short hash. The hash is what a
 * replay compares after each step: any file created, changed, moved or removed changes it.
 */
import { decodeText, encodeText, looksBinary } from '../engine/text.ts';
import { walkTree } from '../engine/walk.ts';
import { isWorkspaceError, type EntryType, type Workspace } from '../engine/workspace.ts';
import { MAX_WHOLE_FILE_BYTES, ReadBudget } from '../engine/file-size.ts';
import { sha256 } from '@noble/hashes/sha2.js';
import { shortHex } from './hash.ts';

export interface TreeEntry {
  readonly path: string;
  readonly type: EntryType;
  /** A file's bytes (absent for a file the pass did not read). */
  readonly bytes?: Uint8Array;
  /** The size of a file not read: over MAX_WHOLE_FILE_BYTES, or past the pass's MAX_PASS_READ_BYTES. */
  readonly tooLarge?: number;
  /** A symlink's target text. */
  readonly target?: string;
}

/**
 * Every entry below the root, in walk order, one at a time: a file is read only when the pass's
 * ReadBudget allows it (stat'ed first), so a caller that drops each entry holds one file at most.
 * A tree larger than the walker's bound is a programmer error here (sessions run on small
 * projects); it throws rather than hash half a tree.
 */
async function* treeEntries(ws: Workspace): AsyncGenerator<TreeEntry> {
  const walked = await walkTree(ws, '');
  if (walked.truncated)
    throw new RangeError(
      `the session's tree: the workspace at ${ws.root} has more entries than the walker visits (${walked.entries.length}); record a smaller project`,
    );
  const budget = new ReadBudget();
  for (const e of walked.entries) {
    if (e.type === 'file') yield await readEntry(ws, e.path, budget);
    else if (e.type === 'symlink') yield { path: e.path, type: e.type, target: (await ws.readlink(e.path)) ?? '' };
    else yield { path: e.path, type: e.type };
  }
}

/** A file's entry: stat'ed first, and read only when the budget lets it be read whole. */
async function readEntry(ws: Workspace, path: string, budget: ReadBudget): Promise<TreeEntry> {
  const size = (await ws.lstat(path))?.size ?? 0;
  if (!budget.take(size)) return { path, type: 'file', tooLarge: size };
  try {
    return { path, type: 'file', bytes: await ws.readFile(path) };
  } catch (e) {
    // It grew past the limit after the stat.
    if (isWorkspaceError(e, 'EFBIG')) return { path, type: 'file', tooLarge: MAX_WHOLE_FILE_BYTES + 1 };
    throw e;
  }
}

/** Every entry below the root (see treeEntries), as a list. */
export async function readTree(ws: Workspace): Promise<TreeEntry[]> {
  const out: TreeEntry[] = [];
  for await (const e of treeEntries(ws)) out.push(e);
  return out;
}

/**
 * The short hash of the whole tree: SHA-256 over each entry as `type path length\n` followed by
 * its bytes (or link target), so no two different trees serialise alike (the length fences the
 * bytes). A file not read (too large, or past the pass's total) is `file path large:SIZE\n` with
 * no bytes: its size counts, and a change that keeps the size is not seen. Fed one entry at a
 * time, so the pass holds one file, never the tree.
 */
export async function workspaceHash(ws: Workspace): Promise<string> {
  const hash = sha256.create();
  for await (const e of treeEntries(ws)) {
    if (e.tooLarge !== undefined) {
      hash.update(encodeText(`${e.type} ${e.path} large:${e.tooLarge}\n`));
      continue;
    }
    const body = e.bytes ?? encodeText(e.target ?? '');
    hash.update(encodeText(`${e.type} ${e.path} ${body.length}\n`));
    hash.update(body);
  }
  return shortHex(hash.digest());
}

/** The workspace's text files by path (binary files, and files the pass did not read, left out). */
export async function textFiles(ws: Workspace): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  for await (const e of treeEntries(ws)) if (e.bytes && !looksBinary(e.bytes)) out[e.path] = decodeText(e.bytes);
  return out;
}
