/**
 * The path jail. Every path a model gives passes through `resolvePath` before any backend
 * sees it: lexical rules first (absolute paths, traversal, encodings, control and format
 * characters, Windows aliases, lengths), then a physical walk that resolves every symlink
 * against the real root, then the `.slmcode/` privilege boundary on both the spelled and the
 * resolved path.
 *
 * Paths that another layer reads differently from the jail are refused, each with why and what
 * to write instead: a first segment `~…` (a shell expands it to a home directory), `..` right
 * after a symlink (the kernel resolves the link first, so `..` climbs out of its target), a
 * name whose confusable skeleton is `.slmcode` or `.git`, and, in names being written, the
 * characters Windows forbids (`* ? | < > "`, and `:` everywhere). Reading an existing file
 * whose name has such a character is harmless and allowed; writing one is what the rules stop.
 * A name over NAME_MAX_BYTES or a path over PATH_MAX_BYTES is refused on every backend, the
 * same message whether the backend would have failed (Node: ENAMETOOLONG) or not (memory).
 */
import { skeletons } from './confusables.ts';
import { gitDirHolding } from './git-dirs.ts';
import { walk, type JailOp } from './jail-walk.ts';
import type { Workspace } from './workspace.ts';

export type { JailOp } from './jail-walk.ts';

export type JailResult =
  | {
      readonly ok: true;
      /** The physical path inside the root ('' = the root), every symlink resolved. */
      readonly path: string;
      /** The path as the model spelled it, normalized (used in messages). */
      readonly display: string;
    }
  | { readonly ok: false; readonly text: string; readonly rule: string };

