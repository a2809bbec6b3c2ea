/**
 * Makes a freshly seeded workspace a git repository whose one commit is the seed, so git_status
 * and git_diff show exactly what the agent changed since. The commit is deterministic — a fixed
 * author and timestamp, zeroed index stats — so the same template always yields the same commit
 * id and the same `.git` bytes, which keeps recorded sessions replayable.
 *
 * A workspace that already has a `.git` (a real project opened by the CLI) is left alone: its
 * own history is the baseline.
 */
import type { Workspace } from '../engine/workspace.ts';
import { hasBuffer, openRepo, readHead } from '../engine/git/repo.ts';
import { GIT_WORKDIR, gitFs } from '../engine/git/fs-adapter.ts';
import { loadGit } from '../engine/git/isomorphic.ts';
import { seedTemplate, type Template } from './templates/index.ts';

/** The author (and committer) of the seed commit. */
export const SEED_AUTHOR = { name: 'slmcode', email: 'seed@slmcode.invalid' } as const;
/** 2024-01-01T00:00:00Z: a fixed time, so the seed commit's id depends on the files only. */
export const SEED_TIMESTAMP = 1_704_067_200;
export const SEED_BRANCH = 'main';

export interface SeedCommit {
  /** The HEAD commit after seeding (null only for an existing repository without commits). */
  readonly commit: string | null;
  /** False when a `.git` was already there and nothing was done. */
  readonly created: boolean;
}

/**
 * Initialises a repository at the workspace root on branch `main`, stages every file that is
 * not ignored, and commits it with `message`. Throws for a workspace that cannot be written
 * (a programmer or host error: the caller is seeding, not serving the model).
 */
export async function initRepoWithCommit(ws: Workspace, message: string): Promise<SeedCommit> {
  const existing = await openRepo(ws, { readOnly: true });
  if (existing.ok) return { commit: (await readHead(existing.repo)).commit, created: false };
  if (await ws.lstat('.git')) throw new Error(`initRepoWithCommit: ${existing.text}`);
  if (!hasBuffer())
    throw new Error(
      'initRepoWithCommit: no Buffer global — call installBufferGlobal() (src/platform/buffer-global.ts) first',
    );

  const fs = gitFs(ws, { readOnly: false });
  const dir = GIT_WORKDIR;
  const git = await loadGit();
  await git.init({ fs, dir, defaultBranch: SEED_BRANCH });
  await git.add({ fs, dir, filepath: '.' });
  const signature = { ...SEED_AUTHOR, timestamp: SEED_TIMESTAMP, timezoneOffset: 0 };
  const commit = await git.commit({ fs, dir, message, author: signature, committer: signature });
  return { commit, created: true };
}

/**
 * Seeds a bundled template and commits it. Every place that starts from a template — a live
 * run, a replay, a recorded example or lesson — seeds it this way, so git_status, git_diff and
 * ws_mv answer the same in all of them. (A session that starts from a person's own files has no
 * repository, live or replayed.)
 */
export async function seedTemplateRepo(ws: Workspace, template: Template): Promise<SeedCommit> {
  await seedTemplate(ws, template);
  return initRepoWithCommit(ws, `${template.id} template`);
}
