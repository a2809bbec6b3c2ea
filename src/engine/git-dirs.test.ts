/**
 * The git directories `.git` files name are git's state for the file tools as `.git/` is: on
 * generated layouts (a `.git` file in a work tree naming a repository elsewhere in the root,
 * relative or absolute, shaped as a repository or not yet, with or without a `commondir`), every
 * writing tool refuses every file in the named repository and its common directory with the
 * `.git/` refusal, and changes nothing; files beside them stay writable. And git's own test for
 * a directory it takes for a repository, and what a command made, one row per rule.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Engine } from './engine.ts';
import { gitShaped, madeGitDirs, surveyOf, type GitMarker } from './git-dirs.ts';
import { wsEdit } from './tools/ws_edit.ts';
import { wsPatch } from './tools/ws_patch.ts';
import type { WalkEntry } from './walk.ts';
import { FILE_TOOLS, seedWorkspace, snapshotFs, type Seed } from '../../tests/support/file-tools.ts';

const TREES = ['', 'a', 'a/b', 'c'] as const;
const STORES = ['.repo', 'store/x', 'a/z', 'c/d/e'] as const;
const INSIDE = ['config', 'hooks/pre-commit', 'HEAD', 'info/attributes'] as const;

const layout = fc.record({
  tree: fc.constantFrom(...TREES),
  store: fc.constantFrom(...STORES),
  absolute: fc.boolean(),
  shaped: fc.boolean(),
  common: fc.boolean(),
  inCommon: fc.boolean(),
  file: fc.constantFrom(...INSIDE),
  tool: fc.constantFrom('ws_write', 'ws_edit', 'ws_patch', 'ws_replace_lines', 'ws_mv', 'ws_delete'),
});

const rel = (from: string, to: string): string => {
  const f = from ? from.split('/') : [];
  const t = to.split('/');
  return [...f.map(() => '..'), ...t].join('/');
};

/** The call a tool makes to change `path` (which the seed holds as "old\n"). */
function call(tool: string, path: string): [string, Record<string, unknown>] {
  switch (tool) {
    case 'ws_write':
      return [tool, { path, content: '[core]\n\tfsmonitor = sh evil.sh\n' }];
    case 'ws_edit':
      return [tool, { path, old_str: 'old', new_str: 'new' }];
    case 'ws_patch':
      return [tool, { path, patch: '-old\n+new\n' }];
    case 'ws_replace_lines':
      return [tool, { path, start: 1, end: 1, new: 'new', hash: '0000' }];
    case 'ws_mv':
      return [tool, { from: 'evil.txt', to: path }];
    default:
      return [tool, { path }];
  }
}

describe('the file tools refuse writes into a git directory a .git file names', () => {
  it('every writing tool, every file of the named repository and its commondir: refused with the .git/ refusal, nothing changed', async () => {
    await fc.assert(
      fc.asyncProperty(layout, async (l) => {
        const store = l.store;
        const gitFile = l.tree ? `${l.tree}/.git` : '.git';
        const pointer = l.absolute ? `/ws/${store}` : rel(l.tree, store);
        const common = 'shared/common';
        const seed: Seed = { [gitFile]: `gitdir: ${pointer}\n`, 'evil.txt': 'x\n', 'src/app.js': 'old\n' };
        if (l.shaped)
          Object.assign(seed, {
            [`${store}/HEAD`]: 'ref: refs/heads/main\n',
            [`${store}/objects/`]: '',
            [`${store}/refs/`]: '',
          });
        if (l.common) seed[`${store}/commondir`] = `${rel(store, common)}\n`;
        const target = `${l.common && l.inCommon ? common : store}/${l.file}`;
        seed[target] = 'old\n';
        const ws = await seedWorkspace(seed);
        const engine = new Engine({
          workspace: ws,
          tools: [...FILE_TOOLS, wsEdit, wsPatch],
          settings: { loop_guard: false },
        });
        await engine.call('ws_read', { path: target });
        const before = await snapshotFs(ws);
        const [tool, args] = call(l.tool, target);
        const r = await engine.call(tool, args);
        expect(r.ok, r.text).toBe(false);
        expect(r.text).toContain(`write refused — ${target} (→ `);
        expect(r.text).toContain(`the git directory ${gitFile} names) is inside .git/, git's own state`);
        expect(await snapshotFs(ws)).toEqual(before);
        // Project files beside it are written as ever.
        await engine.call('ws_read', { path: 'src/app.js' });
        expect((await engine.call('ws_write', { path: 'src/app.js', content: 'new\n' })).ok).toBe(true);
      }),
      { numRuns: 60 },
    );
  });

  it('a directory moved to where the named repository would be (its parent not there yet) is refused', async () => {
    const ws = await seedWorkspace({
      'w/.git': 'gitdir: ../store/x\n',
      'staging/x/config': '[core]\n\tfsmonitor = sh evil.sh\n',
    });
    const engine = new Engine({ workspace: ws, tools: FILE_TOOLS, settings: { loop_guard: false } });
    const before = await snapshotFs(ws);
    const r = await engine.call('ws_mv', { from: 'staging', to: 'store' });
    expect(r.ok, r.text).toBe(false);
    expect(r.text).toContain('write refused — store (→ store/x/, the git directory w/.git names)');
    expect(await snapshotFs(ws)).toEqual(before);
    expect((await engine.call('ws_mv', { from: 'staging', to: 'elsewhere' })).ok).toBe(true);
  });

  it('a .git file naming a directory outside the root, or the root itself, protects nothing else', async () => {
    for (const pointer of ['/elsewhere/repo', '../../outside', '.']) {
      const ws = await seedWorkspace({ '.git': `gitdir: ${pointer}\n`, 'a.txt': 'a\n' });
      const engine = new Engine({ workspace: ws, tools: FILE_TOOLS, settings: { loop_guard: false } });
      const r = await engine.call('ws_write', { path: 'b.txt', content: 'b\n' });
      expect(r.ok, `${pointer}: ${r.text}`).toBe(true);
    }
  });
});