export const HARNESS_DIR = '.slmcode';
export const SCRATCH_DIR = 'scratch';
/** The longest file or directory name, in UTF-8 bytes: NAME_MAX on Linux and macOS, and Windows' 255 UTF-16 units are at least as many. */
export const NAME_MAX_BYTES = 255;
/** The longest absolute path, root included, in UTF-8 bytes: Linux's PATH_MAX (4096) less the terminating NUL. */
export const PATH_MAX_BYTES = 4095;
/** The characters Windows forbids in a name, besides the colon (refused everywhere) and the controls. */
const WINDOWS_FORBIDDEN = /[*?|<>"]/;
/** The names whose look-alikes are refused: the harness directory and git's. */
const PROTECTED_NAMES: ReadonlySet<string> = new Set([HARNESS_DIR, '.git']);

const DEVICE_NAMES = new Set([
  'con',
  'prn',
  'aux',
  'nul',
  ...[...'0123456789¹²³'].flatMap((d) => [`com${d}`, `lpt${d}`]),
]);

function refuse(rule: string, text: string): JailResult {
  return { ok: false, rule, text };
}

/** The spec's refusal for writes under `.slmcode/`. */
function harnessRefusal(display: string): string {
  return (
    `write refused — ${display} is harness control state, not project source.\n` +
    `Files under .slmcode/ (hooks.json, config.yaml, pending/, checkpoints/) configure the\n` +
    `harness itself and are never edited by tools.\n` +
    `If you need scratch space, write under .slmcode/scratch/ instead.`
  );
}

/**
 * Characters a path may never hold: C0/C1 controls, DEL, Unicode format (Cf) characters such
 * as zero-width and bidi marks, the line and paragraph separators (U+2028, U+2029: a listing
 * would show one name as two lines), and the other default-ignorable code points (the
 * combining grapheme joiner, variation selectors, Hangul fillers), which render as nothing.
 */
const FORBIDDEN_CHAR = /[\u0000-\u001f\u007f-\u009f\p{Cf}\p{Zl}\p{Zp}\p{Default_Ignorable_Code_Point}]/u;

const utf8Bytes = (s: string): number => new TextEncoder().encode(s).length;

/** A long name shortened for a message: its first 40 characters. */
function shortName(seg: string): string {
  const chars = [...seg];
  return JSON.stringify(chars.length > 40 ? `${chars.slice(0, 40).join('')}…` : seg);
}

function describeChar(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

interface Lexical {
  readonly segments: string[];
  /** Each prefix a `..` climbed out of (its last segment the one `..` undid), for the symlink check. */
  readonly climbs: string[][];
}

/** Lexical checks and normalization. Returns the normalized segments or a refusal. */
function lexical(input: string, op: JailOp, root: string): Lexical | JailResult {
  const shown = JSON.stringify(input.length > 200 ? `${input.slice(0, 200)}…` : input);
  if (input.trim() === '' && op === 'write') {
    return refuse(
      'empty',
      `path refused — the path is empty. Give a file path relative to the project root, e.g. "src/index.js".`,
    );
  }
  const bad = FORBIDDEN_CHAR.exec(input);
  if (bad) {
    return refuse(
      'control-char',
      `path refused — ${shown} contains the invisible or control character ${describeChar(bad[0])}. Retype the path with plain characters; use ws_list or ws_glob to see the real names.`,
    );
  }
  if (input.includes('\\')) {
    return refuse(
      'backslash',
      `path refused — ${shown} contains a backslash. Use forward slashes, relative to the project root: "src/app.js".`,
    );
  }
  if (input.startsWith('/')) {
    return refuse(
      'absolute',
      `path refused — ${shown} is an absolute path. Paths are relative to the project root: write "src/index.js", not "/ws/src/index.js". Use ws_list to see the tree.`,
    );
  }
  if (/^[A-Za-z]:/.test(input)) {
    return refuse(
      'drive',
      `path refused — ${shown} starts with a drive letter. Paths are relative to the project root, with forward slashes.`,
    );
  }
  if (/%[0-9A-Fa-f]{2}/.test(input)) {
    return refuse(
      'percent-encoding',
      `path refused — ${shown} contains a percent-encoded character. Write the path as plain text, not URL-encoded.`,
    );
  }
  if (input.includes(':')) {
    return refuse(
      'colon',
      `path refused — ${shown} contains ":" (drive or stream syntax). File names here may not contain a colon.`,
    );
  }
  if (input.normalize('NFC') !== input) {
    return refuse(
      'unicode-form',
      `path refused — ${shown} is not in Unicode NFC form. Retype it as ${JSON.stringify(input.normalize('NFC'))}.`,
    );
  }

  const segments: string[] = [];
  const climbs: string[][] = [];
  const parts = input.split('/');
  const first = parts.find((p) => p !== '' && p !== '.');
  if (op === 'write' && first?.startsWith('~')) {
    const rest = parts.slice(parts.indexOf(first) + 1).join('/');
    return refuse(
      'tilde',
      `path refused — ${shown} starts with "~", which a shell expands to a home directory, so a command would reach another file than this tool. ` +
        `Paths are relative to the project root${rest ? `: write ${JSON.stringify(rest)}` : ''}, or choose a name that does not start with "~".`,
    );
  }
  for (const seg of parts) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segments.length === 0) {
        return refuse(
          'escape',
          `path refused — ${shown} leads outside the project root. Only files inside the workspace can be used; ws_list or ws_glob show what is there.`,
        );
      }
      climbs.push([...segments]);
      segments.pop();
      continue;
    }
    const problem = segmentProblem(seg, op);
    if (problem) return refuse(problem.rule, `path refused — ${shown}: ${problem.text}`);
    segments.push(seg);
  }
  if (segments.length === 0 && op === 'write') {
    return refuse(
      'root',
      `path refused — ${shown} is the project root itself. Name a file inside it, e.g. "notes.md".`,
    );
  }
  const tooLong = pathTooLong(root, segments, shown);
  return tooLong ?? { segments, climbs };
}

/** The refusal for a path longer than PATH_MAX_BYTES once the root is put in front, or null. */
function pathTooLong(root: string, segments: readonly string[], shown: string): JailResult | null {
  const bytes = utf8Bytes(`${root.replace(/\/+$/, '')}/${segments.join('/')}`);
  if (bytes <= PATH_MAX_BYTES) return null;
  return refuse(
    'path-too-long',
    `path refused — ${shown} is ${bytes.toLocaleString('en')} bytes long with the workspace root in front, over the system's limit of ${PATH_MAX_BYTES.toLocaleString('en')} bytes. Use a shorter path: fewer or shorter directory names.`,
  );
}

