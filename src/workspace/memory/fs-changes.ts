/**
 * Change tracking for an InMemoryFs, so the memory workspace can keep listings and stats between
 * changes, including the ones the shell makes straight to the same filesystem. Every change to
 * an InMemoryFs's tree goes through its entry map's `set` and `delete`; those are wrapped on that
 * one map to count them. Null when the filesystem does not keep its entries in a Map (another
 * just-bash version): the workspace then keeps nothing and asks the filesystem every time.
 */
import type { InMemoryFs } from 'just-bash';

/** An entry as InMemoryFs stores it; only its kind is read. */
export interface FsEntry {
  readonly type: string;
}

export interface TrackedFs {
  /** Goes up on every change to the tree; equal versions mean an unchanged tree. */
  readonly version: number;
  /** The filesystem's own entries by normalized absolute path (read only). */
  readonly entries: ReadonlyMap<string, FsEntry>;
}

const tracked = new WeakMap<InMemoryFs, TrackedFs>();

export function trackFs(fs: InMemoryFs): TrackedFs | null {
  const known = tracked.get(fs);
  if (known) return known;
  const entries = (fs as unknown as { data?: unknown }).data;
  if (!(entries instanceof Map)) return null;
  const state = { version: 0, entries: entries as Map<string, FsEntry> };
  const set = entries.set.bind(entries);
  const remove = entries.delete.bind(entries);
  const clear = entries.clear.bind(entries);
  entries.set = (key: unknown, value: unknown) => (state.version++, set(key, value));
  entries.delete = (key: unknown) => (state.version++, remove(key));
  entries.clear = () => (state.version++, clear());
  tracked.set(fs, state);
  return state;
}
