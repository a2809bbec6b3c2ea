import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import { createEngine } from '../create.ts';
import type { ToolResult } from '../result.ts';
import type { EngineSettings } from '../settings.ts';
import { decodeText, encodeText } from '../text.ts';
import { RUNG_NOTES } from '../ladder/index.ts';
import { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { MAX_DIAGNOSED_FAILURES } from '../patch/apply.ts';
import { MAX_PATCH_HUNKS, wsPatch } from './ws_patch.ts';
import { wsRead } from './ws_read.ts';
import { GUTTER_NOTE } from './ws_edit.ts';

const PY = 'def foo():\n    x = 1\n    return x\n\ndef bar():\n    y = 2\n    return y\n';
const LONG = `${Array.from({ length: 100 }, (_, i) => `line ${i + 1}`).join('\n')}\n`;

type Files = Record<string, string>;

async function setup(files: Files, settings: Partial<EngineSettings> = {}) {
  const ws = new MemoryWorkspace();
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, encodeText(t));
  const engine = new Engine({ workspace: ws, tools: [wsPatch, wsRead], settings: { loop_guard: false, ...settings } });
  const read = async (p: string): Promise<string | null> =>
    (await ws.lstat(p)) ? decodeText(await ws.readFile(p)) : null;
  return { ws, engine, read };
}

async function snapshot(
  read: (p: string) => Promise<string | null>,
  paths: readonly string[],
): Promise<(string | null)[]> {
  return Promise.all(paths.map(read));
}

const diff = (file: string, body: string): string => `--- a/${file}\n+++ b/${file}\n${body}`;

/** A file of `n` four-line blocks and a diff with one hunk per block, changing its second line. */
function manyHunks(n: number): { text: string; patch: string } {
  const text = Array.from({ length: 4 * n }, (_, i) => `line ${i + 1}`).join('\n') + '\n';
  const hunks = Array.from(
    { length: n },
    (_, h) => `@@ -${4 * h + 2} +${4 * h + 2} @@\n-line ${4 * h + 2}\n+LINE ${4 * h + 2}\n`,
  );
  return { text, patch: diff('big.txt', hunks.join('')) };
}

