/**
 * The working tree as git sees it: every file and symlink under the root except `.git`,
 * with the untracked ones filtered through `.gitignore` (and `.git/info/exclude`) the way
 * git does — an ignored directory is not entered unless the index tracks something inside it.
 * A tracked file whose size and modification time are the ones the index recorded keeps the
 * index's blob id unread (git's stat shortcut, where the backend knows times); any other file's
 * id is computed from its bytes, read one file at a time within the scan's ReadBudget: a file too
 * large to read whole, or met once the scan has read its total, is never read (WorkFile).
 */
import { isWorkspaceError, type Stat } from '../workspace.ts';
import { MAX_WHOLE_FILE_BYTES, ReadBudget } from '../file-size.ts';
import { encodeText } from '../text.ts';
import { joinPath, MAX_WALK_ENTRIES } from '../walk.ts';
import { MODE } from './fs-adapter.ts';
import { IgnoreRules } from './ignore-rules.ts';
import { blobId, type FileMap, type GitBlob, type Repo } from './repo.ts';

/**
 * A working-tree file: its blob id and mode, and its bytes when the caller asked to keep them.
 * A file whose size and time differ from the index's and that the scan's ReadBudget refuses
 * (over MAX_WHOLE_FILE_BYTES, or past the scan's MAX_PASS_READ_BYTES) is never read: `tooLarge`
 * holds its size and its `oid` is a marker no blob has, so it counts as changed.
 */
export interface WorkFile extends GitBlob {
  readonly bytes?: Uint8Array;
  readonly tooLarge?: number;
}

/** The oid given to a file too large to hash: unique to its path, so no two pair as a rename. */
export function unhashedOid(path: string): string {
  return `unhashed:${path}`;
}

/**
 * Git's stat shortcut: the file has the size and modification time the index recorded when it
 * was staged, so its blob is the index's and it is not read. Only with a time the backend knows
 * (a backend without one, and an index staged without one, always hash).
 */
export function unchangedSinceStaged(st: Stat, recorded: GitBlob | undefined): boolean {
  const staged = recorded?.stat;
  if (!staged || st.mtimeMs === undefined || staged.mtimeSeconds === 0) return false;
  if (staged.size !== st.size) return false;
  const ms = Math.floor(st.mtimeMs);
  return Math.floor(ms / 1000) === staged.mtimeSeconds && ms % 1000 === Math.floor(staged.mtimeNanoseconds / 1e6);
}

export interface Worktree {
  /** Tracked files still present, and untracked files that are not ignored. */
  readonly files: ReadonlyMap<string, WorkFile>;
  /** The untracked files (not in the index, not ignored), sorted. */
  readonly untracked: readonly string[];
  /** True when the walk stopped at MAX_WALK_ENTRIES; later files are missing from both lists. */
  readonly truncated: boolean;
}

/** Every directory that holds a tracked path (at any depth), so the walk knows where git must look inside. */
export function trackedDirs(tracked: Iterable<string>): Set<string> {
  const dirs = new Set<string>();
  for (const path of tracked) {
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) dirs.add(path.slice(0, i));
  }
  return dirs;
}

/**
 * Scans the working tree. `index` decides what is tracked (tracked files are never ignored);
 * `keepBytes` keeps each file's content for a diff.
 */
export async function scanWorktree(repo: Repo, index: FileMap, opts: { keepBytes: boolean }): Promise<Worktree> {
  const { ws } = repo;
  const inIndex = trackedDirs(index.keys());
  const files = new Map<string, WorkFile>();
  const untracked: string[] = [];
  let seen = 0;
  let truncated = false;
  // Kept bytes are read bytes, so one budget bounds both the scan's work and what a diff holds.
  const budget = new ReadBudget();

  // Each directory's .gitignore is read once, when an untracked entry first needs it.
  const rules = new IgnoreRules(ws);

  const visit = async (dir: string): Promise<void> => {
    let entries;
    try {
      entries = await ws.readdir(dir);
    } catch (e) {
      if (isWorkspaceError(e, 'ENOENT') || isWorkspaceError(e, 'ENOTDIR')) return;
      throw e;
    }
    for (const entry of entries) {
      if (++seen > MAX_WALK_ENTRIES) {
        truncated = true;
        return;
      }
      // Git never looks inside a .git directory, nested repositories included.
      if (entry.name === '.git') continue;
      const path = joinPath(dir, entry.name);
      // readdir may follow links on some backends; lstat is the only "is it a link" answer.
      const st = await ws.lstat(path);
      if (!st) continue;
      const tracked = index.has(path);
      if (st.type === 'dir') {
        if (inIndex.has(path) || !(await rules.ignored(path, true))) await visit(path);
        continue;
      }
      if (!tracked && (await rules.ignored(path, false))) continue;
      if (!tracked) untracked.push(path);
      const recorded = index.get(path);
      const mode = workMode(st.type, recorded);
      if (st.type === 'file' && unchangedSinceStaged(st, recorded)) {
        // Unchanged since staged: no diff will ask for its bytes.
        files.set(path, { oid: recorded!.oid, mode });
        continue;
      }
      if (st.type === 'file' && !budget.take(st.size)) {
        files.set(path, { oid: unhashedOid(path), mode, tooLarge: st.size });
        continue;
      }
      let bytes: Uint8Array;
      try {
        bytes = st.type === 'symlink' ? encodeText((await ws.readlink(path)) ?? '') : await ws.readFile(path);
      } catch (e) {
        // It grew past the limit after the stat.
        if (!isWorkspaceError(e, 'EFBIG')) throw e;
        files.set(path, { oid: unhashedOid(path), mode, tooLarge: MAX_WHOLE_FILE_BYTES + 1 });
        continue;
      }
      files.set(path, { oid: await blobId(bytes), mode, ...(opts.keepBytes ? { bytes } : {}) });
    }
  };

  await visit('');
  return { files, untracked: untracked.sort(compareGitPaths), truncated };
}

/**
 * The mode a working-tree entry has for git. The Workspace reports no permission bits, so a
 * regular file keeps the mode the index records (100755 stays executable) and is 100644 when new.
 */
function workMode(type: 'file' | 'symlink', recorded: GitBlob | undefined): number {
  if (type === 'symlink') return MODE.symlink;
  return recorded && recorded.mode !== MODE.symlink ? recorded.mode : MODE.file;
}

/**
 * How `git status` shows untracked files: a directory that holds no tracked path is shown once,
 * as `dir/`, instead of listing its files.
 */
export function collapseUntracked(untracked: readonly string[], tracked: Iterable<string>): string[] {
  const dirs = trackedDirs(tracked);
  const shown = new Set<string>();
  for (const path of untracked) {
    let display = path;
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) {
      const dir = path.slice(0, i);
      if (!dirs.has(dir)) {
        display = `${dir}/`;
        break;
      }
    }
    shown.add(display);
  }
  return [...shown].sort(compareGitPaths);
}

/** Git orders paths by their bytes; for the ASCII paths of a project that is plain code-unit order. */
export function compareGitPaths(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
