/**
 * IgnoreRules against isomorphic-git's `isIgnored`, the answers the scan gave before: on generated
 * trees with nested `.gitignore` files and an exclude file (ignored directories, negations,
 * anchored and directory-only patterns, rules relative to their directory), every file and
 * directory gets the same answer. And the work is linear: a scan of a tree 600 directories deep
 * reads each `.gitignore` once, where asking isomorphic-git per entry reads them all again for
 * every entry (about 180,000 reads).
 */
import fc from 'fast-check';
import git from 'isomorphic-git';
import { describe, expect, it } from 'vitest';
import '../../../tests/support/fast-check-seed.ts';
import { seedWorkspace, type Seed } from '../../../tests/support/file-tools.ts';
import { committedWorkspace, engineOver } from '../../../tests/support/git.ts';
import type { Workspace } from '../workspace.ts';
import { GIT_WORKDIR, gitFs } from './fs-adapter.ts';
import { IgnoreRules } from './ignore-rules.ts';

/** Directory names, file names and the patterns drawn for .gitignore lines: each kind of rule once. */
const DIRS = ['a', 'b', 'c.log'];
const FILES = ['f', 'g.log', 'keep.txt'];
const PATTERNS = [
  'a',
  'b/',
  '/a',
  '*.log',
  '!g.log',
  '!*.log',
  'f',
  '!f',
  'a/f',
  'b/**',
  '!b/',
  '**/c.log',
  '!a',
  '*',
  '!keep.txt',
  'a/*',
  '/b/f',
  '!/a/f',
  '# a comment',
  '',
];

const rulesText = fc.array(fc.constantFrom(...PATTERNS), { maxLength: 4 }).map((lines) => lines.join('\n'));
const filePath = fc
  .tuple(fc.array(fc.constantFrom(...DIRS), { maxLength: 3 }), fc.constantFrom(...FILES))
  .map(([dirs, name]) => [...dirs, name].join('/'));

/** A tree: its files, a .gitignore in some of its directories, and the exclude file. */
const tree = fc
  .record({
    files: fc.uniqueArray(filePath, { minLength: 1, maxLength: 10 }),
    ignores: fc.array(rulesText, { minLength: 6, maxLength: 6 }),
    exclude: rulesText,
  })
  .map(({ files, ignores, exclude }) => {
    const dirs = [
      ...new Set(
        files.flatMap((f) =>
          f
            .split('/')
            .slice(0, -1)
            .map((_, i, s) => s.slice(0, i + 1).join('/')),
        ),
      ),
    ];
    const seed: Seed = { '.git/info/exclude': exclude };
    for (const f of files) seed[f] = 'x\n';
    // Each directory (the root first) takes one of the drawn rule sets, in turn.
    ['', ...dirs].forEach((dir, i) => {
      const text = ignores[i % ignores.length]!;
      if (text !== '') seed[dir === '' ? '.gitignore' : `${dir}/.gitignore`] = text;
    });
    return { seed, dirs: dirs.sort() };
  });

describe('IgnoreRules', () => {
  it("answers as isomorphic-git's isIgnored for every file and directory of generated trees", async () => {
    await fc.assert(
      fc.asyncProperty(tree, async ({ seed, dirs }) => {
        const ws = await seedWorkspace(seed);
        const fs = gitFs(ws, { readOnly: true });
        const rules = new IgnoreRules(ws);
        const asked = [
          ...dirs.map((path) => ({ path, isDir: true })),
          ...Object.keys(seed)
            .filter((p) => !p.startsWith('.git/'))
            .map((path) => ({ path, isDir: false })),
        ];
        for (const { path, isDir } of asked) {
          const expected = await git.isIgnored({ fs, dir: GIT_WORKDIR, filepath: isDir ? `${path}/` : path });
          expect({ path, isDir, ignored: await rules.ignored(path, isDir) }).toEqual({
            path,
            isDir,
            ignored: expected,
          });
        }
      }),
      { numRuns: 300 },
    );
  });

  it("reads a directory's rules only when an entry below it is asked about, and once", async () => {
    const inner = await seedWorkspace({ 'a/b/f': 'x', 'a/.gitignore': 'f\n', 'c/g': 'y' });
    const reads: string[] = [];
    const ws = { ...inner, readFile: (p: string) => (reads.push(p), inner.readFile(p)) } as unknown as Workspace;
    const rules = new IgnoreRules(ws);
    expect(reads).toEqual([]);
    expect(await rules.ignored('a/b/f', false)).toBe(true);
    expect(reads).toEqual(['.git/info/exclude', '.gitignore', 'a/.gitignore', 'a/b/.gitignore']);
    expect(await rules.ignored('a/b', true)).toBe(false);
    expect(await rules.ignored('c/g', false)).toBe(false);
    expect(reads.slice(4)).toEqual(['c/.gitignore']);
  });

  it('git_status and git_diff on a tree 600 directories deep read each .gitignore once', async () => {
    const DEPTH = 600;
    const { ws: inner } = await committedWorkspace({ 'a.txt': 'a\n', '.gitignore': '*.log\n' });
    const deep = `${Array.from({ length: DEPTH }, () => 'd').join('/')}`;
    await inner.writeFile(`${deep}/f`, new TextEncoder().encode('x\n'));
    await inner.writeFile(`${deep}/skip.log`, new TextEncoder().encode('x\n'));
    const reads: string[] = [];
    const ws = new Proxy(inner, {
      get(target, prop) {
        const value = Reflect.get(target, prop, target) as unknown;
        if (prop === 'readFile')
          return (path: string) => {
            reads.push(path);
            return target.readFile(path);
          };
        return typeof value === 'function' ? (value as (...a: unknown[]) => unknown).bind(target) : value;
      },
    }) as Workspace;
    const engine = engineOver(ws);

    const status = await engine.call('git_status', {});
    expect(status.ok).toBe(true);
    expect(status.text).toContain('?? d/');
    // The root's and each of the 600 directories' once for the rules; the root's, which is
    // tracked, once more for its blob id.
    const ignoreReads = () => reads.filter((p) => p === '.gitignore' || p.endsWith('/.gitignore'));
    expect(new Set(ignoreReads()).size).toBe(DEPTH + 1);
    expect(ignoreReads().length).toBe(DEPTH + 2);

    reads.length = 0;
    const diff = await engine.call('git_diff', {});
    expect(diff.ok).toBe(true);
    expect(ignoreReads().length).toBe(DEPTH + 2);
  }, 20_000);
});
