/**
 * The lexical jail for paths inside shell commands. The command runs in the workspace root, so a
 * path operand must stay below it: no absolute paths (except the /dev/null family), no `..` that
 * climbs above the root, and no pattern that could match `..` itself. Symlinks are the
 * workspace backend's business (it runs jailed); this only keeps the spelled path inside.
 */
import { never, q, USE, type Finding } from './decision.ts';
import type { OptionToken } from './options.ts';
import type { Word } from './words.ts';

/** Device paths that read or write nothing of the user's. */
const DEVICES = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr']);

/** A path segment that is a pattern able to match `..` (bash's `.*`, `.?`, `.[.]`). */
function dotPattern(segment: string): boolean {
  return segment.length > 1 && segment[0] === '.' && '*?['.includes(segment[1]!);
}

/** Why `path` (as the command will see it) leaves the workspace, or null when it stays inside. */
export function pathFinding(path: string, raw: string = path): Finding | null {
  if (path === '' || path === '-' || DEVICES.has(path)) return null;
  if (path.startsWith('/')) {
    return never('outside-path', `the absolute path ${q(raw)} is outside the workspace`, USE.jail);
  }
  let depth = 0;
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (dotPattern(seg)) return never('outside-path', `the pattern ${q(raw)} can match ".." and leave the workspace`, USE.jail);
    depth += seg === '..' ? -1 : 1;
    if (depth < 0) return never('outside-path', `the path ${q(raw)} climbs out of the workspace`, USE.jail);
  }
  return null;
}

/** Why the value of a path-taking option leaves the workspace, or null. */
export function optionPathFinding(t: OptionToken): Finding | null {
  return pathFinding(t.value ?? '', t.valueRaw ?? t.word.raw);
}

/** The first path finding among several words. */
export function pathsFinding(words: readonly Word[]): Finding | null {
  for (const w of words) {
    const f = pathFinding(w.text, w.raw);
    if (f) return f;
  }
  return null;
}
