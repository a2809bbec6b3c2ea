/**
 * ws_mv in a git repository: like `git mv`, the move of tracked files is recorded in the index
 * (same blob ids, nothing else in `.git` touched), so git_status shows a rename; untracked files
 * and workspaces without a repository get the plain move and the plain message.
 */
import { describe, expect, it } from 'vitest';
import type { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { indexFiles, openRepo } from '../git/repo.ts';
import { committedWorkspace, snapshotGitDir } from '../../../tests/support/git.ts';
import type { Seed } from '../../../tests/support/file-tools.ts';

const SEED: Seed = { 'a.js': 'a\n', 'src/one.js': '1\n', 'src/two.js': '2\n' };
const enc = (s: string) => new TextEncoder().encode(s);

interface Row {
  name: string;
  repo: 'committed' | 'none' | 'git-file';
  before?: (ws: MemoryWorkspace) => Promise<void>;
  args: { from: string; to: string };
  /** The exact result text. */
  text: string;
  /** git_status's change lines afterwards (repositories only). */
  status?: string[];
  /** The index afterwards: path → path in the seed commit whose blob it must hold. */
  index?: Record<string, string>;
}

const rows: Row[] = [
  {
    name: 'a tracked file: rename recorded in the index',
    repo: 'committed',
    args: { from: 'a.js', to: 'lib/a.js' },
    text: 'moved file a.js to lib/a.js (git: recorded as a rename in the index, like git mv — git_status shows R  a.js -> lib/a.js)',
    status: ['R  a.js -> lib/a.js'],
    index: { 'lib/a.js': 'a.js', 'src/one.js': 'src/one.js', 'src/two.js': 'src/two.js' },
  },
  {
    name: 'a tracked directory: every file in it',
    repo: 'committed',
    args: { from: 'src', to: 'pkg/src' },
    text: 'moved directory src to pkg/src (git: 2 tracked files recorded as renames in the index, like git mv)',
    status: ['R  src/one.js -> pkg/src/one.js', 'R  src/two.js -> pkg/src/two.js'],
    index: { 'a.js': 'a.js', 'pkg/src/one.js': 'src/one.js', 'pkg/src/two.js': 'src/two.js' },
  },
  {
    name: 'an edit made before the move stays unstaged, as with git mv',
    repo: 'committed',
    before: (ws) => ws.writeFile('a.js', enc('changed\n')),
    args: { from: 'a.js', to: 'b.js' },
    text: 'moved file a.js to b.js (git: recorded as a rename in the index, like git mv — git_status shows R  a.js -> b.js)',
    status: ['RM a.js -> b.js'],
    index: { 'b.js': 'a.js', 'src/one.js': 'src/one.js', 'src/two.js': 'src/two.js' },
  },
  {
    name: 'an untracked file: a plain move, the index unchanged',
    repo: 'committed',
    before: (ws) => ws.writeFile('new.txt', enc('n\n')),
    args: { from: 'new.txt', to: 'docs/new.txt' },
    text: 'moved file new.txt to docs/new.txt',
    status: ['?? docs/'],
    index: { 'a.js': 'a.js', 'src/one.js': 'src/one.js', 'src/two.js': 'src/two.js' },
  },
  {
    name: 'no repository: a plain move',
    repo: 'none',
    args: { from: 'a.js', to: 'b.js' },
    text: 'moved file a.js to b.js',
  },
  {
    name: 'a .git file: the move stands and the message says the index was not updated',
    repo: 'git-file',
    args: { from: 'a.js', to: 'b.js' },
    text:
      'moved file a.js to b.js (git: the index could not be updated — not a git repository here: .git is a file (a worktree or submodule link), ' +
      'and only a .git directory at the project root is read — use ws_list/ws_glob to see files; git_status will show a.js deleted and b.js untracked)',
  },
];

describe('ws_mv with git', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { ws, engine } = await committedWorkspace(SEED, row.repo === 'committed');
    if (row.repo === 'git-file') await ws.writeFile('.git', enc('gitdir: ../elsewhere\n'));
    await row.before?.(ws);
    const opened = await openRepo(ws, { readOnly: true });
    const seedIndex = opened.ok ? await indexFiles(opened.repo) : new Map();
    const gitBefore = await snapshotGitDir(ws);

    const r = await engine.call('ws_mv', row.args);
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toBe(row.text);

    const gitAfter = await snapshotGitDir(ws);
    // Only the index may change: no object, ref or log is written.
    gitBefore.delete('.git/index');
    gitAfter.delete('.git/index');
    expect(gitAfter).toEqual(gitBefore);
    if (row.repo === 'none') expect(await ws.lstat('.git')).toBeNull();

    if (row.status) {
      const status = (await engine.call('git_status', {})).text.split('\n');
      expect(status.slice(1, -1)).toEqual(row.status);
    }
    if (row.index) {
      // A fresh open: isomorphic-git caches the index per cache object, and this one is stale now.
      const reopened = await openRepo(ws, { readOnly: true });
      if (!reopened.ok) throw new Error(reopened.text);
      const index = await indexFiles(reopened.repo);
      const expected = Object.fromEntries(Object.entries(row.index).map(([p, src]) => [p, seedIndex.get(src)?.oid]));
      expect(Object.fromEntries([...index].map(([p, b]) => [p, b.oid]))).toEqual(expected);
    }
  });
});
