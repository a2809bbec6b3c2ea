/**
 * The WebContainer workspace's protected entries (`.git/`, `.slmcode/` outside scratch, the git
 * directories `.git` files name — ../protected-state.ts) read through the workspace's own file API, which is all WebContainer
 * offers: the top-level `.git` and `.slmcode` always, and every other protected entry (a nested
 * `.git`, a case or look-alike spelling of either) a bounded walk of the tree finds (never inside `node_modules`, where a process's `.git` reaches no harness).
 * Each file is kept as its bytes, so what a command changed can be put back as it was. A walk
 * that met its bound is said in the result, as the Node host's sandbox says its own.
 */
import { baseName, MAX_WALK_ENTRIES, walkTree } from '../../engine/walk.ts';
import { isWorkspaceError, type Workspace } from '../../engine/workspace.ts';
import { isHeld, isProtectedState, type HeldStore } from '../protected-state.ts';

/** A protected entry as held: a directory, or a file's bytes. */
export type HeldFile = { readonly type: 'dir' } | { readonly type: 'file'; readonly bytes: Uint8Array };

/** Directory names the walk for nested `.git` does not enter (`.git` and `.slmcode` are walked on their own). */
const NOT_ENTERED: ReadonlySet<string> = new Set(['node_modules', '.git', '.slmcode']);

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}

/** Null when `op` finds nothing at its path (removed between the listing and the read). */
async function unlessGone<T>(op: () => Promise<T>): Promise<T | null> {
  try {
    return await op();
  } catch (e) {
    if (isWorkspaceError(e, 'ENOENT')) return null;
    throw e;
  }
}

/** The held store over `ws`'s files; `maxEntries` bounds each walk (default: the tools' own walk bound). */
export function heldFiles(ws: Workspace, maxEntries = MAX_WALK_ENTRIES): HeldStore<HeldFile> {
  const cut = new Set<string>();

  /** `rel` and everything below it, when it is there, into `out` (held paths only: `isHeld` with `named`). */
  const hold = async (rel: string, out: Map<string, HeldFile>, named: readonly string[]): Promise<void> => {
    const st = await ws.lstat(rel);
    if (!st) return;
    const paths: { path: string; type: 'file' | 'dir' | 'symlink' }[] = [{ path: rel, type: st.type }];
    if (st.type === 'dir') {
      const below = await walkTree(ws, rel, { skip: new Set(), maxEntries });
      if (below.truncated)
        cut.add(`${rel} has more than ${maxEntries} entries, so only its first ${maxEntries} were held`);
      paths.push(...below.entries);
    }
    for (const { path, type } of paths) {
      if (!isHeld(path, named)) continue;
      if (type === 'dir') out.set(path, { type: 'dir' });
      else {
        const bytes = await unlessGone(() => ws.readFile(path));
        if (bytes) out.set(path, { type: 'file', bytes });
      }
    }
  };

  return {
    async snapshot(named) {
      cut.clear();
      const out = new Map<string, HeldFile>();
      for (const rel of ['.git', '.slmcode', ...named]) await hold(rel, out, named);
      const tree = await walkTree(ws, '', { skip: NOT_ENTERED, maxEntries });
      if (tree.truncated)
        cut.add(
          `the workspace has more than ${maxEntries} entries, so only the nested .git directories among the first ${maxEntries} were held; the top-level .git and .slmcode always are`,
        );
      // Every other protected entry whose parent is not (a nested `.git`, a `.GIT` or a look-alike spelling).
      for (const e of tree.entries) {
        const parent = e.path.slice(0, Math.max(0, e.path.length - baseName(e.path).length - 1));
        if (isProtectedState(e.path) && (parent === '' || !isProtectedState(parent))) await hold(e.path, out, named);
      }
      return out;
    },
    isDir: (entry) => entry.type === 'dir',
    same: (a, b) => (a.type === 'dir' ? b.type === 'dir' : b.type === 'file' && sameBytes(a.bytes, b.bytes)),
    remove: async (rel) => void (await unlessGone(() => ws.remove(rel))),
    put: (rel, entry) => (entry.type === 'dir' ? ws.mkdir(rel) : ws.writeFile(rel, entry.bytes)),
    note: () => (cut.size ? [...cut].join('; ') : undefined),
  };
}
