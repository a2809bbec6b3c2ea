/**
 * Where git's state lives in a workspace on a Node host, found on disk: every `.git` (the
 * top-level one and the nested ones: a submodule's, a nested repository's), and for a `.git`
 * that is a file (`gitdir: …`, as `git init --separate-git-dir` and submodules make) the
 * repository it names and that repository's `commondir`, where those resolve inside the root.
 * The sandbox mounts all of them read-only (host-sandbox.ts); the workspace compares the `.git`
 * entries before and after a command to remove the ones it made (node-workspace.ts).
 */
import { existsSync, readdirSync, readSync, closeSync, openSync, fstatSync, realpathSync, constants } from 'node:fs';
import { join } from 'node:path';
import { answerSync, firstLineOf, namedGitDirs, onBackend, surveyOf, type GitSurvey } from '../../engine/git-dirs.ts';
import { WORKSPACE_PATH } from '../../engine/workspace.ts';
import type { WalkEntry } from '../../engine/walk.ts';

/** Directory entries the walk for nested `.git` looks at, most, per command. */
export const GIT_WALK_ENTRIES = 50_000;

/** The most of a `.git` file or a `commondir` file that is read: a path, on its first line. */
const POINTER_BYTES = 4096;

/** Whether `path` is `dir` or below it (both absolute). */
export function isInside(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir === '/' ? '/' : `${dir}/`);
}

/** Where the host path `p` really is, when that is inside `root` and not the root itself (a link out reaches nothing: only the workspace is mounted). */
export function realInsideRoot(root: string, p: string): string | undefined {
  if (!existsSync(p)) return undefined;
  const real = realpathSync(p);
  return isInside(real, root) && real !== root ? real : undefined;
}

/**
 * The survey (../../engine/git-dirs.ts) of the tree at `root`: every `.git` (a directory, a
 * submodule's `.git` file, a link), every directory and git's markers, breadth first, never
 * following a link to a directory nor descending into a `.git`. `cut` is set when more than
 * `limit` entries were looked at: the rest was not walked.
 */
export function hostSurvey(root: string, limit = GIT_WALK_ENTRIES): GitSurvey {
  const seen: WalkEntry[] = [];
  let count = 0;
  for (let queue = [''], next: string[] = []; queue.length; queue = next, next = []) {
    for (const dir of queue) {
      let entries;
      try {
        entries = readdirSync(join(root, dir), { withFileTypes: true });
      } catch {
        continue;
      }
      for (const e of entries) {
        if (++count > limit) return surveyOf(seen, true);
        const path = dir === '' ? e.name : `${dir}/${e.name}`;
        const type = e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : 'file';
        seen.push({ path, type });
        if (type === 'dir' && e.name !== '.git') next.push(path);
      }
    }
  }
  return surveyOf(seen, false);
}

/** Every `.git` below the root but the top-level one, from the survey; `cut` is its. */
export function nestedGitEntries(
  root: string,
  limit = GIT_WALK_ENTRIES,
): { readonly found: string[]; readonly cut: boolean } {
  const survey = hostSurvey(root, limit);
  return { found: survey.gitEntries.filter((rel) => rel !== '.git'), cut: survey.cut };
}

/** The first line of the regular file at `p` (never a FIFO or a device: opened without blocking, read only when regular), or undefined. */
function firstLine(p: string): string | undefined {
  let fd: number;
  try {
    fd = openSync(p, constants.O_RDONLY | constants.O_NONBLOCK);
  } catch {
    return undefined;
  }
  try {
    if (!fstatSync(fd).isFile()) return undefined;
    const buf = Buffer.alloc(POINTER_BYTES);
    const n = readSync(fd, buf, 0, POINTER_BYTES, 0);
    return firstLineOf(buf.toString('utf8', 0, n));
  } catch {
    return undefined;
  } finally {
    closeSync(fd);
  }
}

/**
 * The host paths of git's state in the workspace at `root` (physical), each resolved and inside
 * the root: the top-level `.git`, every nested `.git` the walk finds, and for each of those that
 * is a `gitdir:` file the repository it names and that repository's `commondir`. `cut` is the
 * walk's (nested entries past GIT_WALK_ENTRIES were not looked at).
 */
export function gitStatePaths(
  root: string,
  limit = GIT_WALK_ENTRIES,
): { readonly paths: string[]; readonly cut: boolean } {
  const nested = nestedGitEntries(root, limit);
  const paths = new Set<string>();
  for (const rel of ['.git', ...nested.found]) {
    const entry = join(root, rel);
    const real = realInsideRoot(root, entry);
    if (!real) continue;
    paths.add(real);
    // The pointer rule every backend shares; here a named directory counts where it exists (it is
    // mounted), and `/ws/…` (a path git wrote inside the sandbox) is read below the root.
    const named = answerSync(namedGitDirs(entry, real), (q) =>
      'place' in q ? realInsideRoot(root, onBackend(q.place, root, WORKSPACE_PATH)) : firstLine(q.firstLine),
    );
    for (const dir of named) paths.add(dir);
  }
  return { paths: [...paths], cut: nested.cut };
}
