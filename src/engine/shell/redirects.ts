/**
 * What surrounds a command's words: redirections and `NAME=value` prefixes. Output may go only to
 * /dev/null, /dev/stdout, /dev/stderr or another descriptor (`2>&1`); any other target is a file written from
 * the shell. Input may come from a file inside the workspace, a here-string or a heredoc. Only a
 * few harmless environment names may be set before a command: others (LD_PRELOAD, NODE_OPTIONS,
 * GIT_PAGER, PATH …) make the command load or run other code.
 */
import { never, q, USE, type Finding } from './decision.ts';
import { pathFinding } from './paths.ts';
import type { Assignment, Redirect } from './syntax.ts';
import { hasGlob, wordFinding } from './words.ts';

/** Environment names that only change output style, locale or mode. */
const SAFE_ENV = new Set([
  'CI',
  'NODE_ENV',
  'FORCE_COLOR',
  'NO_COLOR',
  'TZ',
  'LANG',
  'LC_ALL',
  'DEBUG',
  'COLUMNS',
  'TERM',
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONUNBUFFERED',
  'PYTHONHASHSEED',
  'RUST_BACKTRACE',
  'NODE_NO_WARNINGS',
]);

const OUTPUT_OPS = new Set(['>', '>>', '>|', '&>', '&>>', '>&']);
/** Output targets that are no file: the null device and the command's own output streams. */
const DISCARD = new Set(['/dev/null', '/dev/stdout', '/dev/stderr']);
const DUPLICATE_OPS = new Set(['>&', '<&', '>&-', '<&-']);

/** Why a `NAME=value` prefix is not allowed, or null. */
export function assignmentFinding(a: Assignment): Finding | null {
  if (!SAFE_ENV.has(a.name)) {
    return never(
      'environment',
      `the environment assignment ${q(a.raw)} changes how the command runs (names such as LD_PRELOAD, NODE_OPTIONS or GIT_PAGER load or run other code)`,
      `Only ${[...SAFE_ENV].slice(0, 8).join(', ')} and a few similar names may be set before a command.`,
    );
  }
  return wordFinding(a.value);
}

/** Why a redirection writes a file or reads outside the workspace, or null when it is harmless. */
export function redirectFinding(r: Redirect): Finding | null {
  if (r.kind === 'heredoc') return null;
  const target = r.target;
  if (target) {
    const f = wordFinding(target);
    if (f) return f;
  }
  if (r.kind === 'herestring') return null;
  // `2>&1`, `>&2`, `3<&0`, `2>&-`: descriptor duplication or closing writes no file.
  if (DUPLICATE_OPS.has(r.op) && (target === null || /^(?:\d+|-)$/.test(target.text))) return null;
  if (r.op === '<') {
    if (target === null || hasGlob(target))
      return never('redirect-read', `the input redirection ${q(r.raw)} needs one literal file`, USE.jail);
    return pathFinding(target.text, target.raw);
  }
  if (OUTPUT_OPS.has(r.op)) {
    if (target !== null && DISCARD.has(target.text) && !hasGlob(target)) return null;
    return never('redirect-write', `the output redirection ${q(r.raw)} writes a file from the shell`, USE.write);
  }
  if (r.op === '<>')
    return never('redirect-write', `${q(r.raw)} opens a file for reading and writing (creating it)`, USE.write);
  return never('redirect-write', `the redirection ${q(r.raw)} is not one ws_shell knows to be read-only`, USE.write);
}
