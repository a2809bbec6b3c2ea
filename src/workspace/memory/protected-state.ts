/**
 * What the Node host's sandbox does with read-only mounts, for the memory workspace: a command
 * never changes `.git/` (at any depth) or `.slmcode/` (outside `scratch/`). just-bash writes the
 * same InMemoryFs the file tools use, with no jail of its own (an approved `tar -xf` can hold
 * `.git/config` among its members, or a link to `.slmcode` and a member through it), so the
 * workspace takes the protected entries aside before a command and puts them back after it:
 * whatever the command added there is removed, whatever it changed or removed is restored, and
 * the result says so.
 */
import type { FsEntry } from './fs-changes.ts';

/** Whether `rel` (root-relative, no leading slash) is state a command may not change. */
export function isProtectedState(rel: string): boolean {
  const segs = rel.split('/');
  if (segs.includes('.git')) return true;
  return segs[0] === '.slmcode' && !(segs[1] === 'scratch' && segs.length >= 2);
}

/** `.slmcode` itself, made as a plain directory (on the way to `.slmcode/scratch/`), changes nothing a harness reads. */
function harmless(rel: string, entry: FsEntry): boolean {
  return rel === '.slmcode' && entry.type === 'directory';
}

/** The protected entries of the tree, by absolute path (entry objects as the filesystem holds them). */
function protectedEntries(entries: ReadonlyMap<string, FsEntry>, root: string): Map<string, FsEntry> {
  const out = new Map<string, FsEntry>();
  const prefix = `${root}/`;
  for (const [path, entry] of entries) {
    if (path.startsWith(prefix) && isProtectedState(path.slice(prefix.length))) out.set(path, entry);
  }
  return out;
}

/** A snapshot of the protected entries; `restore` puts the tree's protected part back as it was and names what it undid. */
export function holdProtectedState(entries: Map<string, FsEntry>, root: string): { restore(): string[] } {
  // Entry objects are replaced, not edited, when a file changes; a shallow copy keeps each as it was.
  const before = new Map([...protectedEntries(entries, root)].map(([p, e]) => [p, { ...e }] as const));
  return {
    restore() {
      const undone = new Set<string>();
      const rel = (p: string): string => p.slice(root.length + 1);
      for (const [path, entry] of protectedEntries(entries, root)) {
        const was = before.get(path);
        if (!was) {
          if (harmless(rel(path), entry)) continue;
          entries.delete(path);
          undone.add(rel(path));
        } else if (!sameEntry(was, entry)) {
          entries.set(path, { ...was });
          undone.add(rel(path));
        }
      }
      for (const [path, was] of before) {
        if (!entries.has(path)) {
          entries.set(path, { ...was });
          undone.add(rel(path));
        }
      }
      return [...undone].sort();
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