const marks = (...m: GitMarker[]) => new Set(m);

describe("git's test for a repository directory (setup.c is_git_directory)", () => {
  it.each([
    [[], false],
    [['HEAD'], false],
    [['HEAD', 'objects'], false],
    [['objects', 'refs'], false],
    [['HEAD', 'objects', 'refs'], true],
    [['HEAD', 'commondir'], true],
    [['commondir', 'objects', 'refs'], false],
  ] as [GitMarker[], boolean][])('%j → %s', (m, expected) => {
    expect(gitShaped(marks(...m))).toBe(expected);
  });

  it('a marker counts only with its type (HEAD a file or link, objects/ and refs/ directories)', () => {
    const survey = surveyOf(
      [
        { path: 'x', type: 'dir' },
        { path: 'x/HEAD', type: 'dir' },
        { path: 'x/objects', type: 'dir' },
        { path: 'x/refs', type: 'file' },
        { path: 'y', type: 'dir' },
        { path: 'y/HEAD', type: 'symlink' },
        { path: 'y/commondir', type: 'file' },
        // Names an object's prototype has are no markers (nor a crash).
        { path: 'z', type: 'dir' },
        { path: 'z/constructor', type: 'file' },
        { path: 'z/__proto__', type: 'dir' },
        { path: 'z/toString', type: 'file' },
      ],
      false,
    );
    expect(gitShaped(survey.markers.get('x'))).toBe(false);
    expect(gitShaped(survey.markers.get('y'))).toBe(true);
    expect(survey.markers.has('z')).toBe(false);
  });
});

/** A survey of directories with the given markers (and the directories alone). */
function survey(dirs: Record<string, GitMarker[]>, cut = false) {
  const entries: WalkEntry[] = [];
  for (const [dir, ms] of Object.entries(dirs)) {
    if (dir) entries.push({ path: dir, type: 'dir' });
    for (const m of ms)
      entries.push({ path: dir ? `${dir}/${m}` : m, type: m === 'HEAD' || m === 'commondir' ? 'file' : 'dir' });
  }
  return surveyOf(entries, cut);
}

const BARE: GitMarker[] = ['HEAD', 'objects', 'refs'];

describe('the git directories a command made', () => {
  it.each([
    ['a new bare repository is named whole', {}, { sub: BARE }, [], ['sub']],
    [
      'one inside a new directory: the new directory at its top is not, only the repository',
      { a: [] },
      { a: [], 'a/b': [], 'a/b/r': BARE },
      [],
      ['a/b/r'],
    ],
    ['a repository there before is left', { sub: BARE }, { sub: BARE }, [], []],
    [
      'a directory that was there and became one: the markers added',
      { sub: ['objects'] },
      { sub: BARE },
      [],
      ['sub/HEAD', 'sub/refs'],
    ],
    ['the root made into one: its added markers', { '': [] }, { '': BARE }, [], ['HEAD', 'objects', 'refs']],
    ['a linked shape (HEAD and commondir)', {}, { w: ['HEAD', 'commondir'] }, [], ['w']],
    ['one a kept .git file names is left', {}, { store: BARE }, ['store'], []],
    ['half a shape is left', {}, { sub: ['HEAD', 'objects'] }, [], []],
  ] as [string, Record<string, GitMarker[]>, Record<string, GitMarker[]>, string[], string[]][])(
    '%s',
    (_n, before, after, kept, expected) => {
      expect(madeGitDirs(survey(before), survey({ ...after }), kept)).toEqual(expected);
    },
  );

  it('where the walk before was cut, a directory it did not see is not judged new', () => {
    expect(madeGitDirs(survey({ a: [] }, true), survey({ a: [], sub: BARE }))).toEqual([]);
  });
});
