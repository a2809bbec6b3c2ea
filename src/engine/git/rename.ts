/**
 * `git mv` for ws_mv: after the workspace has renamed a file or directory, the index entries
 * under the old path move to the new path with the same blob ids and modes, so git_status shows
 * `R  old -> new`. Like `git mv`, only the index changes: no object is written, and edits made
 * to the file before the move stay unstaged. Untracked files have no index entry to move.
 */
import type { Workspace } from '../workspace.ts';
import { loadGit } from './isomorphic.ts';
import { indexFiles, NOT_A_REPO, openRepo } from './repo.ts';

export type RenameRecord =
  /** No repository (or none this host can open): nothing to record. */
  | { readonly kind: 'no-repo' }
  /** The moved path holds no tracked file. */
  | { readonly kind: 'untracked' }
  | { readonly kind: 'recorded'; readonly files: number }
  /** The index could not be updated; the workspace rename itself stands. */
  | { readonly kind: 'failed'; readonly reason: string };

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/** Moves the index entries at or below `from` to `to`. Call after the workspace rename succeeded. */
export async function recordRename(ws: Workspace, from: string, to: string): Promise<RenameRecord> {
  const opened = await openRepo(ws, { readOnly: false });
  if (!opened.ok) return opened.text === NOT_A_REPO ? { kind: 'no-repo' } : { kind: 'failed', reason: opened.text };
  const { fs, dir } = opened.repo;
  try {
    const moved = [...(await indexFiles(opened.repo))].filter(([path]) => isUnder(path, from));
    if (moved.length === 0) return { kind: 'untracked' };
    const git = await loadGit();
    for (const [path, blob] of moved) {
      // force: the old path is gone from the working tree, but say so explicitly rather than rely on it.
      await git.updateIndex({ fs, dir, filepath: path, remove: true, force: true });
      await git.updateIndex({
        fs,
        dir,
        filepath: to + path.slice(from.length),
        oid: blob.oid,
        mode: blob.mode,
        add: true,
      });
    }
    return { kind: 'recorded', files: moved.length };
  } catch (e) {
    return { kind: 'failed', reason: e instanceof Error ? e.message : String(e) };
  }
}
