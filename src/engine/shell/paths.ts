/**
 * The lexical jail for paths inside shell commands. The command runs in the workspace root, so a
 * path it reads must stay below it: no absolute paths (only /dev/null, which reads nothing), no
 * device or kernel files (`/dev/stdin` would hand an interpreter its program through stdin,
 * `/proc/self/environ` prints secrets), no `..` that climbs above the root, and no pattern that
 * could match `..` itself. A path it writes must also stay out of the areas the file tools protect
 * (`.git/` at any depth, `.slmcode/` outside `scratch/` — the jail's own `protectedArea`) and be
 * spelled literally: a pattern (`.slm*`) could expand to one of them. Symlinks are the workspace
 * backend's business (it runs jailed); this only keeps the spelled path inside.
 */
import { never, q, USE, type Finding } from './decision.ts';
import { protectedArea } from '../jail.ts';
import type { OptionToken } from './options.ts';
import { hasGlob, type Word } from './words.ts';

/** Output targets that are no file: the null device and the command's own output streams. */
const OUTPUT_DEVICES = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);

/** A path segment that is a pattern able to match `..` (bash's `.*`, `.?`, `.[.]`). */
function dotPattern(segment: string): boolean {
  return segment.length > 1 && segment[0] === '.' && '*?['.includes(segment[1]!);
}

function absoluteFinding(path: string, raw: string): Finding {
  if (/^\/+(?:dev|proc|sys)(?:\/|$)/.test(path)) {
    return never(
      'device-path',
      `${q(raw)} is a device or kernel file, not a workspace file (/dev/stdin and /dev/fd/* hand a program text through stdin, /proc and /sys expose the process and its secrets)`,
      `${USE.jail} Only /dev/null may be named.`,
    );
  }
  return never('outside-path', `the absolute path ${q(raw)} is outside the workspace`, USE.jail);
}

/** Why `path` (as the command will see it) leaves the workspace, or null when it stays inside. */
export function pathFinding(path: string, raw: string = path): Finding | null {
  if (path === '' || path === '-' || path === '/dev/null') return null;
  if (path.startsWith('/')) return absoluteFinding(path, raw);
  let depth = 0;
  for (const seg of path.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (dotPattern(seg))
      return never('outside-path', `the pattern ${q(raw)} can match ".." and leave the workspace`, USE.jail);
    depth += seg === '..' ? -1 : 1;
    if (depth < 0) return never('outside-path', `the path ${q(raw)} climbs out of the workspace`, USE.jail);
  }
  return null;
}

/** The path's segments as spelled (without `.` and empty ones) and as normalized (`a/../b` is `b`). */
function segmentsOf(path: string): { spelled: string[]; normal: string[] } {
  const spelled = path.split('/').filter((s) => s !== '' && s !== '.');
  const normal: string[] = [];
  for (const s of spelled) {
    if (s === '..') normal.pop();
    else normal.push(s);
  }
  return { spelled, normal };
}

/** Why a command may not write `path` at all (tier never), or null when the path is an ordinary workspace file. */
export function writePathFinding(path: string, raw: string = path, word?: Word): Finding | null {
  if (path === '' || path === '-' || OUTPUT_DEVICES.has(path)) return null;
  if (word && hasGlob(word)) {
    return never(
      'write-pattern',
      `the write target ${q(raw)} is a pattern, which could expand to .git or .slmcode`,
      'Name the file or directory it writes literally.',
    );
  }
  const outside = pathFinding(path, raw);
  if (outside) return outside;
  const { spelled, normal } = segmentsOf(path);
  const area = protectedArea(normal) ?? protectedArea(spelled);
  if (area === 'git-state') {
    return never(
      'protected-path',
      `${q(raw)} is inside .git/, git's own state: a hook or config written there runs commands, so no command may write it`,
      'Change project files with ws_write, ws_edit or ws_patch; git commands change the repository themselves.',
    );
  }
  if (area === 'harness') {
    return never(
      'protected-path',
      `${q(raw)} is harness control state under .slmcode/, which no command may write`,
      'Scratch files may go under .slmcode/scratch/ (with ws_write); project files anywhere else in the workspace.',
    );
  }
  return null;
}

/** Why the value of a path-taking option leaves the workspace, or null. */
export function optionPathFinding(t: OptionToken): Finding | null {
  return pathFinding(t.value ?? '', t.valueRaw ?? t.word.raw);
}

/** Why the value of an option that writes a file may not be written, or null. */
export function optionWriteFinding(t: OptionToken): Finding | null {
  return writePathFinding(t.value ?? '', t.valueRaw ?? t.word.raw, t.valueWord ?? undefined);
}

/** The first path finding among several words. */
export function pathsFinding(words: readonly Word[]): Finding | null {
  for (const w of words) {
    const f = pathFinding(w.text, w.raw);
    if (f) return f;
  }
  return null;
}

/** The first write finding among several words (each a file or directory the command writes). */
export function writesFinding(words: readonly Word[]): Finding | null {
  for (const w of words) {
    const f = writePathFinding(w.text, w.raw, w);
    if (f) return f;
  }
  return null;
}
