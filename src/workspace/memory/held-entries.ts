/**
 * The memory workspace's protected entries (`.git/`, `.slmcode/` outside scratch, the git
 * directories `.git` files name — ../protected-state.ts) as the InMemoryFs holds them: taken aside before a command and put back
 * after it straight in the filesystem's entry map, so what the shell wrote there through any
 * path (a link to `.git`, an archive member) is undone as well.
 */
import { isHeld, type HeldStore } from '../protected-state.ts';
import type { FsEntry } from './fs-changes.ts';

/** The held store over an InMemoryFs's entries below `root` (entry objects are replaced, not edited, when a file changes). */
export function heldEntries(entries: Map<string, FsEntry>, root: string): HeldStore<FsEntry> {
  const prefix = `${root}/`;
  return {
    snapshot(named) {
      const out = new Map<string, FsEntry>();
      for (const [path, entry] of entries) {
        const rel = path.startsWith(prefix) ? path.slice(prefix.length) : null;
        // A shallow copy keeps each entry as it was.
        if (rel !== null && isHeld(rel, named)) out.set(rel, { ...entry });
      }
      return Promise.resolve(out);
    },
    isDir: (entry) => entry.type === 'directory',
    same: sameEntry,
    remove(rel) {
      const path = `${prefix}${rel}`;
      for (const key of [...entries.keys()]) if (key === path || key.startsWith(`${path}/`)) entries.delete(key);
      return Promise.resolve();
    },
    put(rel, entry) {
      entries.set(`${prefix}${rel}`, { ...entry });
      return Promise.resolve();
    },
  };
}

function sameEntry(a: FsEntry, b: FsEntry): boolean {
  const ka = Object.keys(a);
  return (
    ka.length === Object.keys(b).length &&
    ka.every((k) => (a as unknown as Record<string, unknown>)[k] === (b as unknown as Record<string, unknown>)[k])
  );
}
