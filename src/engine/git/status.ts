/**
 * `git status --short --branch`, computed over the workspace: the first column compares the
 * index with HEAD (staged), the second the working tree with the index (not staged), untracked
 * files come last as `??`, a wholly untracked directory as `dir/`. Staged exact renames show as
 * `R  old -> new`; as in git, a rename that was not staged is a deletion plus an untracked file.
 */
import { compareFiles, quotePath, type Change } from './changes.ts';
import { commitFiles, indexFiles, readHead, type HeadInfo, type Repo } from './repo.ts';
import { collapseUntracked, compareGitPaths, scanWorktree } from './worktree.ts';

/** One status letter: unchanged, modified, added, deleted, renamed. */
export type StatusCode = ' ' | 'M' | 'A' | 'D' | 'R';

export interface StatusEntry {
  /** Index vs HEAD. */
  readonly x: StatusCode;
  /** Working tree vs index. */
  readonly y: StatusCode;
  readonly path: string;
  /** The old path of a staged rename. */
  readonly from?: string;
}

export interface StatusReport {
  readonly head: HeadInfo;
  /** Tracked changes, sorted by path. */
  readonly entries: readonly StatusEntry[];
  /** Untracked files and wholly untracked directories (`dir/`), sorted. */
  readonly untracked: readonly string[];
  /** True when the working-tree scan stopped at its entry cap. */
  readonly truncated: boolean;
}

function letter(kind: Change['kind']): StatusCode {
  switch (kind) {
    case 'added':
      return 'A';
    case 'deleted':
      return 'D';
    case 'modified':
      return 'M';
    case 'renamed':
      return 'R';
    default: {
      const never: never = kind;
      throw new Error(`status letter: unhandled change ${String(never)}`);
    }
  }
}

/** Reads HEAD, the index and the working tree and compares them. Never writes. */
export async function readStatus(repo: Repo): Promise<StatusReport> {
  const head = await readHead(repo);
  const headFiles = await commitFiles(repo, head.commit);
  const index = await indexFiles(repo);
  const work = await scanWorktree(repo, index, { keepBytes: false });

  const byPath = new Map<string, { x: StatusCode; y: StatusCode; from?: string }>();
  for (const c of compareFiles(headFiles, index, { renames: true })) {
    byPath.set(c.path, { x: letter(c.kind), y: ' ', ...(c.kind === 'renamed' ? { from: c.from } : {}) });
  }
  // Only tracked paths have a second column; new files are the untracked list.
  for (const c of compareFiles(index, work.files, { renames: false, paths: new Set(index.keys()) })) {
    byPath.set(c.path, { ...(byPath.get(c.path) ?? { x: ' ' }), y: letter(c.kind) });
  }
  const entries = [...byPath]
    .map(([path, e]): StatusEntry => ({ x: e.x, y: e.y, path, ...(e.from !== undefined ? { from: e.from } : {}) }))
    .sort((a, b) => compareGitPaths(a.path, b.path));
  return { head, entries, untracked: collapseUntracked(work.untracked, index.keys()), truncated: work.truncated };
}

/** The `## …` line of `git status --short --branch`. */
export function branchLine(head: HeadInfo): string {
  if (head.branch === null) return '## HEAD (no branch)';
  if (head.commit === null) return `## No commits yet on ${head.branch}`;
  return `## ${head.branch}`;
}

/** The report in git's exact short format (branch line, tracked changes, then `??` lines). */
export function formatShortStatus(report: StatusReport): string {
  const q = (p: string) => quotePath(p, { quoteSpaces: true });
  const lines = [branchLine(report.head)];
  for (const e of report.entries)
    lines.push(`${e.x}${e.y} ${e.from !== undefined ? `${q(e.from)} -> ` : ''}${q(e.path)}`);
  for (const u of report.untracked) lines.push(`?? ${q(u)}`);
  return lines.join('\n');
}

/** True when nothing is staged, changed or untracked. */
export function isClean(report: StatusReport): boolean {
  return report.entries.length === 0 && report.untracked.length === 0;
}
