/**
 * What the Node host's sandbox does with read-only mounts, for the backends that have none: a
 * command never changes `.git/` (at any depth) or `.slmcode/` (outside `scratch/`). The memory
 * workspace's shell writes the same InMemoryFs the file tools use, and a WebContainer process
 * writes the same filesystem the workspace reads, neither with a jail of its own (an approved
 * `tar -xf` can hold `.git/config` among its members; `node x.js` can write `.git/HEAD`). So
 * the workspace takes the protected entries aside before a command and puts them back after
 * it: whatever the command added there is removed, whatever it changed or removed is restored,
 * and the result says so. Each backend says how its entries are listed, compared and put back
 * (`HeldStore`); the hold, the comparison, the restore and the words are shared here.
 */
import { HARNESS_DIR, protectedArea, SCRATCH_DIR } from '../engine/jail.ts';
import type { ExecResult } from '../engine/workspace.ts';

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

/** How one backend lists, compares and puts back its protected entries (`E`: what it keeps of one). */
export interface HeldStore<E> {
  /** Every protected entry now, by root-relative path, each kept as it is now (later changes do not reach it). */
  snapshot(): Promise<ReadonlyMap<string, E>>;
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
export async function holdProtectedState<E>(store: HeldStore<E>): Promise<{ restore(): Promise<string[]> }> {
  const before = await store.snapshot();
  return {
    async restore() {
      const after = await store.snapshot();
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

/** Runs a command with the protected entries of `store` held as they were: what it changed there is undone and said. */
export async function runHeld<E>(store: HeldStore<E>, run: () => Promise<ExecResult>): Promise<ExecResult> {
  const held = await holdProtectedState(store);
  const result = await run();
  const undone = await held.restore();
  const notes = [result.backendNote, store.note?.(), undone.length ? undoneText(undone) : undefined].filter(
    (n): n is string => !!n,
  );
  return notes.length ? { ...result, backendNote: notes.join('; ') } : result;
}
