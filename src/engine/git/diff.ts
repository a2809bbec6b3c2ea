/**
 * Unified diffs in git's format, produced with jsdiff (isomorphic-git has no diff API):
 * `diff --git a/… b/…` headers, `new file mode` / `deleted file mode` / exact-rename blocks,
 * `index abc1234..def5678` lines, three lines of context, hunk headers with git's default
 * function-name context, and binary files named rather than dumped.
 *
 * Two comparisons: the working tree against HEAD (what changed since the last commit,
 * untracked files included as new files — `git add -N . && git diff HEAD`), and the index
 * against HEAD (`git diff --staged`).
 */
import { structuredPatch } from 'diff';
import { decodeText, looksBinary } from '../text.ts';
import { notReadText } from '../file-size.ts';
import { compareFiles, quotePath, type Change } from './changes.ts';
import {
  commitFiles,
  indexFiles,
  readBlobBytes,
  readHead,
  type FileMap,
  type GitBlob,
  type HeadInfo,
  type Repo,
} from './repo.ts';
import { scanWorktree, type WorkFile } from './worktree.ts';

export interface DiffRequest {
  /** Compare the index with HEAD instead of the working tree. */
  readonly staged: boolean;
  /** Only changes at or below this root-relative path ('' = everything). */
  readonly path: string;
}

export interface DiffReport {
  readonly head: HeadInfo;
  readonly changes: readonly Change[];
  /** The unified diff of `changes`; '' when there are none. */
  readonly text: string;
  /** True when the working-tree scan stopped at its entry cap. */
  readonly truncated: boolean;
}

const CONTEXT_LINES = 3;
const NULL_OID = '0000000';
/** Git's function-name context is cut to this many characters. */
const FUNC_CONTEXT_MAX = 80;

function isUnder(path: string, prefix: string): boolean {
  return prefix === '' || path === prefix || path.startsWith(`${prefix}/`);
}

/** Computes the requested diff. Never writes. */
export async function readDiff(repo: Repo, req: DiffRequest): Promise<DiffReport> {
  const head = await readHead(repo);
  const before = await commitFiles(repo, head.commit);
  const index = await indexFiles(repo);
  let after: FileMap = index;
  let truncated = false;
  let workBytes: ReadonlyMap<string, WorkFile> = new Map();
  if (!req.staged) {
    const work = await scanWorktree(repo, index, { keepBytes: true });
    after = work.files;
    workBytes = work.files;
    truncated = work.truncated;
  }
  const changes = compareFiles(before, after, { renames: true }).filter(
    (c) => isUnder(c.path, req.path) || (c.kind === 'renamed' && isUnder(c.from, req.path)),
  );
  const bytesOf = async (path: string, blob: GitBlob, side: 'before' | 'after'): Promise<Uint8Array | Large> => {
    const work = side === 'after' ? workBytes.get(path) : undefined;
    if (work?.tooLarge !== undefined) return { tooLarge: work.tooLarge };
    return work?.bytes ?? readBlobBytes(repo, blob.oid);
  };

  const parts: string[] = [];
  for (const c of changes) parts.push(await formatChange(c, bytesOf));
  return { head, changes, text: parts.join(''), truncated };
}

/** A working-tree file the scan did not read: its size, never its bytes. */
interface Large {
  readonly tooLarge: number;
}

type BytesOf = (path: string, blob: GitBlob, side: 'before' | 'after') => Promise<Uint8Array | Large>;

const isLarge = (b: Uint8Array | Large | null): b is Large => b !== null && !(b instanceof Uint8Array);

/** The line that stands for a diff of a file not read (too large, or past the scan's total), the way git names a binary one. */
function largeLine(name: string, size: number): string {
  return `Large file ${name} differs: ${notReadText(name, size)}; not diffed`;
}

const mode = (m: number): string => m.toString(8);
const abbrev = (oid: string): string => oid.slice(0, 7);

