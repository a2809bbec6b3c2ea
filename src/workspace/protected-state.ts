/**
 * What the Node host's sandbox does with read-only mounts, for the backends that have none: a
 * command never changes `.git/` (at any depth) or `.slmcode/` (outside `scratch/`). The memory
 * workspace's shell writes the same InMemoryFs the file tools use, and a WebContainer process
 * writes the same filesystem the workspace reads, neither with a jail of its own (an approved
 * `tar -xf` can hold `.git/config` among its members; `node x.js` can write `.git/HEAD`). So
 * the workspace takes the protected entries aside before a command and puts them back after
 * it: whatever the command added there is removed, whatever it changed or removed is restored,
 * and the result says so. The git directories `.git` files name (`gitdir:`, and their
 * `commondir`) are held the same way, and a git directory a command made anywhere else (a bare
 * repository: `git init --bare sub`, or a script writing HEAD, objects/ and refs/) is removed,
 * as the Node host removes a `.git` a command made (../engine/git-dirs.ts has both rules). Each
 * backend says how its entries are listed, compared and put back (`HeldStore`); the hold, the
 * comparison, the restore and the words are shared here.
 */
import { gitDirsNamed, isAtOrBelow, madeGitDirs, surveyWorkspace } from '../engine/git-dirs.ts';
import { HARNESS_DIR, protectedArea, SCRATCH_DIR } from '../engine/jail.ts';
import type { ExecPlan, ExecResult, Workspace } from '../engine/workspace.ts';

/**
 * Whether `rel` (root-relative, no leading slash) is state a command may not change: the file
 * tools' own boundary (`protectedArea`: `.git` at any depth and `.slmcode`, in any case,
 * compatibility or look-alike spelling), except `.slmcode/scratch` itself, the directory below
 * which commands write.
 */
export function isProtectedState(rel: string): boolean {
  const segs = rel.split('/');
  if (segs.length === 2 && segs[0] === HARNESS_DIR && segs[1] === SCRATCH_DIR) return false;
  return protectedArea(segs) !== null;
}

/** Whether `rel` is protected state or at or below one of the git directories `named` (root-relative, physical). */
export function isHeld(rel: string, named: readonly string[]): boolean {
  return isProtectedState(rel) || named.some((dir) => isAtOrBelow(rel, dir));
}

/** How one backend lists, compares and puts back its protected entries (`E`: what it keeps of one). */
export interface HeldStore<E> {
  /**
   * Every protected entry now (`isHeld`, with the git directories `named` that `.git` files
   * name), by root-relative path, each kept as it is now (later changes do not reach it).
   */
  snapshot(named: readonly string[]): Promise<ReadonlyMap<string, E>>;
  isDir(entry: E): boolean;
  same(a: E, b: E): boolean;
  /** Removes `rel` and everything below it. */
  remove(rel: string): Promise<void>;
  /** Puts `entry` back at `rel` (its parent is there: entries are put back parents first). */
  put(rel: string, entry: E): Promise<void>;
  /** Something to add to the result whatever happened (a walk that was cut), if any. */
  readonly note?: () => string | undefined;
}

/** `.slmcode` itself, made as a plain directory (on the way to `.slmcode/scratch/`), changes nothing a harness reads. */
function harmless<E>(store: HeldStore<E>, rel: string, entry: E): boolean {
  return rel === '.slmcode' && store.isDir(entry);
}

/** A snapshot of the protected entries; `restore` puts them back as they were and names, sorted, every path it undid. */
export async function holdProtectedState<E>(
  store: HeldStore<E>,
  named: readonly string[] = [],
): Promise<{ restore(): Promise<string[]> }> {
  const before = await store.snapshot(named);
  return {
    async restore() {
      // The same named directories after: a `.git` file the command re-pointed is put back itself.
      const after = await store.snapshot(named);
      const undone: string[] = [];
      const drop: string[] = [];
      const put: [string, E][] = [];
      for (const [rel, entry] of after) {
        const was = before.get(rel);
        if (was === undefined) {
          if (harmless(store, rel, entry)) continue;
          undone.push(rel);
          drop.push(rel);
        } else if (!store.same(was, entry)) {
          undone.push(rel);
          // A file that became a directory (or the reverse) goes, with what is below it, before it is put back.
          if (store.isDir(was) !== store.isDir(entry)) drop.push(rel);
          put.push([rel, was]);
        }
      }
      for (const [rel, was] of before) {
        if (!after.has(rel)) {
          undone.push(rel);
          put.push([rel, was]);
        }
      }
      const dropped: string[] = [];
      for (const rel of drop.sort()) {
        if (dropped.some((d) => rel.startsWith(`${d}/`))) continue;
        await store.remove(rel);
        dropped.push(rel);
      }
      for (const [rel, was] of put.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) await store.put(rel, was);
      return undone.sort();
    },
  };
}

/** What a result says about the protected paths a command changed, which were undone. */
export function undoneText(undone: readonly string[]): string {
  const shown =
    undone.length > 5 ? `${undone.slice(0, 5).join(', ')} and ${undone.length - 5} more` : undone.join(', ');
  return `the command changed ${shown} — .git/ and .slmcode/ are never written by commands, so those changes were undone`;
}

/** What a result says about the git directories a command made outside `.git/`, which were removed. */
export function madeGitDirsText(made: readonly string[]): string {
  const shown = made.length > 5 ? `${made.slice(0, 5).join(', ')} and ${made.length - 5} more` : made.join(', ');
  return (
    `the command made a git directory outside .git/ (a HEAD with objects/ and refs/, or with a commondir), so ${shown} was removed — ` +
    `git would run such a directory's hooks and config; keep history in the project's own .git (git init in the root)`
  );
}

/** Whether `plan` is git alone (`git init`, which a person approves), the one command that may make a repository. */
export function isGitAlone(plan: ExecPlan): boolean {
  const argv0 = plan.stages.length === 1 ? (plan.stages[0]!.argv[0] ?? '') : '';
  return argv0.slice(argv0.lastIndexOf('/') + 1) === 'git';
}

/**
 * Runs `plan` (through `run`) with the protected entries of `store` held as they were, the git
 * directories `.git` files in `ws` name included: what it changed there is undone, a git
 * directory it made elsewhere is removed (one a kept `.git` file names after git alone is
 * left), and both are said.
 */
export async function runHeld<E>(
  ws: Workspace,
  store: HeldStore<E>,
  plan: ExecPlan,
  run: () => Promise<ExecResult>,
): Promise<ExecResult> {
  const before = await surveyWorkspace(ws);
  const held = await holdProtectedState(
    store,
    (await gitDirsNamed(ws, before)).map((n) => n.dir),
  );
  const result = await run();
  const undone = await held.restore();
  const after = await surveyWorkspace(ws);
  const kept = isGitAlone(plan) ? (await gitDirsNamed(ws, after)).map((n) => n.dir) : [];
  const made = madeGitDirs(before, after, kept);
  const failed: string[] = [];
  for (const rel of made) {
    try {
      await ws.remove(rel);
    } catch (e) {
      failed.push(`${rel} (${e instanceof Error ? e.message : String(e)})`);
    }
  }
  const notes = [
    result.backendNote,
    store.note?.(),
    undone.length ? undoneText(undone) : undefined,
    failed.length
      ? `the command made a git directory outside .git/ at ${made.join(', ')}; removing failed for ${failed.join(', ')} — delete it by hand before running git here`
      : made.length
        ? madeGitDirsText(made)
        : undefined,
  ].filter((n): n is string => !!n);
  return notes.length ? { ...result, backendNote: notes.join('; ') } : result;
}
