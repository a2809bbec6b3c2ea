/**
 * The jail's one promise, checked with fast-check: whatever path the model writes — built from
 * the pieces every rule is about (traversal, the fixture's symlinks in and out, `~`, the
 * harness and git directories and their look-alikes, Windows characters, encodings, over-long
 * names) — a writing tool changes nothing outside the root, nothing under `.git/` (or a
 * look-alike of it) and nothing under `.slmcode/` but `.slmcode/scratch/`. Each run starts
 * from the path fixture in a memory workspace and compares a snapshot of the whole
 * filesystem, `/outside` included, before and after.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { skeletons } from './confusables.ts';
import { Engine } from './engine.ts';
import { pathFixtureWorkspace } from '../../tests/support/path-fixture.ts';
import { FILE_TOOLS, snapshotFs } from '../../tests/support/file-tools.ts';

const ROOT = '/ws';

/** Names that pass every rule, so that many generated paths do write. */
const PLAIN = [
  'src',
  'utils',
  'new',
  'x.txt',
  'index.ts',
  'README.md',
  '.slmcode',
  'scratch',
  'link-in',
  'scratch-link',
  '..',
];
const TRICKY = [
  '..',
  '.',
  '',
  '~',
  '~root',
  'src',
  'utils',
  'new',
  'x.txt',
  'index.ts',
  'README.md',
  'link-in',
  'link-out',
  'link-rel-out',
  'sl',
  'scratch-link',
  'chain1',
  'loop1',
  'dangling-out',
  'dangling-in',
  'notes-link.md',
  '.slmcode',
  'scratch',
  'hooks.json',
  'escape',
  'out',
  '.git',
  '.GIT',
  'config',
  'hooks',
  '.g\u0456t',
  '.g\u0131t',
  '.\u0455lmcode',
  '\uff0eslmcode',
  '.s1mcode',
  '.slrncode',
  '.git\u200b',
  '.git\u034f',
  'a?b',
  'a*b',
  'a|b',
  'a"b',
  'a:b',
  '%2e%2e',
  '..%2f',
  'con',
  'nul.txt',
  'x.',
  'x ',
  '-rf',
  'a\\b',
  'n'.repeat(256),
  '\u65e5'.repeat(90),
];

const segment = fc.oneof(
  { arbitrary: fc.constantFrom(...PLAIN), weight: 3 },
  { arbitrary: fc.constantFrom(...TRICKY), weight: 1 },
);
const path = fc
  .tuple(fc.constantFrom('', '', '', '/', './', '/ws/'), fc.array(segment, { minLength: 1, maxLength: 5 }))
  .map(([lead, segs]) => lead + segs.join('/'));

/** Where a changed path may be: inside the root, not in a .git (or look-alike), not in .slmcode/ outside scratch/. */
function allowedChange(p: string): boolean {
  if (!p.startsWith(`${ROOT}/`)) return false;
  const segs = p.slice(ROOT.length + 1).split('/');
  const looks = segs.map((s) => skeletons(s.replace(/[ .]+$/, '')));
  if (looks.some((l) => l.includes('.git'))) return false;
  if (looks[0]!.includes('.slmcode')) return segs[0] === '.slmcode' && segs[1] === 'scratch' && segs.length >= 3;
  return true;
}

const WRITES: readonly ((p: string) => [string, Record<string, unknown>])[] = [
  (p) => ['ws_write', { path: p, content: 'generated\n' }],
  (p) => ['ws_mv', { from: 'README.md', to: p }],
  (p) => ['ws_delete', { path: p }],
  (p) => ['ws_replace_lines', { path: p, start: 1, end: 1, new: 'x' }],
];

describe('jail: no generated path writes outside the root or into .git/ or .slmcode/', () => {
  it('holds for every writing tool', async () => {
    // Runs that changed something: the property must not hold only because nothing was written.
    let wrote = 0;
    await fc.assert(
      fc.asyncProperty(path, fc.integer({ min: 0, max: WRITES.length - 1 }), async (p, w) => {
        const ws = await pathFixtureWorkspace();
        const engine = new Engine({
          workspace: ws,
          tools: FILE_TOOLS,
          settings: { loop_guard: false, read_before_edit: false },
        });
        const before = await snapshotFs(ws);
        const [tool, args] = WRITES[w]!(p);
        await engine.call(tool, args);
        const after = await snapshotFs(ws);
        const changed = [...new Set([...before.keys(), ...after.keys()])].filter((k) => before.get(k) !== after.get(k));
        expect(
          changed.filter((k) => !allowedChange(k)),
          `${tool} ${JSON.stringify(args)}`,
        ).toEqual([]);
        if (changed.length > 0) wrote++;
      }),
      { numRuns: 400 },
    );
    expect(wrote).toBeGreaterThan(20);
  });
});
