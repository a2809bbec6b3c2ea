/**
 * The difference between two recorded states of the files (HEAD → index, index → working
 * tree, HEAD → working tree) as a list of changes, with exact renames paired the way git pairs
 * them: a deleted path and an added path holding the same blob are one rename. Renames of
 * changed content (git's similarity below 100%) stay a delete plus an add.
 */
import { compareGitPaths } from './worktree.ts';
import type { FileMap, GitBlob } from './repo.ts';

export type Change =
  | { readonly kind: 'added'; readonly path: string; readonly after: GitBlob }
  | { readonly kind: 'deleted'; readonly path: string; readonly before: GitBlob }
  | { readonly kind: 'modified'; readonly path: string; readonly before: GitBlob; readonly after: GitBlob }
  | {
      readonly kind: 'renamed';
      readonly from: string;
      readonly path: string;
      readonly before: GitBlob;
      readonly after: GitBlob;
    };

/**
 * Changes from `before` to `after`, sorted as git sorts them: by the path the change ends at
 * (a rename sits at its new path). `paths` limits the comparison to these paths, when given.
 */
export function compareFiles(
  before: FileMap,
  after: FileMap,
  opts: { renames: boolean; paths?: ReadonlySet<string> },
): Change[] {
  const wanted = (p: string) => !opts.paths || opts.paths.has(p);
  const changes: Change[] = [];
  const deleted: Array<{ path: string; before: GitBlob }> = [];
  const added: Array<{ path: string; after: GitBlob }> = [];
  for (const [path, b] of before) {
    if (!wanted(path)) continue;
    const a = after.get(path);
    if (!a) deleted.push({ path, before: b });
    else if (a.oid !== b.oid || a.mode !== b.mode) changes.push({ kind: 'modified', path, before: b, after: a });
  }
  for (const [path, a] of after) {
    if (wanted(path) && !before.has(path)) added.push({ path, after: a });
  }

  // Exact renames: each added blob takes the first unclaimed deleted path with the same id.
  const byOid = new Map<string, Array<{ path: string; before: GitBlob }>>();
  if (opts.renames) {
    for (const d of deleted.sort((x, y) => compareGitPaths(x.path, y.path))) {
      const list = byOid.get(d.before.oid) ?? [];
      list.push(d);
      byOid.set(d.before.oid, list);
    }
  }
  const claimed = new Set<string>();
  for (const a of added.sort((x, y) => compareGitPaths(x.path, y.path))) {
    const source = byOid.get(a.after.oid)?.find((d) => !claimed.has(d.path));
    if (source) {
      claimed.add(source.path);
      changes.push({ kind: 'renamed', from: source.path, path: a.path, before: source.before, after: a.after });
    } else {
      changes.push({ kind: 'added', path: a.path, after: a.after });
    }
  }
  for (const d of deleted) if (!claimed.has(d.path)) changes.push({ kind: 'deleted', path: d.path, before: d.before });
  return changes.sort((x, y) => compareGitPaths(x.path, y.path));
}

/** Characters that make git quote a path: quotes, backslashes and control characters. */
const NEEDS_QUOTES = /["\\\u0000-\u001f\u007f]/;

/**
 * A path as git prints it with core.quotePath=false: C-quoted when it holds a quote, a
 * backslash or a control character (and, in `git status --short`, a space); other characters,
 * non-ASCII included, are shown as they are so the model can pass the path straight back.
 */
export function quotePath(path: string, opts: { quoteSpaces: boolean }): string {
  if (!NEEDS_QUOTES.test(path) && !(opts.quoteSpaces && path.includes(' '))) return path;
  const escaped = path.replace(/["\\\u0000-\u001f\u007f]/g, (ch) => {
    const named: Record<string, string> = { '"': '\\"', '\\': '\\\\', '\t': '\\t', '\n': '\\n', '\r': '\\r' };
    return named[ch] ?? `\\${ch.charCodeAt(0).toString(8).padStart(3, '0')}`;
  });
  return `"${escaped}"`;
}