describe('ws_patch: success, one row per form and report line', () => {
  const rows: {
    name: string;
    files: Files;
    args: Record<string, unknown>;
    text: string;
    after: Files;
    notes?: string[];
  }[] = [
    {
      name: 'unified diff: patched PATH (N hunk(s)) and the hunk anchored exactly',
      files: { 'a.py': PY },
      args: { patch: diff('a.py', '@@ -6,2 +6,2 @@\n     y = 2\n-    return y\n+    return y + 1\n') },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@6..7 exact',
      after: { 'a.py': PY.replace('return y', 'return y + 1') },
      notes: ['checkpoint'],
    },
    {
      name: 'an inexact hunk: its rung on the hunk line, the rung note at the end',
      files: { 'a.py': PY },
      args: { patch: diff('a.py', '@@ -6,2 +6,2 @@\n-  y = 2\n+  y = 3\n   return y\n') },
      text: `patched a.py (1 hunk(s))\nhunk 1: anchored@6..7 indentation-normalized\n${RUNG_NOTES.indent}`,
      after: { 'a.py': PY.replace('y = 2', 'y = 3') },
      notes: ['rung:indent', 'checkpoint'],
    },
    {
      name: 'two hunks: one line each',
      files: { 'a.py': PY },
      args: { patch: diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 10\n@@ -6 +6 @@\n-    y = 2\n+    y = 20\n') },
      text: 'patched a.py (2 hunk(s))\nhunk 1: anchored@2..2 exact\nhunk 2: anchored@6..6 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 10').replace('y = 2', 'y = 20') },
    },
    {
      name: 'a SEARCH/REPLACE block with path',
      files: { 'a.py': PY },
      args: { path: 'a.py', patch: '<<<<<<< SEARCH\n    x = 1\n=======\n    x = 5\n>>>>>>> REPLACE' },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 5') },
    },
    {
      name: 'the block without conflict markers (SEARCH / ======= / REPLACE lines)',
      files: { 'a.py': PY },
      args: { path: 'a.py', patch: 'SEARCH\n    x = 1\n=======\n    x = 6\nREPLACE\n' },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 6') },
    },
    {
      name: 'a bare ======= separator',
      files: { 'a.py': PY },
      args: { path: 'a.py', patch: '    x = 1\n=======\n    x = 7\n' },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 7') },
    },
    {
      name: 'a bare -/+ block: one anchorless hunk',
      files: { 'a.py': PY },
      args: { path: 'a.py', patch: '-    x = 1\n+    x = 8\n' },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 8') },
    },
    {
      name: 'fenced, with prose after: both dropped',
      files: { 'a.py': PY },
      args: { patch: `\`\`\`diff\n${diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 9\n')}\`\`\`\nThis sets x to 9.` },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 9') },
    },
    {
      name: '@@ line beyond the window: found in the whole file, and the report says how far off',
      files: { 'l.txt': LONG },
      args: { patch: diff('l.txt', '@@ -80,1 +80,1 @@\n-line 30\n+LINE 30\n') },
      text: 'patched l.txt (1 hunk(s))\nhunk 1: anchored@30..30 exact (its @@ line 80 is 50 lines off; found by searching the whole file)',
      after: { 'l.txt': LONG.replace('line 30\n', 'LINE 30\n') },
    },
    {
      name: 'a read gutter on every line: stripped, with the spec note',
      files: { 'a.py': PY },
      args: {
        path: 'a.py',
        patch:
          '<<<<<<< SEARCH\n     2|    x = 1\n     3|    return x\n=======\n     2|    x = 2\n     3|    return x\n>>>>>>> REPLACE',
      },
      text: `patched a.py (1 hunk(s))\nhunk 1: anchored@2..3 exact (read gutter stripped)\n${GUTTER_NOTE}`,
      after: { 'a.py': PY.replace('x = 1', 'x = 2') },
      notes: ['gutter-stripped:gutter', 'checkpoint'],
    },
    {
      name: 'a pure insertion @@ -N,0: after line N',
      files: { 'a.py': PY },
      args: { patch: diff('a.py', '@@ -4,0 +5,1 @@\n+# bar follows\n') },
      text: 'patched a.py (1 hunk(s))\nhunk 1: inserted 1 line after line 4',
      after: { 'a.py': PY.replace('\n\ndef bar', '\n\n# bar follows\ndef bar') },
    },
    {
      name: 'two files in one diff: each reported, both written',
      files: { 'a.py': PY, 'b.py': PY },
      args: {
        patch:
          diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 3\n') + diff('b.py', '@@ -6 +6 @@\n-    y = 2\n+    y = 4\n'),
      },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact\npatched b.py (1 hunk(s))\nhunk 1: anchored@6..6 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 3'), 'b.py': PY.replace('y = 2', 'y = 4') },
      notes: ['checkpoint', 'checkpoint'],
    },
    {
      name: '--- /dev/null creates the file',
      files: {},
      args: { patch: '--- /dev/null\n+++ b/src/new.txt\n@@ -0,0 +1,2 @@\n+hello\n+world\n' },
      text: 'created src/new.txt (1 hunk(s))\nhunk 1: inserted 2 lines at the top',
      after: { 'src/new.txt': 'hello\nworld\n' },
    },
    {
      name: 'an empty SEARCH for a missing file creates it',
      files: {},
      args: { path: 'n.txt', patch: '<<<<<<< SEARCH\n=======\nfirst\n>>>>>>> REPLACE' },
      text: 'created n.txt (1 hunk(s))\nhunk 1: inserted 1 line at the top',
      after: { 'n.txt': 'first\n' },
    },
    {
      name: '+++ /dev/null deletes the file when its - lines are all of it',
      files: { 'old.txt': 'a\nb\n' },
      args: { patch: '--- a/old.txt\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-a\n-b\n' },
      text: 'deleted old.txt (1 hunk(s) removed all of its lines)\nhunk 1: anchored@1..2 exact',
      after: {},
      notes: ['checkpoint'],
    },
    {
      name: 'a given path that agrees with the headers',
      files: { 'a.py': PY },
      args: { path: './a.py', patch: diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 0\n') },
      text: 'patched a.py (1 hunk(s))\nhunk 1: anchored@2..2 exact',
      after: { 'a.py': PY.replace('x = 1', 'x = 0') },
    },
  ];

  it.each(rows)('$name', async ({ files, args, text, after, notes }) => {
    const { engine, read } = await setup(files);
    const r = await engine.call('ws_patch', args);
    expect(r.text).toBe(text);
    expect(r.ok).toBe(true);
    for (const p of new Set([...Object.keys(files), ...Object.keys(after)]))
      expect(await read(p)).toBe(after[p] ?? null);
    // Every file the patch touched is in the change record.
    expect(r.changes.length).toBe(new Set([...Object.keys(files), ...Object.keys(after)]).size);
    if (notes)
      expect(
        r.notes.map((n) => (n.kind === 'checkpoint' ? n.kind : `${n.kind}${n.detail ? `:${n.detail}` : ''}`)),
      ).toEqual(notes);
  });

  it.each([['diff'], ['hunk']])('reads the patch from the %s alias', async (alias) => {
    const { engine, read } = await setup({ 'a.py': PY });
    const r = await engine.call('ws_patch', { [alias]: diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 4\n') });
    expect(r.ok).toBe(true);
    expect(r.notes[0]).toMatchObject({ kind: 'alias', detail: alias });
    expect(await read('a.py')).toBe(PY.replace('x = 1', 'x = 4'));
  });
});

describe('ws_patch: refusals, one row per message; nothing is written', () => {
  const rows: {
    name: string;
    files: Files;
    args: Record<string, unknown>;
    says: RegExp;
    rule: string;
    settings?: Partial<EngineSettings>;
  }[] = [
    {
      name: 'one hunk of two misses: every hunk reported, nothing written',
      files: { 'a.py': PY },
      args: {
        patch: diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 2\n@@ -7 +7 @@\n-    return yy\n+    return z\n'),
      },
      says: /^Patch refused — 1 of 2 hunks did not apply to a\.py, so nothing was written: a patch applies whole or not at all\.\nhunk 1: anchored@2\.\.2 exact\nhunk 2: FAILED — its context and - lines are not in a\.py\.\nthe hunk's context and - lines not found in a\.py[\s\S]*The closest text is lines 7–7 \(\d+% similar\):\n    return y\n[\s\S]*\nFix the failed hunk and send the whole patch again/,
      rule: 'not-found',
    },
    {
      name: 'a bad hunk in the second file of a diff: neither file is written',
      files: { 'a.py': PY, 'b.py': PY },
      args: {
        patch:
          diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 2\n') + diff('b.py', '@@ -6 +6 @@\n-    nope\n+    yes\n'),
      },
      says: /^Patch refused — 1 of 2 hunks did not apply \(in b\.py\), so nothing was written to any of its 2 files: a patch applies whole or not at all\.\na\.py:\nhunk 1: anchored@2\.\.2 exact\nb\.py:\nhunk 1: FAILED/,
      rule: 'not-found',
    },
    {
      name: 'found N times in the window',
      files: { 'a.py': PY.replace('    y = 2\n', '    x = 1\n') },
      args: { patch: diff('a.py', '@@ -4 +4 @@\n-    x = 1\n+    x = 0\n') },
      says: /hunk 1: FAILED — found 2 times within ±20 lines of its @@ line 4 \(at lines 2, 6\) — a hunk must change one place\. Add 2–3 more unchanged lines/,
      rule: 'found-n-times',
    },
    {
      name: 'found N times in the whole file (no line number)',
      files: { 'a.py': PY.replace('    y = 2\n', '    x = 1\n') },
      args: { path: 'a.py', patch: '<<<<<<< SEARCH\n    x = 1\n=======\n    x = 0\n>>>>>>> REPLACE' },
      says: /hunk 1: FAILED — found 2 times in a\.py \(at lines 2, 6\) — a hunk must change one place/,
      rule: 'found-n-times',
    },
    {
      name: 'an inexact rung matching several places: ambiguous',
      files: { 'a.py': "if a:\n    go('x')\nif b:\n    go('x')\n" },
      args: { path: 'a.py', patch: '-    go(\u2018x\u2019)\n+    go(\u2018y\u2019)\n' },
      says: /hunk 1: FAILED — Ambiguous edit refused — the search text matches 2 places in a\.py \(lines 2, 4\) with the quote\/dash-style match, and an ambiguous edit is a wrong edit\./,
      rule: 'ambiguous',
    },
    {
      name: 'loosely near the @@ line, exactly elsewhere: a conflict',
      files: { 'l.txt': LONG.replace('line 30\n', 'alpha()\n').replace('line 70\n', '    alpha()\n') },
      args: { patch: diff('l.txt', '@@ -30 +30 @@\n-    alpha()\n+    beta()\n') },
      says: /hunk 1: FAILED — near its @@ line 30 it matches line 30 only with the indentation-normalized match, but lines 70 match it exactly, so it is not clear which place is meant\./,
      rule: 'anchor-conflict',
    },
    {
      name: 'a read gutter on some lines only',
      files: { 'a.py': PY },
      args: {
        path: 'a.py',
        patch: '<<<<<<< SEARCH\n     2|    x = 1\n    return x\n=======\n    x = 2\n>>>>>>> REPLACE',
      },
      says: /carry ws_read line numbers \(the "42\|" gutter\) on 1 of their 2 non-blank lines but not on the others[\s\S]*before: "     2\|    x = 1"\n {2}after: {2}"    x = 1"/,
      rule: 'partial-gutter',
    },
    {
      name: 'gutter_strip off: a read gutter on every line is kept, so the hunk misses as written',
      files: { 'a.py': PY },
      args: {
        path: 'a.py',
        patch:
          '<<<<<<< SEARCH\n     2|    x = 1\n     3|    return x\n=======\n     2|    x = 2\n     3|    return x\n>>>>>>> REPLACE',
      },
      settings: { gutter_strip: false },
      says: /hunk 1: FAILED/,
      rule: 'not-found',
    },
    {
      name: 'a pure insertion past the end of the file',
      files: { 'a.py': PY },
      args: { patch: diff('a.py', '@@ -40,0 +41 @@\n+x\n') },
      says: /it inserts after line 40 \(nothing removed, so only its @@ line places it\), but a\.py has 7 lines\./,
      rule: 'insert-out-of-range',
    },
    {
      name: 'nothing to find and no line number',
      files: { 'a.py': PY },
      args: { path: 'a.py', patch: '+# header\n' },
      says: /it has no context or - lines and no @@ line number, so it names no place in a\.py\./,
      rule: 'no-anchor',
    },
    {
      name: 'a path that disagrees with the headers',
      files: { 'a.py': PY, 'b.py': PY },
      args: { path: 'b.py', patch: diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 2\n') },
      says: /^Patch refused — path "b\.py" disagrees with the diff's --- \/ \+\+\+ headers, which name "a\.py"\. Nothing was changed\./,
      rule: 'path-mismatch',
    },
    {
      name: 'a SEARCH/REPLACE block without path',
      files: { 'a.py': PY },
      args: { patch: '<<<<<<< SEARCH\n    x = 1\n=======\n    x = 2\n>>>>>>> REPLACE' },
      says: /^Patch refused — a SEARCH\/REPLACE block does not say which file it changes, and no path was given\. Nothing was changed\. Repeat the call with "path"/,
      rule: 'path-required',
    },
    {
      name: 'a diff without headers and without path',
      files: { 'a.py': PY },
      args: { patch: '@@ -2 +2 @@\n-    x = 1\n+    x = 2\n' },
      says: /^Patch refused — a diff without --- \/ \+\+\+ file headers does not say which file it changes/,
      rule: 'path-required',
    },
    {
      name: 'a header naming a file under .slmcode/: the jail refuses it',
      files: { 'a.py': PY, '.slmcode/config.yaml': 'guard: on\n' },
      args: {
        patch:
          diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 2\n') +
          diff('.slmcode/config.yaml', '@@ -1 +1 @@\n-guard: on\n+guard: off\n'),
      },
      says: /^write refused — \.slmcode\/config\.yaml is harness control state, not project source\./,
      rule: 'jail:harness',
    },
    {
      name: '--- /dev/null for a file that exists',
      files: { 'a.py': PY },
      args: { patch: '--- /dev/null\n+++ b/a.py\n@@ -0,0 +1 @@\n+x\n' },
      says: /^Patch refused — the diff creates a\.py \(its --- line is \/dev\/null\), but a\.py already exists \(7 lines\)\./,
      rule: 'file-exists',
    },
    {
      name: '+++ /dev/null whose - lines leave lines behind',
      files: { 'a.py': PY },
      args: { patch: '--- a/a.py\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-def foo():\n-    x = 1\n-    return x\n' },
      says: /^Patch refused — the diff deletes a\.py \(its \+\+\+ line is \/dev\/null\), but its - lines do not cover all of the file[\s\S]*use ws_delete \{"path":"a\.py"\}/,
      rule: 'delete-incomplete',
    },
    {
      name: 'a patch that changes nothing',
      files: { 'a.py': PY },
      args: { patch: diff('a.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 1\n') },
      says: /^No-op edit refused — the patch leaves a\.py exactly as it is/,
      rule: 'no-op',
    },
    {
      name: 'text that is no patch',
      files: { 'a.py': PY },
      args: { path: 'a.py', patch: 'set x to 2' },
      says: /^Patch refused — the text is not a patch in any form ws_patch reads/,
      rule: 'not-a-patch',
    },
    {
      name: 'more hunks than one call applies',
      files: { 'big.txt': manyHunks(MAX_PATCH_HUNKS + 1).text },
      args: { patch: manyHunks(MAX_PATCH_HUNKS + 1).patch },
      says: /^Patch refused — the patch has 201 hunks; ws_patch applies at most 200 per call\. Nothing was changed\. Split it into several ws_patch calls of at most 200 hunks each\.$/,
      rule: 'too-many-hunks',
    },
    {
      name: 'a directory named by the headers',
      files: { 'src/x.py': PY },
      args: { path: 'src', patch: '-a\n+b\n' },
      says: /^Patch refused — src is a directory, not a file\. Use ws_list/,
      rule: 'directory',
    },
  ];

  it.each(rows)('$name', async ({ files, args, says, rule, settings }) => {
    const { engine, read } = await setup(files, settings);
    const paths = Object.keys(files);
    const before = await snapshot(read, paths);
    const r: ToolResult = await engine.call('ws_patch', args);
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(says);
    expect(r.notes.some((n) => n.kind === 'refusal' && n.detail === rule)).toBe(true);
    expect(r.changes).toEqual([]);
    expect(await snapshot(read, paths)).toEqual(before);
  });

  it('a patch of exactly MAX_PATCH_HUNKS hunks applies', async () => {
    const { text, patch } = manyHunks(MAX_PATCH_HUNKS);
    const { engine, read } = await setup({ 'big.txt': text });
    const r = await engine.call('ws_patch', { patch });
    expect(r.ok).toBe(true);
    expect(await read('big.txt')).toBe(
      text.replace(/^line (\d*[02468])$/gm, (l, d: string) => (Number(d) % 4 === 2 ? `LINE ${d}` : l)),
    );
  });

  it('after MAX_DIAGNOSED_FAILURES failed hunks the rest are named as not looked for, and nothing is written', async () => {
    const { text } = manyHunks(12);
    const missing = Array.from(
      { length: 12 },
      (_, h) => `@@ -${4 * h + 2} +${4 * h + 2} @@\n-no such line ${h}\n+LINE ${h}\n`,
    ).join('');
    const { engine, read } = await setup({ 'big.txt': text });
    const r = await engine.call('ws_patch', { patch: diff('big.txt', missing) });
    expect(r.ok).toBe(false);
    const failedLines = r.text
      .split('\n')
      .filter((l) => /^hunk \d+: FAILED — its context and - lines are not in big\.txt/.test(l));
    expect(failedLines).toHaveLength(MAX_DIAGNOSED_FAILURES);
    for (const n of [11, 12]) {
      expect(r.text).toContain(
        `hunk ${n}: FAILED — not looked for: 10 hunks before it did not apply, so the patch cannot apply as it is. Fix those hunks and send the whole patch again.`,
      );
    }
    expect(await read('big.txt')).toBe(text);
  });

  it('a missing file points at ws_glob and ws_list', async () => {
    const { engine } = await setup({ 'src/app.py': PY });
    const r = await engine.call('ws_patch', { patch: diff('src/ap.py', '@@ -2 +2 @@\n-    x = 1\n+    x = 2\n') });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(
      /^src\/ap\.py does not exist\.\nSimilarly named: src\/app\.py\.\nFind the right path with ws_glob/,
    );
  });
});

describe('ws_patch through createEngine: the post-edit syntax check', () => {
  const JS = 'function a() {\n  return 1;\n}\n\nfunction b() {\n  return 2;\n}\n';
  const BROKEN = diff('a.js', '@@ -2 +2 @@\n-  return 1;\n+  return (1;\n');

  it('a patch that breaks a parsing .js file is reverted and the file is byte-identical', async () => {
    const ws = new MemoryWorkspace();
    const bytes = encodeText(JS);
    await ws.writeFile('a.js', bytes);
    const r = await createEngine(ws).call('ws_patch', { patch: BROKEN });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(
      /^EDIT REVERTED — a\.js parsed correctly before your change and does NOT parse after it \(acorn\)/,
    );
    expect(r.notes.some((n) => n.kind === 'syntax-revert')).toBe(true);
    expect(await ws.readFile('a.js')).toEqual(bytes);
  });

  it('a multi-file patch whose second file breaks: both files are restored byte for byte', async () => {
    const ws = new MemoryWorkspace();
    await ws.writeFile('b.txt', encodeText('keep\r\nme\r\n'));
    await ws.writeFile('a.js', encodeText(JS));
    const r = await createEngine(ws).call('ws_patch', { patch: diff('b.txt', '@@ -1 +1 @@\n-keep\n+kept\n') + BROKEN });
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^EDIT REVERTED — a\.js/);
    expect(decodeText(await ws.readFile('b.txt'))).toBe('keep\r\nme\r\n');
    expect(decodeText(await ws.readFile('a.js'))).toBe(JS);
  });

  it('disable_syntax_check keeps the change', async () => {
    const ws = new MemoryWorkspace();
    await ws.writeFile('a.js', encodeText(JS));
    const r = await createEngine(ws).call('ws_patch', { patch: BROKEN, disable_syntax_check: true });
    expect(r.ok).toBe(true);
    expect(decodeText(await ws.readFile('a.js'))).toBe(JS.replace('return 1;', 'return (1;'));
  });
});
