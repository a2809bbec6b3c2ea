/**
 * git_status and git_diff on the Node workspace against repositories made by the real `git`
 * CLI, compared with git's own output: `git status --short --branch` line for line, and — after
 * `git add -A`, so every change is known to git — `git diff HEAD` (our default: the working
 * tree against HEAD) and `git diff --cached` (our `staged`). One row per situation git's format
 * distinguishes; each row also proves our calls left `.git` unchanged.
 */
import { rmSync, symlinkSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import {
  engineOver,
  hasGitCli,
  removeTmpRepos,
  runGit,
  snapshotGitDir,
  tmpRepo,
  withoutLastLine,
  writeTree,
} from '../support/git.ts';

const FN = (ret: string) =>
  [
    '// helpers',
    'export function total(items) {',
    '  let sum = 0;',
    '  for (const x of items) {',
    '    sum += x;',
    '  }',
    `  return ${ret};`,
    '}',
    '',
  ].join('\n');
const LONG = Array.from({ length: 30 }, (_, i) => `line ${i + 1}`);
const BASE = {
  'README.md': '# demo\n',
  'src/total.js': FN('sum'),
  'src/long.txt': `${LONG.join('\n')}\n`,
  'src/old.js': 'export const old = 1;\n',
  'lib/a.js': 'a\n',
  'lib/b.js': 'b\n',
  'img.bin': new Uint8Array([0, 1, 2, 3, 0, 5]),
  '.gitignore': '*.log\nvendor/\n',
};

interface Row {
  name: string;
  files?: Record<string, string | Uint8Array>;
  /** Symlinks in the first commit: path → target. */
  links?: Record<string, string>;
  commit?: boolean;
  /** Changes made to the repository directory after the first commit. */
  act: (dir: string) => void;
}

const rows: Row[] = [
  { name: 'a clean tree', act: () => {} },
  { name: 'a modified file (function context)', act: (d) => writeFileSync(join(d, 'src/total.js'), FN('sum * 2')) },
  {
    name: 'two hunks in one file',
    act: (d) =>
      writeFileSync(join(d, 'src/long.txt'), `${LONG.map((l, i) => (i === 2 || i === 25 ? `${l}!` : l)).join('\n')}\n`),
  },
  { name: 'a deleted file', act: (d) => unlinkSync(join(d, 'src/old.js')) },
  { name: 'a deleted directory', act: (d) => rmSync(join(d, 'lib'), { recursive: true }) },
  {
    name: 'untracked files, a new directory and a name with a space',
    act: (d) =>
      writeTree(d, {
        'new.txt': 'n\n',
        'src/extra.js': 'x\n',
        'docs/guide/intro.md': '# i\n',
        'docs/a.md': 'a\n',
        'my notes.txt': 'm\n',
      }),
  },
  {
    name: 'a staged new file modified again (AM)',
    act: (d) => {
      writeTree(d, { 'src/new.js': 'one\n' });
      runGit(d, ['add', 'src/new.js']);
      writeTree(d, { 'src/new.js': 'one\ntwo\n' });
    },
  },
  {
    name: 'git mv, then an edit (RM)',
    act: (d) => {
      runGit(d, ['mv', 'src/old.js', 'src/renamed.js']);
      writeTree(d, { 'src/renamed.js': 'export const old = 2;\n' });
    },
  },
  {
    name: 'ignored files and directories; a tracked file inside an ignored directory',
    files: { ...BASE, 'vendor/keep.js': 'k\n' },
    act: (d) =>
      writeTree(d, { 'debug.log': 'x\n', 'src/trace.log': 'x\n', 'vendor/keep.js': 'k2\n', 'vendor/other.js': 'o\n' }),
  },
  {
    name: 'git rm --cached (D in the index, ?? in the tree)',
    act: (d) => runGit(d, ['rm', '-q', '--cached', 'lib/a.js']),
  },
  { name: 'the final newline removed', act: (d) => writeFileSync(join(d, 'README.md'), '# demo') },
  { name: 'a binary file changed', act: (d) => writeFileSync(join(d, 'img.bin'), new Uint8Array([0, 1, 2, 3, 0, 6])) },
  {
    name: 'a new empty file and a new binary file',
    act: (d) => writeTree(d, { 'empty.txt': '', 'new.bin': new Uint8Array([0, 0, 7]) }),
  },
  {
    name: 'a symlink retargeted',
    act: (d) => {
      unlinkSync(join(d, 'link'));
      symlinkSync('lib/b.js', join(d, 'link'));
    },
    links: { link: 'lib/a.js' },
  },
  {
    name: 'packed objects and refs (after git gc), one change',
    act: (d) => {
      runGit(d, ['gc', '-q']);
      writeFileSync(join(d, 'lib/a.js'), 'A\n');
    },
  },
  { name: 'a detached HEAD', act: (d) => runGit(d, ['checkout', '-q', '--detach']) },
  {
    name: 'no commit yet: a staged file and an untracked one',
    commit: false,
    files: { 'a.js': 'a\n', 'b.js': 'b\n' },
    act: (d) => runGit(d, ['add', 'a.js']),
  },
];

const git = hasGitCli();
if (!git) console.warn('real-git comparisons skipped: no `git` binary on PATH');

afterAll(removeTmpRepos);

describe.skipIf(!git)('git_status / git_diff agree with the git CLI (Node workspace)', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const dir = tmpRepo(row.files ?? BASE, { commit: false });
    for (const [path, target] of Object.entries(row.links ?? {})) symlinkSync(target, join(dir, path));
    if (row.commit ?? true) {
      runGit(dir, ['add', '-A']);
      runGit(dir, ['commit', '-q', '-m', 'seed']);
    }
    row.act(dir);
    const ws = await NodeWorkspace.open(dir);
    const engine = engineOver(ws);
    const gitDirBefore = await snapshotGitDir(ws);

    const status = await engine.call('git_status', {});
    expect(status.ok, status.text).toBe(true);
    expect(await snapshotGitDir(ws)).toEqual(gitDirBefore);
    expect(withoutLastLine(status.text)).toBe(runGit(dir, ['status', '--short', '--branch']));

    // Stage everything so git's diffs see what ours see (ours include untracked files).
    runGit(dir, ['add', '-A']);
    const hasHead = row.commit ?? true;
    const expectedWork = runGit(dir, hasHead ? ['diff', 'HEAD'] : ['diff', '--cached']);
    const expectedStaged = runGit(dir, ['diff', '--cached']);
    const stagedBefore = await snapshotGitDir(ws);
    for (const [args, expected] of [
      [{}, expectedWork],
      [{ staged: true }, expectedStaged],
    ] as const) {
      const r = await engine.call('git_diff', args);
      expect(r.ok, r.text).toBe(true);
      if (expected === '') expect(r.text).toMatch(/^no (staged )?changes/);
      else expect(withoutLastLine(r.text)).toBe(expected);
    }
    expect(await snapshotGitDir(ws)).toEqual(stagedBefore);
  });

  it('ws_mv in a real repository: git itself sees a staged rename', async () => {
    const dir = tmpRepo(BASE);
    const engine = engineOver(await NodeWorkspace.open(dir));
    const mv = await engine.call('ws_mv', { from: 'lib', to: 'pkg/lib' });
    expect(mv.ok, mv.text).toBe(true);
    expect(mv.text).toContain('2 tracked files recorded as renames in the index');
    expect(runGit(dir, ['status', '--short'])).toBe('R  lib/a.js -> pkg/lib/a.js\nR  lib/b.js -> pkg/lib/b.js\n');
    expect(runGit(dir, ['diff', '--cached', '--name-status'])).toBe(
      'R100\tlib/a.js\tpkg/lib/a.js\nR100\tlib/b.js\tpkg/lib/b.js\n',
    );
    runGit(dir, ['fsck', '--no-progress']);
  });
});