function segmentProblem(seg: string, op: JailOp): { rule: string; text: string } | null {
  const bytes = utf8Bytes(seg);
  if (bytes > NAME_MAX_BYTES) {
    return {
      rule: 'name-too-long',
      text: `the name ${shortName(seg)} is ${bytes.toLocaleString('en')} bytes long, over the ${NAME_MAX_BYTES}-byte limit filesystems set for one name. Choose a shorter name.`,
    };
  }
  if (/[ .]$/.test(seg)) {
    return {
      rule: 'trailing-dot-space',
      text: `the name ${JSON.stringify(seg)} ends with a dot or a space, which some filesystems drop (making it an alias of another name). Remove it.`,
    };
  }
  if (seg.startsWith('-')) {
    return {
      rule: 'leading-dash',
      text: `the name ${JSON.stringify(seg)} starts with "-", which commands would read as an option. Choose a name that starts with a letter, digit, "_" or ".".`,
    };
  }
  const base = seg.toLowerCase().split('.')[0]!.trimEnd();
  if (DEVICE_NAMES.has(base)) {
    return {
      rule: 'device-name',
      text: `${JSON.stringify(seg)} is a reserved device name on Windows (${base.toUpperCase()}), with or without an extension. Choose another name.`,
    };
  }
  // Plain ASCII case variants (.GIT, .SlmCode) are left to the boundary rules, which name them.
  const looksLike = lookNames(seg).find((s) => PROTECTED_NAMES.has(s));
  if (looksLike && !PROTECTED_NAMES.has(seg.toLowerCase())) {
    return {
      rule: 'confusable',
      text: `${JSON.stringify(seg)} is a look-alike spelling of ${looksLike}. Use plain ASCII names.`,
    };
  }
  const short = SHORT_NAME_ALIAS.exec(seg);
  if (short) {
    return {
      rule: 'confusable',
      text: `${JSON.stringify(seg)} is the Windows short-name (8.3) alias of ${short[1]!.toLowerCase() === 'git' ? '.git' : '.slmcode'}, the same directory on such a filesystem. Choose another name.`,
    };
  }
  const windows = op === 'write' ? WINDOWS_FORBIDDEN.exec(seg) : null;
  if (windows) {
    return {
      rule: 'windows-char',
      text: `the name ${JSON.stringify(seg)} contains ${JSON.stringify(windows[0])}, which Windows does not allow in file names (and a shell reads * ? | < > as patterns, pipes and redirections). Choose a name without * ? | < > " :.`,
    };
  }
  return null;
}

/** How a name looks: its fold's confusable skeletons (so `.gіt` with a Cyrillic і is `.git`). */
function lookNames(seg: string): readonly string[] {
  return skeletons(seg.replace(/[ .]+$/, ''));
}

/** NTFS short names of `.git` and `.slmcode` (the dot dropped, six characters, `~N`). */
const SHORT_NAME_ALIAS = /^(git|slmcod)~\d+$/i;

/**
 * Git's own state is never written by tools: a `.git/config` with `core.fsmonitor` or a hook
 * would turn a free `git status` (or an approved commit) into arbitrary code. Any `.git`
 * segment counts, so a nested repository is covered too.
 */
function gitState(segments: readonly string[]): boolean {
  return segments.some((s) => lookNames(s).includes('.git'));
}

function gitRefusal(display: string): string {
  return (
    `write refused — ${display} is inside .git/, git's own state, not project source. ` +
    `Tools never write there (a hook or config there would run commands). Change project files with ws_write/ws_edit; read git with git_status and git_diff.`
  );
}