/** One file's section of the diff, ending with a newline. */
async function formatChange(c: Change, bytesOf: BytesOf): Promise<string> {
  const from = c.kind === 'renamed' ? c.from : c.path;
  const lines = [
    `diff --git ${quotePath(`a/${from}`, { quoteSpaces: false })} ${quotePath(`b/${c.path}`, { quoteSpaces: false })}`,
  ];
  let oldBytes: Uint8Array | null = null;
  let newBytes: Uint8Array | Large | null = null;
  switch (c.kind) {
    case 'added':
      newBytes = await bytesOf(c.path, c.after, 'after');
      lines.push(`new file mode ${mode(c.after.mode)}`);
      // A file too large to hash has no blob id to show.
      if (isLarge(newBytes)) return `${[...lines, largeLine(`b/${c.path}`, newBytes.tooLarge)].join('\n')}\n`;
      lines.push(`index ${NULL_OID}..${abbrev(c.after.oid)}`);
      break;
    case 'deleted':
      lines.push(`deleted file mode ${mode(c.before.mode)}`, `index ${abbrev(c.before.oid)}..${NULL_OID}`);
      oldBytes = (await bytesOf(c.path, c.before, 'before')) as Uint8Array;
      break;
    case 'renamed':
      // Exact renames only: the content is the same, so there is no hunk.
      if (c.before.mode !== c.after.mode)
        lines.push(`old mode ${mode(c.before.mode)}`, `new mode ${mode(c.after.mode)}`);
      lines.push(
        'similarity index 100%',
        `rename from ${quotePath(c.from, { quoteSpaces: false })}`,
        `rename to ${quotePath(c.path, { quoteSpaces: false })}`,
      );
      return `${lines.join('\n')}\n`;
    case 'modified':
      newBytes = await bytesOf(c.path, c.after, 'after');
      if (isLarge(newBytes)) {
        if (c.before.mode !== c.after.mode)
          lines.push(`old mode ${mode(c.before.mode)}`, `new mode ${mode(c.after.mode)}`);
        return `${[...lines, largeLine(`b/${c.path}`, newBytes.tooLarge)].join('\n')}\n`;
      }
      if (c.before.mode !== c.after.mode) {
        lines.push(`old mode ${mode(c.before.mode)}`, `new mode ${mode(c.after.mode)}`);
        if (c.before.oid === c.after.oid) return `${lines.join('\n')}\n`;
        lines.push(`index ${abbrev(c.before.oid)}..${abbrev(c.after.oid)}`);
      } else {
        lines.push(`index ${abbrev(c.before.oid)}..${abbrev(c.after.oid)} ${mode(c.after.mode)}`);
      }
      oldBytes = (await bytesOf(c.path, c.before, 'before')) as Uint8Array;
      break;
    default: {
      const never: never = c;
      throw new Error(`formatChange: unhandled change ${JSON.stringify(never)}`);
    }
  }
  const oldName = oldBytes ? `a/${from}` : '/dev/null';
  const newName = newBytes ? `b/${c.path}` : '/dev/null';
  // An empty new or deleted file has nothing to show beyond its header, as in git.
  if ((oldBytes?.length ?? 0) === 0 && (newBytes?.length ?? 0) === 0) return `${lines.join('\n')}\n`;
  if ((oldBytes && looksBinary(oldBytes)) || (newBytes && looksBinary(newBytes))) {
    lines.push(`Binary files ${oldName} and ${newName} differ`);
    return `${lines.join('\n')}\n`;
  }
  lines.push(`--- ${fileLabel(oldName)}`, `+++ ${fileLabel(newName)}`);
  const oldText = oldBytes ? decodeText(oldBytes) : '';
  const newText = newBytes ? decodeText(newBytes) : '';
  lines.push(...hunks(oldText, newText));
  return `${lines.join('\n')}\n`;
}

/** Git ends a ---/+++ name that holds a space with a tab, so patch tools can tell where it stops. */
function fileLabel(name: string): string {
  const quoted = quotePath(name, { quoteSpaces: false });
  return quoted.includes(' ') && !quoted.startsWith('"') ? `${quoted}\t` : quoted;
}

/** The hunks of a text change, with git's `@@ -a,b +c,d @@ context` headers. */
function hunks(oldText: string, newText: string): string[] {
  const patch = structuredPatch('a', 'b', oldText, newText, undefined, undefined, { context: CONTEXT_LINES });
  const oldLines = oldText.split('\n');
  const out: string[] = [];
  for (const h of patch.hunks) {
    const func = funcContext(oldLines, h.oldStart - 1);
    out.push(
      `@@ -${range(h.oldStart, h.oldLines)} +${range(h.newStart, h.newLines)} @@${func ? ` ${func}` : ''}`,
      ...h.lines,
    );
  }
  return out;
}

/** A hunk range: `start,count`, `start` alone for one line, and the start one lower for an empty range. */
function range(start: number, count: number): string {
  if (count === 0) return `${start - 1},0`;
  return count === 1 ? String(start) : `${start},${count}`;
}

/**
 * Git's default function-name context: the nearest line above the hunk (in the old file) that
 * starts with a letter, `_` or `$`, cut to 80 characters and stripped of trailing whitespace.
 */
function funcContext(oldLines: readonly string[], hunkStart: number): string {
  for (let i = hunkStart - 1; i >= 0; i--) {
    const line = oldLines[i] ?? '';
    if (/^[A-Za-z_$]/.test(line)) return line.slice(0, FUNC_CONTEXT_MAX).trimEnd();
  }
  return '';
}
