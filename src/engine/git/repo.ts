/**
 * Opening the workspace's git repository and reading its two recorded states: the files of
 * the HEAD commit and the files of the index, each as path → blob id and mode. The repository
 * is the `.git` directory at the workspace root; a `.git` file (a worktree or submodule link)
 * is not followed, because its target usually lies outside the jail.
 */
import type git from 'isomorphic-git';
import type { Workspace } from '../workspace.ts';
import { GIT_WORKDIR, gitFs, isNotFound, type GitFsClient } from './fs-adapter.ts';
import { loadGit } from './isomorphic.ts';

/** The spec-level message for a workspace without a repository. */
export const NOT_A_REPO = 'not a git repository (no .git directory) — use ws_list/ws_glob to see files';

/** One recorded file: its blob id and git mode (100644, 100755, 120000). */
export interface GitBlob {
  readonly oid: string;
  readonly mode: number;
  /** For an index entry: the size and modification time git recorded when it was staged. */
  readonly stat?: IndexStat;
}

/** What the index recorded of a file when it was staged (git's stat shortcut compares these). */
export interface IndexStat {
  readonly size: number;
  readonly mtimeSeconds: number;
  readonly mtimeNanoseconds: number;
}

/** path → blob, for the HEAD tree, the index or the working tree. */
export type FileMap = ReadonlyMap<string, GitBlob>;

/**
 * An opened repository: the fs client and the object cache isomorphic-git shares between reads.
 * Open one per tool call: the cache holds the parsed index, and without modification times
 * from the Workspace isomorphic-git cannot tell when a later write made it stale.
 */
export interface Repo {
  readonly ws: Workspace;
  readonly fs: GitFsClient;
  readonly dir: string;
  readonly cache: object;
}

export type OpenedRepo = { readonly ok: true; readonly repo: Repo } | { readonly ok: false; readonly text: string };

/** isomorphic-git uses the global Buffer internally; a browser host installs it from the `buffer` package. */
export function hasBuffer(): boolean {
  return typeof (globalThis as { Buffer?: unknown }).Buffer === 'function';
}

/**
 * Opens the repository at the workspace root, or says why there is none. `readOnly` clients
 * refuse every write (git_status, git_diff); writers (ws_mv, seeding) pass false.
 */
export async function openRepo(ws: Workspace, opts: { readOnly: boolean }): Promise<OpenedRepo> {
  const st = await ws.lstat('.git');
  if (!st) return { ok: false, text: NOT_A_REPO };
  if (st.type !== 'dir') {
    return {
      ok: false,
      text: `not a git repository here: .git is a ${st.type === 'file' ? 'file (a worktree or submodule link)' : 'symlink'}, and only a .git directory at the project root is read — use ws_list/ws_glob to see files`,
    };
  }
  if (!hasBuffer()) {
    return {
      ok: false,
      text: 'git is unavailable in this host: the Buffer global isomorphic-git needs was not installed (src/platform/buffer-global.ts). Use ws_list/ws_glob to see files and ws_read to read them.',
    };
  }
  return { ok: true, repo: { ws, fs: gitFs(ws, opts), dir: GIT_WORKDIR, cache: {} } };
}

/** Where HEAD points: the branch name (null when detached) and the commit (null before the first commit). */
export interface HeadInfo {
  readonly branch: string | null;
  readonly commit: string | null;
}

export async function readHead(repo: Repo): Promise<HeadInfo> {
  const { fs, dir } = repo;
  const git = await loadGit();
  const branch = (await git.currentBranch({ fs, dir, fullname: false })) ?? null;
  let commit: string | null = null;
  try {
    commit = await git.resolveRef({ fs, dir, ref: 'HEAD' });
  } catch (e) {
    // An unborn branch (no commit yet) has no HEAD commit; anything else is a broken repository.
    if (!isNotFound(e)) throw e;
  }
  return { branch, commit };
}

/** Collects every blob (file or symlink) a walker sees; submodule links (type "commit") are left out. */
async function collectBlobs(
  repo: Repo,
  walker: ReturnType<typeof git.STAGE>,
  withStat = false,
): Promise<Map<string, GitBlob>> {
  const out = new Map<string, GitBlob>();
  await (
    await loadGit()
  ).walk({
    fs: repo.fs,
    dir: repo.dir,
    cache: repo.cache,
    trees: [walker],
    map: async (path, [entry]) => {
      if (!entry || path === '.') return undefined;
      if ((await entry.type()) !== 'blob') return undefined;
      const blob = { oid: await entry.oid(), mode: await entry.mode() };
      if (!withStat) out.set(path, blob);
      else {
        const st = await entry.stat();
        out.set(path, {
          ...blob,
          stat: { size: st.size, mtimeSeconds: st.mtimeSeconds ?? 0, mtimeNanoseconds: st.mtimeNanoseconds ?? 0 },
        });
      }
      return undefined;
    },
  });
  return out;
}

/** The files of a commit's tree (an empty map for null: before the first commit). */
export async function commitFiles(repo: Repo, commit: string | null): Promise<Map<string, GitBlob>> {
  if (commit === null) return new Map();
  return collectBlobs(repo, (await loadGit()).TREE({ ref: commit }));
}

/** The files of the index (the staging area), each with the size and time it was staged with. */
export async function indexFiles(repo: Repo): Promise<Map<string, GitBlob>> {
  return collectBlobs(repo, (await loadGit()).STAGE(), true);
}

/** A blob's bytes from the object database. */
export async function readBlobBytes(repo: Repo, oid: string): Promise<Uint8Array> {
  const { blob } = await (await loadGit()).readBlob({ fs: repo.fs, dir: repo.dir, cache: repo.cache, oid });
  return blob;
}

/** The id git gives `bytes` as a blob (the same id `git hash-object` prints). */
export async function blobId(bytes: Uint8Array): Promise<string> {
  return (await (await loadGit()).hashBlob({ object: bytes })).oid;
}