/** The `.slmcode/` boundary: writable only strictly below `.slmcode/scratch/`, spelled exactly. */
function privileged(segments: readonly string[]): boolean {
  const first = segments[0];
  if (first === undefined || !lookNames(first).includes(HARNESS_DIR)) return false;
  if (first !== HARNESS_DIR) return true; // a case, compatibility or look-alike spelling of the harness dir
  return !(segments[1] === SCRATCH_DIR && segments.length >= 3);
}

/**
 * Which protected area a write to these normalized segments reaches: `.slmcode/` outside
 * `scratch/` (harness control state) or a `.git` directory at any depth; null for neither. The
 * shell policy applies the same boundary to the paths a command writes.
 */
export function protectedArea(segments: readonly string[]): 'harness' | 'git-state' | null {
  if (privileged(segments)) return 'harness';
  return gitState(segments) ? 'git-state' : null;
}

/**
 * The refusal for a `..` that climbs out of a symlink (`prefix`'s last segment), or null. The
 * kernel resolves the link before it applies `..`, so `link/..` is the parent of the link's
 * target, while the jail (and the model) read it as the directory holding the link.
 */
async function climbedLink(
  ws: Workspace,
  prefix: readonly string[],
  shown: string,
  display: string,
): Promise<JailResult | null> {
  if (!ws.supportsSymlinks) return null;
  const dir = await walk(ws, prefix.slice(0, -1), 'read', shown);
  if (!dir.ok) return refuse(dir.rule, dir.text);
  const link = [...dir.segments, prefix[prefix.length - 1]!].join('/');
  const st = await ws.lstat(link);
  if (st?.type !== 'symlink') return null;
  const target = await ws.readlink(link);
  return refuse(
    'dotdot-after-symlink',
    `path refused — ${shown} uses ".." right after the symlink ${prefix.join('/')} (→ ${target}). The system resolves the link first, so ".." there is the parent of ${target}, ` +
      `not the directory the link is in, and a command would reach another file than this tool. Write the path without "..": ${JSON.stringify(display)} if you mean the file beside the link.`,
  );
}

/**
 * Jails one path. Reads may name the root ('' or '.'); writes must name something inside it,
 * outside `.slmcode/` (except strictly below `.slmcode/scratch/`) and outside git's state — any
 * `.git`, and any git directory a `.git` file names (git-dirs.ts) — checked on both the spelled
 * and the physically resolved path.
 */
export async function resolvePath(ws: Workspace, input: string, op: JailOp): Promise<JailResult> {
  const lexed = lexical(input, op, ws.root);
  if (!('segments' in lexed)) return lexed;
  const lex = lexed.segments;
  const display = lex.join('/') || '.';
  if (op === 'write' && privileged(lex)) return refuse('harness', harnessRefusal(display));
  if (op === 'write' && gitState(lex)) return refuse('git-state', gitRefusal(display));
  const shown = JSON.stringify(input);
  for (const climb of lexed.climbs) {
    const problem = await climbedLink(ws, climb, shown, display);
    if (problem) return problem;
  }
  const walked = await walk(ws, lex, op, shown);
  if (!walked.ok) return refuse(walked.rule, walked.text);
  const tooLong = pathTooLong(ws.root, walked.segments, shown);
  if (tooLong) return tooLong;
  if (op === 'write' && walked.segments.length === 0) {
    return refuse(
      'root',
      `path refused — ${JSON.stringify(input)} resolves to the project root itself. Name a file inside it.`,
    );
  }
  if (op === 'write' && privileged(walked.segments)) {
    return refuse('harness', harnessRefusal(`${display} (→ ${walked.segments.join('/')})`));
  }
  if (op === 'write' && gitState(walked.segments)) {
    return refuse('git-state', gitRefusal(`${display} (→ ${walked.segments.join('/')})`));
  }
  const named = op === 'write' ? await gitDirHolding(ws, walked.segments.join('/')) : undefined;
  if (named) {
    return refuse('git-state', gitRefusal(`${display} (→ ${named.dir}/, the git directory ${named.by} names)`));
  }
  return { ok: true, path: walked.segments.join('/'), display };
}
