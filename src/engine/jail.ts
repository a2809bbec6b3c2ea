/**
 * The path jail. Every path a model gives passes through `resolvePath` before any backend
 * sees it: lexical rules first (absolute paths, traversal, encodings, control and format
 * characters, Windows aliases), then a physical walk that resolves every symlink against the
 * real root, then the `.slmcode/` privilege boundary on both the spelled and the resolved path.
 */
import type { Workspace } from './workspace.ts';

export type JailOp = 'read' | 'write';

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
const MAX_LINK_HOPS = 40;

const DEVICE_NAMES = new Set([
  'con', 'prn', 'aux', 'nul',
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

/** Characters a path may never hold: C0/C1 controls, DEL, and Unicode format (Cf) characters such as zero-width and bidi marks. */
const FORBIDDEN_CHAR = /[\u0000-\u001f\u007f-\u009f\p{Cf}]/u;

function describeChar(ch: string): string {
  return `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** Lexical checks and normalization. Returns the normalized segments or a refusal. */
function lexical(input: string, op: JailOp): string[] | JailResult {
  const shown = JSON.stringify(input);
  if (input.trim() === '' && op === 'write') {
    return refuse('empty', `path refused — the path is empty. Give a file path relative to the project root, e.g. "src/index.js".`);
  }
  const bad = FORBIDDEN_CHAR.exec(input);
  if (bad) {
    return refuse(
      'control-char',
      `path refused — ${shown} contains the invisible or control character ${describeChar(bad[0])}. Retype the path with plain characters; use ws_list or ws_glob to see the real names.`,
    );
  }
  if (input.includes('\\')) {
    return refuse('backslash', `path refused — ${shown} contains a backslash. Use forward slashes, relative to the project root: "src/app.js".`);
  }
  if (input.startsWith('/')) {
    return refuse(
      'absolute',
      `path refused — ${shown} is an absolute path. Paths are relative to the project root: write "src/index.js", not "/ws/src/index.js". Use ws_list to see the tree.`,
    );
  }
  if (/^[A-Za-z]:/.test(input)) {
    return refuse('drive', `path refused — ${shown} starts with a drive letter. Paths are relative to the project root, with forward slashes.`);
  }
  if (/%[0-9A-Fa-f]{2}/.test(input)) {
    return refuse('percent-encoding', `path refused — ${shown} contains a percent-encoded character. Write the path as plain text, not URL-encoded.`);
  }
  if (input.includes(':')) {
    return refuse('colon', `path refused — ${shown} contains ":" (drive or stream syntax). File names here may not contain a colon.`);
  }
  if (input.normalize('NFC') !== input) {
    return refuse('unicode-form', `path refused — ${shown} is not in Unicode NFC form. Retype it as ${JSON.stringify(input.normalize('NFC'))}.`);
  }

  const segments: string[] = [];
  for (const seg of input.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (segments.length === 0) {
        return refuse(
          'escape',
          `path refused — ${shown} leads outside the project root. Only files inside the workspace can be used; ws_list or ws_glob show what is there.`,
        );
      }
      segments.pop();
      continue;
    }
    const problem = segmentProblem(seg);
    if (problem) return refuse(problem.rule, `path refused — ${shown}: ${problem.text}`);
    segments.push(seg);
  }
  if (segments.length === 0 && op === 'write') {
    return refuse('root', `path refused — ${shown} is the project root itself. Name a file inside it, e.g. "notes.md".`);
  }
  return segments;
}

function segmentProblem(seg: string): { rule: string; text: string } | null {
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
  if (seg.normalize('NFKC') !== seg && foldName(seg) === HARNESS_DIR) {
    return { rule: 'confusable', text: `${JSON.stringify(seg)} is a look-alike spelling of ${HARNESS_DIR}. Use plain ASCII names.` };
  }
  return null;
}

/** How a name compares on case-insensitive, compatibility-folding filesystems. */
function foldName(seg: string): string {
  return seg.normalize('NFKC').toLowerCase().replace(/[ .]+$/, '');
}

/**
 * Git's own state is never written by tools: a `.git/config` with `core.fsmonitor` or a hook
 * would turn a free `git status` (or an approved commit) into arbitrary code. Any `.git`
 * segment counts, so a nested repository is covered too.
 */
function gitState(segments: readonly string[]): boolean {
  return segments.some((s) => foldName(s) === '.git');
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
  if (first === undefined || foldName(first) !== HARNESS_DIR) return false;
  if (first !== HARNESS_DIR) return true; // a case or compatibility alias of the harness dir
  return !(segments[1] === SCRATCH_DIR && segments.length >= 3);
}

/** Converts an absolute link target to root-relative segments, or null when it is outside the root. */
function insideRoot(root: string, target: string): string[] | null {
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

type Walk = { ok: true; segments: string[] } | { ok: false; rule: string; text: string };

/**
 * Resolves symlinks physically, component by component. When `op` is a write, a symlink in the
 * last component is refused rather than followed (O_NOFOLLOW semantics).
 */
async function walk(ws: Workspace, segments: readonly string[], op: JailOp, shown: string): Promise<Walk> {
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
      return { ok: false, rule: 'symlink-loop', text: `path refused — ${shown} runs into a symlink loop at ${candidate}. Use ws_list to see the real files.` };
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

/**
 * Jails one path. Reads may name the root ('' or '.'); writes must name something inside it
 * and outside `.slmcode/` (except strictly below `.slmcode/scratch/`), checked on both the
 * spelled and the physically resolved path.
 */
export async function resolvePath(ws: Workspace, input: string, op: JailOp): Promise<JailResult> {
  const lex = lexical(input, op);
  if (!Array.isArray(lex)) return lex;
  const display = lex.join('/') || '.';
  if (op === 'write' && privileged(lex)) return refuse('harness', harnessRefusal(display));
  if (op === 'write' && gitState(lex)) return refuse('git-state', gitRefusal(display));
  const walked = await walk(ws, lex, op, JSON.stringify(input));
  if (!walked.ok) return refuse(walked.rule, walked.text);
  if (op === 'write' && walked.segments.length === 0) {
    return refuse('root', `path refused — ${JSON.stringify(input)} resolves to the project root itself. Name a file inside it.`);
  }
  if (op === 'write' && privileged(walked.segments)) {
    return refuse('harness', harnessRefusal(`${display} (→ ${walked.segments.join('/')})`));
  }
  if (op === 'write' && gitState(walked.segments)) {
    return refuse('git-state', gitRefusal(`${display} (→ ${walked.segments.join('/')})`));
  }
  return { ok: true, path: walked.segments.join('/'), display };
}
