/**
 * The jail's physical walk: a root-relative path resolved component by component against the
 * workspace, every symlink followed inside the root (a link out, a loop, or, for a write, a link
 * in the last component is refused). `resolvePath` (jail.ts) runs it after its lexical rules;
 * the git-directory lookup (git-dirs.ts) resolves the paths `.git` files name with it.
 */
import type { Workspace } from './workspace.ts';

export type JailOp = 'read' | 'write';

const MAX_LINK_HOPS = 40;

/** Converts an absolute link target to root-relative segments, or null when it is outside the root. */
export function insideRoot(root: string, target: string): string[] | null {
  const rootSegs = root.split('/').filter(Boolean);
  const tSegs: string[] = [];
  for (const s of target.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') tSegs.pop();
    else tSegs.push(s);
  }
  if (tSegs.length < rootSegs.length) return null;
  for (let i = 0; i < rootSegs.length; i++) if (tSegs[i] !== rootSegs[i]) return null;
  return tSegs.slice(rootSegs.length);
}

/** Joins a relative link target onto the link's directory; null when it climbs above the root. */
function relativeTarget(dir: readonly string[], target: string): string[] | null {
  const out = [...dir];
  for (const s of target.split('/')) {
    if (s === '' || s === '.') continue;
    if (s === '..') {
      if (out.length === 0) return null;
      out.pop();
    } else out.push(s);
  }
  return out;
}

export type Walk = { ok: true; segments: string[] } | { ok: false; rule: string; text: string };

/**
 * Resolves symlinks physically, component by component. When `op` is a write, a symlink in the
 * last component is refused rather than followed (O_NOFOLLOW semantics).
 */
export async function walk(ws: Workspace, segments: readonly string[], op: JailOp, shown: string): Promise<Walk> {
  const resolved: string[] = [];
  // Each pending component remembers whether the model spelled it or it came from a link's target.
  const pending = segments.map((seg) => ({ seg, spelled: true }));
  let spelledLeft = segments.length;
  let hops = 0;
  while (pending.length > 0) {
    const { seg, spelled } = pending.shift()!;
    if (spelled) spelledLeft--;
    const candidate = [...resolved, seg].join('/');
    const st = ws.supportsSymlinks ? await ws.lstat(candidate) : null;
    const target = st?.type === 'symlink' ? await ws.readlink(candidate) : null;
    if (target === null) {
      resolved.push(seg);
      continue;
    }
    if (op === 'write' && spelled && spelledLeft === 0) {
      return {
        ok: false,
        rule: 'final-symlink',
        text: `refused — ${shown} is a symlink (${candidate} → ${target}); tools that change files never follow a symlink in the last part of the path. Name the file it points at by its own path.`,
      };
    }
    if (++hops > MAX_LINK_HOPS) {
      return {
        ok: false,
        rule: 'symlink-loop',
        text: `path refused — ${shown} runs into a symlink loop at ${candidate}. Use ws_list to see the real files.`,
      };
    }
    const base = target.startsWith('/') ? insideRoot(ws.root, target) : relativeTarget(resolved, target);
    if (base === null) {
      return {
        ok: false,
        rule: 'symlink-out',
        text: `path refused — ${shown} goes through the symlink ${candidate} → ${target}, which points outside the project root. Only files inside the workspace can be used.`,
      };
    }
    // Continue from the link's target: its components replace the link's.
    resolved.length = 0;
    pending.unshift(...base.map((s) => ({ seg: s, spelled: false })));
  }
  return { ok: true, segments: resolved };
}
