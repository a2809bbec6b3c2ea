/**
 * git_diff on the memory workspace: one row per rule of the format (modified, new, deleted,
 * empty, binary, renamed, no final newline, function context, hunk ranges) and per message (no
 * repository, no changes, no staged changes, a path without changes, a jailed path). Every row
 * also proves the call left `.git` byte-for-byte unchanged.
 */
import { describe, expect, it } from 'vitest';
import type { Engine } from '../engine.ts';
import type { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { NOT_A_REPO } from '../git/repo.ts';
import { blobId } from '../git/repo.ts';
import { committedWorkspace, snapshotGitDir } from '../../../tests/support/git.ts';
import type { Seed } from '../../../tests/support/file-tools.ts';

const FN = [
  'function total(items) {',
  '  let sum = 0;',
  '  for (const x of items) {',
  '    sum += x;',
  '  }',
  '  return sum;',
  '}',
  '',
].join('\n');
const SEED: Seed = {
  'a.js': 'one\ntwo\nthree\n',
  'src/total.js': FN,
  'empty.txt': '',
  'img.bin': new Uint8Array([0, 1, 2, 3]),
  '.gitignore': '*.log\n',
};

const enc = (s: string) => new TextEncoder().encode(s);
const abbrev = async (text: string | Uint8Array) =>
  (await blobId(typeof text === 'string' ? enc(text) : text)).slice(0, 7);

interface Row {
  name: string;
  repo?: 'committed' | 'none';
  act?: (engine: Engine, ws: MemoryWorkspace) => Promise<void>;
  args?: Record<string, unknown>;
  ok: boolean;
  /** The exact text (computed, since blob ids appear in it), or a pattern for another module's message. */
  text: () => Promise<string | RegExp>;
}

async function mv(engine: Engine, from: string, to: string): Promise<void> {
  const r = await engine.call('ws_mv', { from, to });
  if (!r.ok) throw new Error(r.text);
}

const ONE_FILE = '[1 file with changes (working tree vs HEAD, new files included)]';

const rows: Row[] = [
  { name: 'no repository: the explicit message', repo: 'none', ok: false, text: async () => NOT_A_REPO },
  {
    name: 'no changes',
    ok: true,
    text: async () => 'no changes: the working tree matches HEAD (the last commit), new files included.',
  },
  {
    name: 'no staged changes',
    args: { staged: true },
    act: async (_e, ws) => ws.writeFile('a.js', enc('ONE\n')),
    ok: true,
    text: async () =>
      'no staged changes: the index matches HEAD (the last commit). git_diff without "staged" shows the working tree\'s changes.',
  },
  {
    name: 'a modified file: index line, a/ b/ headers, one-line ranges without a count',
    act: async (_e, ws) => ws.writeFile('a.js', enc('one\nTWO\nthree\n')),
    ok: true,
    text: async () =>
      `diff --git a/a.js b/a.js\nindex ${await abbrev('one\ntwo\nthree\n')}..${await abbrev('one\nTWO\nthree\n')} 100644\n` +
      '--- a/a.js\n+++ b/a.js\n@@ -1,3 +1,3 @@\n one\n-two\n+TWO\n three\n' +
      ONE_FILE,
  },
  {
    name: "a hunk below a function line carries git's function context",
    act: async (_e, ws) => ws.writeFile('src/total.js', enc(FN.replace('  return sum;', '  return sum * 1;'))),
    ok: true,
    text: async () =>
      `diff --git a/src/total.js b/src/total.js\nindex ${await abbrev(FN)}..${await abbrev(FN.replace('  return sum;', '  return sum * 1;'))} 100644\n` +
      '--- a/src/total.js\n+++ b/src/total.js\n@@ -3,5 +3,5 @@ function total(items) {\n   for (const x of items) {\n     sum += x;\n   }\n-  return sum;\n+  return sum * 1;\n }\n' +
      ONE_FILE,
  },
  {
    name: 'a new (untracked) file is shown as a new file',
    act: async (_e, ws) => ws.writeFile('n.txt', enc('hello\n')),
    ok: true,
    text: async () =>
      `diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..${await abbrev('hello\n')}\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+hello\n${ONE_FILE}`,
  },
  {
    name: 'a deleted file',
    act: async (_e, ws) => ws.remove('a.js'),
    ok: true,
    text: async () =>
      `diff --git a/a.js b/a.js\ndeleted file mode 100644\nindex ${await abbrev('one\ntwo\nthree\n')}..0000000\n--- a/a.js\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n${ONE_FILE}`,
  },
  {
    name: 'a new empty file has a header only',
    act: async (_e, ws) => ws.writeFile('e2.txt', new Uint8Array()),
    ok: true,
    text: async () => `diff --git a/e2.txt b/e2.txt\nnew file mode 100644\nindex 0000000..e69de29\n${ONE_FILE}`,
  },
  {
    name: 'a binary file is named, not dumped',
    act: async (_e, ws) => ws.writeFile('img.bin', new Uint8Array([0, 1, 2, 4])),
    ok: true,
    text: async () =>
      `diff --git a/img.bin b/img.bin\nindex ${await abbrev(new Uint8Array([0, 1, 2, 3]))}..${await abbrev(new Uint8Array([0, 1, 2, 4]))} 100644\n` +
      `Binary files a/img.bin and b/img.bin differ\n${ONE_FILE}`,
  },
  {
    name: 'a missing final newline is marked',
    act: async (_e, ws) => ws.writeFile('a.js', enc('one\ntwo\nthree')),
    ok: true,
    text: async () =>
      `diff --git a/a.js b/a.js\nindex ${await abbrev('one\ntwo\nthree\n')}..${await abbrev('one\ntwo\nthree')} 100644\n` +
      '--- a/a.js\n+++ b/a.js\n@@ -1,3 +1,3 @@\n one\n two\n-three\n+three\n\\ No newline at end of file\n' +
      ONE_FILE,
  },
  {
    name: 'a ws_mv rename is an exact rename block',
    act: (e) => mv(e, 'a.js', 'b.js'),
    ok: true,
    text: async () => `diff --git a/a.js b/b.js\nsimilarity index 100%\nrename from a.js\nrename to b.js\n${ONE_FILE}`,
  },
  {
    name: 'staged: the index against HEAD (the ws_mv rename only, not the later edit)',
    act: async (e, ws) => {
      await mv(e, 'a.js', 'b.js');
      await ws.writeFile('b.js', enc('changed\n'));
    },
    args: { staged: true },
    ok: true,
    text: async () =>
      'diff --git a/a.js b/b.js\nsimilarity index 100%\nrename from a.js\nrename to b.js\n[1 file with staged changes (index vs HEAD)]',
  },
  {
    name: 'path narrows the diff to one file',
    act: async (_e, ws) => {
      await ws.writeFile('a.js', enc('one\n'));
      await ws.writeFile('n.txt', enc('x\n'));
    },
    args: { path: 'n.txt' },
    ok: true,
    text: async () =>
      `diff --git a/n.txt b/n.txt\nnew file mode 100644\nindex 0000000..${await abbrev('x\n')}\n--- /dev/null\n+++ b/n.txt\n@@ -0,0 +1 @@\n+x\n[1 file with changes (working tree vs HEAD, new files included) in n.txt]`,
  },
  {
    name: 'path may name a file that was deleted',
    act: async (_e, ws) => ws.remove('a.js'),
    args: { path: 'a.js' },
    ok: true,
    text: async () =>
      `diff --git a/a.js b/a.js\ndeleted file mode 100644\nindex ${await abbrev('one\ntwo\nthree\n')}..0000000\n--- a/a.js\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n` +
      '[1 file with changes (working tree vs HEAD, new files included) in a.js]',
  },
  {
    name: 'a path without changes says so and points at git_status',
    act: async (_e, ws) => ws.writeFile('a.js', enc('one\n')),
    args: { path: 'src' },
    ok: true,
    text: async () =>
      'no changes in src: the working tree matches HEAD (the last commit), new files included. git_status lists what changed elsewhere.',
  },
  {
    name: 'ignored files are not diffed',
    act: async (_e, ws) => ws.writeFile('debug.log', enc('noise\n')),
    ok: true,
    text: async () => 'no changes: the working tree matches HEAD (the last commit), new files included.',
  },
  {
    name: 'the path is jailed',
    args: { path: '../outside' },
    ok: false,
    text: async () => /^path refused — "\.\.\/outside"/,
  },
];

describe('git_diff (memory workspace)', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { ws, engine } = await committedWorkspace(SEED, (row.repo ?? 'committed') === 'committed');
    await row.act?.(engine, ws);
    const before = await snapshotGitDir(ws);
    const r = await engine.call('git_diff', row.args ?? {});
    expect(r.ok, r.text).toBe(row.ok);
    const want = await row.text();
    if (want instanceof RegExp) expect(r.text).toMatch(want);
    else expect(r.text).toBe(want);
    expect(await snapshotGitDir(ws)).toEqual(before);
  });

  it('a long diff is capped by the engine, head and tail kept', async () => {
    const { ws, engine } = await committedWorkspace(SEED);
    const big = Array.from({ length: 2000 }, (_, i) => `line ${i}`).join('\n');
    await ws.writeFile('big.txt', enc(`${big}\n`));
    const r = await engine.call('git_diff', {});
    expect(r.text.length).toBeLessThanOrEqual(engine.settings.max_tool_chars);
    expect(r.text).toMatch(/^diff --git a\/big\.txt b\/big\.txt\n/);
    expect(r.text).toContain('[output truncated:');
    expect(r.notes.map((n) => n.kind)).toContain('truncated');
  });
});
