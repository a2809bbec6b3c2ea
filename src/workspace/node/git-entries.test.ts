/**
 * gitStatePaths against git itself: in workspaces holding repositories whose `.git` is a
 * directory, a `gitdir:` file (relative or absolute, naming a repository inside or outside the
 * root) or a linked worktree's file (whose commondir may be the only way to its repository), every repository directory git resolves for a work tree
 * (`--absolute-git-dir` and `--git-common-dir`) that lies inside the root is one of the paths the
 * sandbox mounts read-only, or below one.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { gitDirsNamed, surveyWorkspace } from '../../engine/git-dirs.ts';
import { gitStatePaths, isInside, nestedGitEntries } from './git-entries.ts';
import { UNSANDBOXED } from './host-sandbox.ts';
import { NodeWorkspace } from './node-workspace.ts';

/** Where a repository's git directory is kept, for one work tree. */
type Kept = 'inside' | 'inside-relative' | 'outside' | 'own';

const WORK_TREES = ['', 'a', 'a/b', 'c', '.slmcode/scratch/r'] as const;
const STORES = ['store/x', '.hidden/y', 'a/z', 'c/d/e'] as const;

const git = (cwd: string, ...args: string[]) =>
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd, encoding: 'utf8', stdio: 'pipe' });

/** The git directory and common directory git resolves for the work tree `dir`, physical. */
function resolvedByGit(dir: string): string[] {
  const [gitDir = '', common = ''] = git(dir, 'rev-parse', '--absolute-git-dir', '--git-common-dir').trim().split('\n');
  return [gitDir, common].map((p) => realpathSync(resolve(dir, p)));
}

const layout = fc.uniqueArray(
  fc.record({
    tree: fc.constantFrom(...WORK_TREES),
    kept: fc.constantFrom<Kept>('inside', 'inside-relative', 'outside', 'own'),
    store: fc.constantFrom(...STORES),
    worktree: fc.boolean(),
    // With a linked worktree: the main work tree's `.git` file removed, so only the worktree's
    // gitdir names the repository, through its commondir.
    dropMain: fc.boolean(),
  }),
  { minLength: 1, maxLength: 3, selector: (r) => r.tree },
);

describe('gitStatePaths: every repository git resolves inside the root is mounted read-only', () => {
  it('agrees with git rev-parse on generated layouts, and the file tools name the same repositories', async () => {
    await fc.assert(
      fc.asyncProperty(layout, async (repos) => {
        const root = realpathSync(mkdtempSync(join(tmpdir(), 'slm-gitstate-')));
        const outside = realpathSync(mkdtempSync(join(tmpdir(), 'slm-gitstate-out-')));
        try {
          const trees: string[] = [];
          repos.forEach((r, i) => {
            const tree = join(root, r.tree);
            mkdirSync(tree, { recursive: true });
            const store = r.kept === 'outside' ? join(outside, String(i)) : join(root, `${r.store}${i}`);
            if (r.kept === 'own') git(tree, 'init', '-q');
            else {
              mkdirSync(join(store, '..'), { recursive: true });
              git(tree, 'init', '-q', `--separate-git-dir=${store}`);
              if (r.kept === 'inside-relative') writeFileSync(join(tree, '.git'), `gitdir: ${relative(tree, store)}\n`);
            }
            trees.push(tree);
            if (r.worktree) {
              git(tree, 'commit', '-q', '--allow-empty', '-m', 'start');
              const linked = join(root, `linked${i}`);
              git(tree, 'worktree', 'add', '-q', linked);
              trees.push(linked);
              if (r.dropMain && r.kept !== 'own') {
                rmSync(join(tree, '.git'));
                trees.splice(trees.indexOf(tree), 1);
              }
            }
          });
          const { paths, cut } = gitStatePaths(root);
          expect(cut).toBe(false);
          // The file tools' reading of the same pointers (over the Workspace) names exactly the
          // repositories the sandbox mounts, besides the `.git` entries themselves.
          const ws = await NodeWorkspace.open(root, { sandbox: UNSANDBOXED });
          const gitEntries = new Set(['.git', ...nestedGitEntries(root).found].map((r) => join(root, r)));
          const notEntry = (p: string) => !gitEntries.has(p);
          const named = (await gitDirsNamed(ws, await surveyWorkspace(ws))).map((n) => join(root, n.dir));
          expect(new Set(named.filter(notEntry))).toEqual(new Set(paths.filter(notEntry)));
          for (const tree of trees)
            for (const dir of resolvedByGit(tree))
              if (isInside(dir, root)) expect(paths.some((p) => isInside(dir, p))).toBe(true);
          // Nothing outside the root is ever named (only the workspace is mounted).
          for (const p of paths) expect(isInside(p, root) && p !== root).toBe(true);
        } finally {
          rmSync(root, { recursive: true, force: true });
          rmSync(outside, { recursive: true, force: true });
        }
      }),
      { numRuns: 12 },
    );
  });
});
