/**
 * git_status on the memory workspace: one row per rule of the short format (columns, renames,
 * untracked collapsing, ignores, quoting, branch line) and per message (no repository, clean
 * tree). Every row also proves the call left `.git` byte-for-byte unchanged.
 */
import { describe, expect, it } from 'vitest';
import git from 'isomorphic-git';
import type { Engine } from '../engine.ts';
import type { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { GIT_WORKDIR, gitFs } from '../git/fs-adapter.ts';
import { NOT_A_REPO } from '../git/repo.ts';
import { CLEAN_TEXT, STATUS_LEGEND } from './git_status.ts';
import { committedWorkspace, snapshotGitDir } from '../../../tests/support/git.ts';
import type { Seed } from '../../../tests/support/file-tools.ts';

const SEED: Seed = {
  'a.js': 'export const a = 1;\n',
  'src/util.js': 'export function util() {\n  return 1;\n}\n',
  'src/lib/deep.js': 'export const deep = true;\n',
  '.gitignore': '*.log\nbuild/\n',
};

const enc = (s: string) => new TextEncoder().encode(s);

interface Row {
  name: string;
  seed?: Seed;
  /** false: the workspace has no commit (a fresh `git init`); 'none': no repository at all. */
  repo?: 'committed' | 'unborn' | 'none';
  act?: (engine: Engine, ws: MemoryWorkspace) => Promise<void>;
  ok: boolean;
  /** The exact text before the legend line (or the whole text for failures). */
  text: string;
}

async function call(engine: Engine, tool: string, args: object): Promise<void> {
  const r = await engine.call(tool, args);
  if (!r.ok) throw new Error(`${tool} failed in the setup: ${r.text}`);
}

const rows: Row[] = [
  { name: 'no .git directory: the explicit message', repo: 'none', ok: false, text: NOT_A_REPO },
  {
    name: 'a .git file (worktree link) is not followed',
    repo: 'none',
    act: async (_e, ws) => ws.writeFile('.git', enc('gitdir: /elsewhere/.git/worktrees/x\n')),
    ok: false,
    text: 'not a git repository here: .git is a file (a worktree or submodule link), and only a .git directory at the project root is read — use ws_list/ws_glob to see files',
  },
  { name: 'a clean tree says so', ok: true, text: `## main\n${CLEAN_TEXT}` },
  {
    name: 'a modified file: second column M',
    act: (_e, ws) => ws.writeFile('a.js', enc('export const a = 2;\n')),
    ok: true,
    text: '## main\n M a.js',
  },
  {
    name: 'a deleted file: second column D',
    act: (e) => call(e, 'ws_delete', { path: 'src/util.js' }),
    ok: true,
    text: '## main\n D src/util.js',
  },
  {
    name: 'new files: ?? by path; a new directory is shown once as dir/',
    act: async (_e, ws) => {
      await ws.writeFile('new.txt', enc('n\n'));
      await ws.writeFile('src/extra.js', enc('x\n'));
      await ws.writeFile('docs/guide/intro.md', enc('# hi\n'));
      await ws.writeFile('docs/readme.md', enc('# r\n'));
    },
    ok: true,
    text: '## main\n?? docs/\n?? new.txt\n?? src/extra.js',
  },
  {
    name: 'ws_mv of a tracked file is a staged rename (R in the first column)',
    act: (e) => call(e, 'ws_mv', { from: 'a.js', to: 'lib/a.js' }),
    ok: true,
    text: '## main\nR  a.js -> lib/a.js',
  },
  {
    name: 'a renamed file edited afterwards: RM',
    act: async (e, ws) => {
      await call(e, 'ws_mv', { from: 'a.js', to: 'b.js' });
      await ws.writeFile('b.js', enc('export const a = 3;\n'));
    },
    ok: true,
    text: '## main\nRM a.js -> b.js',
  },
  {
    name: 'ws_mv of a directory renames every tracked file in it',
    act: (e) => call(e, 'ws_mv', { from: 'src', to: 'source' }),
    ok: true,
    text: '## main\nR  src/lib/deep.js -> source/lib/deep.js\nR  src/util.js -> source/util.js',
  },
  {
    name: 'a rename without ws_mv is a deletion plus an untracked file, as in git',
    act: async (_e, ws) => ws.rename('a.js', 'z.js'),
    ok: true,
    text: '## main\n D a.js\n?? z.js',
  },
  {
    name: '.gitignore is honoured for files and directories',
    act: async (_e, ws) => {
      await ws.writeFile('debug.log', enc('x\n'));
      await ws.writeFile('build/out.js', enc('x\n'));
      await ws.writeFile('src/trace.log', enc('x\n'));
      await ws.writeFile('keep.txt', enc('x\n'));
    },
    ok: true,
    text: '## main\n?? keep.txt',
  },
  {
    name: 'a path with a space is quoted',
    act: async (_e, ws) => ws.writeFile('my notes.txt', enc('x\n')),
    ok: true,
    text: '## main\n?? "my notes.txt"',
  },
  {
    name: 'a changed binary file is listed like any other',
    seed: { ...SEED, 'img.bin': new Uint8Array([0, 1, 2, 3]) },
    act: async (_e, ws) => ws.writeFile('img.bin', new Uint8Array([0, 1, 2, 4])),
    ok: true,
    text: '## main\n M img.bin',
  },
  {
    name: 'an unchanged rewrite (same bytes) is not a change',
    act: async (_e, ws) => ws.writeFile('a.js', enc('export const a = 1;\n')),
    ok: true,
    text: `## main\n${CLEAN_TEXT}`,
  },
  {
    name: 'no commit yet: the branch line says so and everything is untracked',
    repo: 'unborn',
    ok: true,
    text: '## No commits yet on main\n?? .gitignore\n?? a.js\n?? src/',
  },
];

describe('git_status (memory workspace)', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { ws, engine } = await committedWorkspace(row.seed ?? SEED, (row.repo ?? 'committed') === 'committed');
    if (row.repo === 'unborn')
      await git.init({ fs: gitFs(ws, { readOnly: false }), dir: GIT_WORKDIR, defaultBranch: 'main' });
    await row.act?.(engine, ws);
    const before = await snapshotGitDir(ws);
    const r = await engine.call('git_status', {});
    expect(r.ok, r.text).toBe(row.ok);
    if (!row.ok || row.text.endsWith(CLEAN_TEXT)) expect(r.text).toBe(row.text);
    else expect(r.text).toBe(`${row.text}\n${STATUS_LEGEND}`);
    expect(await snapshotGitDir(ws)).toEqual(before);
  });

  it('a detached HEAD is shown as git shows it', async () => {
    const { ws, engine } = await committedWorkspace(SEED);
    const fs = gitFs(ws, { readOnly: false });
    const oid = await git.resolveRef({ fs, dir: GIT_WORKDIR, ref: 'HEAD' });
    await ws.writeFile('.git/HEAD', enc(`${oid}\n`));
    expect((await engine.call('git_status', {})).text.split('\n')[0]).toBe('## HEAD (no branch)');
  });

  it('a staged new file that was then deleted from the tree: AD', async () => {
    const { ws, engine } = await committedWorkspace(SEED);
    await ws.writeFile('n.js', enc('n\n'));
    await git.add({ fs: gitFs(ws, { readOnly: false }), dir: GIT_WORKDIR, filepath: 'n.js' });
    await ws.remove('n.js');
    expect((await engine.call('git_status', {})).text.split('\n')[1]).toBe('AD n.js');
  });
});
