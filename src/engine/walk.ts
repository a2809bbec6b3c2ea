/**
 * The shared tree walker behind ws_glob, ws_grep, ws_mv and the "did you mean" hints. It never
 * leaves the tree it starts in: a symlink is reported as an entry but never descended into, and
 * every directory is confirmed with `lstat` before the walk enters it, so a backend whose
 * `readdir` follows links still cannot lead the walk out of the jail.
 */
import { isWorkspaceError, type EntryType, type Workspace } from './workspace.ts';

/** Directories the search tools skip unless asked for by name. */
export const SKIP_DIRS: ReadonlySet<string> = new Set(['node_modules', '.git']);

/** SKIP_DIRS minus any directory the glob pattern names as a whole path segment, e.g. `node_modules/react/*`. */
export function skipDirsFor(pattern: string | undefined): ReadonlySet<string> {
  if (!pattern) return SKIP_DIRS;
  const segments = pattern.split('/');
  return new Set([...SKIP_DIRS].filter((name) => !segments.includes(name)));
}

/** Entries a single walk visits at most, so one call on a huge tree stays bounded. */
export const MAX_WALK_ENTRIES = 20_000;

export interface WalkEntry {
  /** Root-relative POSIX path. */
  readonly path: string;
  readonly type: EntryType;
}

export interface WalkOptions {
  /** Directory names that are listed but not entered. */
  readonly skip?: ReadonlySet<string>;
  readonly maxEntries?: number;
}

export interface Walked {
  /** Depth-first, each directory's entries sorted by name; `start` itself is not included. */
  readonly entries: readonly WalkEntry[];
  /** True when `maxEntries` stopped the walk early. */
  readonly truncated: boolean;
}

/** Joins a root-relative directory and a name ('' is the root). */
export function joinPath(dir: string, name: string): string {
  return dir === '' ? name : `${dir}/${name}`;
}

/** The last segment of a root-relative path. */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The directory part of a root-relative path ('' for a top-level name). */
export function dirName(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Walks the tree below `start` (a jailed, physical directory path; '' = the root). */
export async function walkTree(ws: Workspace, start: string, opts: WalkOptions = {}): Promise<Walked> {
  const skip = opts.skip ?? SKIP_DIRS;
  const max = opts.maxEntries ?? MAX_WALK_ENTRIES;
  const entries: WalkEntry[] = [];
  let truncated = false;

  const visit = async (dir: string): Promise<void> => {
    let listed;
    try {
      listed = await ws.readdir(dir);
    } catch (e) {
      // A directory that vanished or turned into a file mid-walk is simply not there any more.
      if (isWorkspaceError(e, 'ENOENT') || isWorkspaceError(e, 'ENOTDIR')) return;
      throw e;
    }
    const sorted = [...listed].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of sorted) {
      if (entries.length >= max) {
        truncated = true;
        return;
      }
      const path = joinPath(dir, entry.name);
      let type = entry.type;
      if (type === 'dir') {
        // readdir's type may come from stat on some backends; only lstat says "not a link".
        const st = await ws.lstat(path);
        if (!st) continue;
        type = st.type;
      }
      entries.push({ path, type });
      if (type === 'dir' && !skip.has(entry.name)) await visit(path);
    }
  };

  await visit(start);
  return { entries, truncated };
}
