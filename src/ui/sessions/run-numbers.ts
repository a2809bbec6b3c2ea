/**
 * Saved sessions that share a title (the same task, workspace and model, run again) are told
 * apart by a number in the order they started: of n entries with one title the oldest is run 1.
 */
import type { SavedMeta } from '../../session/idb-store.ts';

/** id → its number among the entries with its title, for titles used more than once; `saved` is newest first. */
export function runNumbers(saved: readonly Pick<SavedMeta, 'id' | 'title'>[]): Map<string, number> {
  const total = new Map<string, number>();
  for (const m of saved) total.set(m.title, (total.get(m.title) ?? 0) + 1);
  const next = new Map(total);
  const out = new Map<string, number>();
  for (const m of saved) {
    const n = next.get(m.title)!;
    next.set(m.title, n - 1);
    if (total.get(m.title)! > 1) out.set(m.id, n);
  }
  return out;
}
