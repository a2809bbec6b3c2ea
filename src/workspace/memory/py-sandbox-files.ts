/**
 * The workspace's files going into a Python job and what it wrote coming back. Pyodide runs
 * over its own in-memory filesystem, so the files are copied in (at the workspace's own path)
 * and the changes copied out; the host decides what it keeps:
 *
 * - in: every regular file under the root, links followed only where they lead inside it; never
 *   `.git/` or `.slmcode/` (outside scratch — ../protected-state.ts), nor `node_modules/`; at most
 *   PASS_BYTES in all, a file over it left out and named;
 * - out: a file written or removed is applied to the InMemoryFs unless it is protected state (it
 *   is refused and named), a link in the workspace (kept as it was, named), or a path that is
 *   not plain (`..`, empty or absolute parts: dropped and named). The workspace's own guard
 *   (memory-workspace.ts) still undoes anything a command changes under `.git/` or `.slmcode/`.
 */
import type { InMemoryFs } from 'just-bash';
import { isProtectedState } from '../protected-state.ts';

/** The most file bytes copied into one job. */
export const PASS_BYTES = 64 * 2 ** 20;

/** The most file bytes one job may send back. */
export const RETURN_BYTES = 64 * 2 ** 20;

/** Nested directories followed at most (a link loop ends here). */
const MAX_DEPTH = 64;

/** What a job gets: the files by root-relative path, and what was left out. */
export interface PassedFiles {
  readonly files: [string, Uint8Array][];
  readonly left: string[];
}

/** The files of the tree under `root` in `fs`, as a Python job gets them. */
export async function filesForPython(fs: InMemoryFs, root: string): Promise<PassedFiles> {
  const files: [string, Uint8Array][] = [];
  const left: string[] = [];
  let budget = PASS_BYTES;
  const walk = async (dir: string, rel: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH) return void left.push(`${rel}/ (nested too deep)`);
    for (const e of await fs.readdirWithFileTypes(dir)) {
      const path = `${dir}/${e.name}`;
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.name === 'node_modules' || isProtectedState(r)) continue;
      if (e.isSymbolicLink) {
        const real = await fs.realpath(path).catch(() => null);
        if (real === null || !real.startsWith(`${root}/`)) continue;
      }
      const st = await fs.stat(path).catch(() => null);
      if (st?.isDirectory) await walk(path, r, depth + 1);
      else if (st?.isFile) {
        if (st.size > budget) left.push(r);
        else {
          budget -= st.size;
          files.push([r, await fs.readFileBuffer(path)]);
        }
      }
    }
  };
  await walk(root, '', 0);
  return { files, left };
}

/** What a job sent back (untrusted: checked before use). */
export interface PyWrites {
  readonly changed: readonly (readonly [string, Uint8Array])[];
  readonly removed: readonly string[];
  readonly over: readonly string[];
}

/** A job's `files` message as data, or null when it is not one. */
export function readWrites(m: Record<string, unknown>): PyWrites | null {
  const { changed, removed, over } = m;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
  if (!Array.isArray(changed) || !strings(removed) || !strings(over)) return null;
  const pairs = changed.filter(
    (p): p is [string, Uint8Array] => Array.isArray(p) && typeof p[0] === 'string' && p[1] instanceof Uint8Array,
  );
  let bytes = 0;
  const kept = pairs.filter(([, b]) => (bytes += b.length) <= RETURN_BYTES);
  return { changed: kept, removed, over: [...over, ...pairs.slice(kept.length).map(([p]) => p)] };
}

const plain = (rel: string): boolean => rel !== '' && rel.split('/').every((s) => s !== '' && s !== '.' && s !== '..');

/** Applies `w` to the tree under `root`; returns what the note should say (empty when nothing). */
export async function applyWrites(fs: InMemoryFs, root: string, w: PyWrites): Promise<string[]> {
  const kept: string[] = [];
  const refused: string[] = [];
  const links: string[] = [];
  const odd: string[] = [];
  const failed: string[] = [];
  // A path through a link could leave the root (links to outside it were never passed in, so a
  // directory of that name may have been made in their place): every part is checked.
  const isLink = async (rel: string) => {
    const parts = rel.split('/');
    for (let i = 1; i <= parts.length; i++) {
      const st = await fs.lstat(`${root}/${parts.slice(0, i).join('/')}`).catch(() => null);
      if (st === null) return false;
      if (st.isSymbolicLink) return true;
    }
    return false;
  };
  for (const [rel, bytes] of w.changed) {
    if (!plain(rel)) odd.push(rel);
    else if (isProtectedState(rel)) refused.push(rel);
    else if (await isLink(rel)) links.push(rel);
    else {
      try {
        const parent = rel.includes('/') ? `${root}/${rel.slice(0, rel.lastIndexOf('/'))}` : root;
        await fs.mkdir(parent, { recursive: true });
        await fs.writeFile(`${root}/${rel}`, bytes);
        kept.push(rel);
      } catch (e) {
        failed.push(`${rel} (${(e as Error).message})`);
      }
    }
  }
  const removed: string[] = [];
  for (const rel of w.removed) {
    if (!plain(rel) || isProtectedState(rel)) odd.push(rel);
    else if (await isLink(rel)) links.push(rel);
    else if (
      await fs.rm(`${root}/${rel}`, { force: true }).then(
        () => true,
        () => false,
      )
    )
      removed.push(rel);
  }
  const list = (paths: string[]) =>
    paths.length > 5 ? `${paths.slice(0, 5).join(', ')} and ${paths.length - 5} more` : paths.join(', ');
  const notes: string[] = [];
  if (kept.length) notes.push(`files it wrote were kept in the workspace: ${list(kept)}`);
  if (removed.length) notes.push(`files it removed were removed from the workspace: ${list(removed)}`);
  if (refused.length)
    notes.push(`it wrote ${list(refused)}; not kept: .git/ and .slmcode/ are never written by commands`);
  if (links.length)
    notes.push(
      `not changed: ${list(links)} (a symbolic link in the workspace, or a path through one; write to its target)`,
    );
  if (odd.length) notes.push(`ignored paths that are not plain workspace paths: ${list(odd)}`);
  if (failed.length) notes.push(`could not write ${list(failed)}`);
  if (w.over.length)
    notes.push(`not kept: ${list([...w.over])} (over the ${RETURN_BYTES / 2 ** 20} MiB a run may send back)`);
  return notes;
}
