/**
 * The file tree as rows for the console: depth for indentation, the last path segment as the
 * label, and whether the last tool call touched the entry.
 */
import type { FileChange, TreeEntry } from '../../worker/client.ts';

export interface TreeRow {
  readonly entry: TreeEntry;
  readonly depth: number;
  readonly name: string;
  /** How the last call changed this file, if it did. */
  readonly change: 'created' | 'modified' | null;
}

/** Deepest indentation level the stylesheet distinguishes. */
export const MAX_DEPTH_CLASS = 8;

export function treeRows(entries: readonly TreeEntry[], changes: readonly FileChange[]): TreeRow[] {
  const changed = new Map(
    changes
      .filter((c) => c.after !== null)
      .map((c) => [c.path, c.before === null ? ('created' as const) : ('modified' as const)]),
  );
  return entries.map((entry) => {
    const parts = entry.path.split('/');
    return { entry, depth: parts.length - 1, name: parts[parts.length - 1]!, change: changed.get(entry.path) ?? null };
  });
}

/** Paths the last call deleted (or moved away), which are no longer in the tree. */
export function removedPaths(changes: readonly FileChange[]): string[] {
  return changes.filter((c) => c.after === null).map((c) => c.path);
}

/** "1.2 KB"-style sizes for the tree. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
