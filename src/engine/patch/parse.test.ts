import { describe, expect, it } from 'vitest';
import { parsePatch } from 'diff';
import { parsePatchText } from './parse.ts';
import type { Hunk, ParsedPatch } from './model.ts';

/** A hunk reduced to what the rows compare. */
function shape(h: Hunk): { old: readonly string[]; new: readonly string[]; at?: number; noEol?: string } {
  const noEol = h.oldNoEol || h.newNoEol ? `${h.oldNoEol ? 'old' : ''}${h.newNoEol ? 'new' : ''}` : undefined;
  return {
    old: h.oldLines,
    new: h.newLines,
    ...(h.oldStart !== undefined ? { at: h.oldStart } : {}),
    ...(noEol ? { noEol } : {}),
  };
}

function parsed(text: string): ParsedPatch {
  const r = parsePatchText(text);
  if (!r.ok) throw new Error(`expected a parse, got ${r.rule}: ${r.text}`);
  return r.patch;
}

describe('parsePatchText: every accepted form', () => {
  const rows: {
    name: string;
    text: string;
    form: ParsedPatch['form'];
    headers?: ({ old: string | null; new: string | null } | undefined)[];
    hunks: ReturnType<typeof shape>[];
  }[] = [
    {
      name: 'unified diff, one hunk, a/ b/ headers',
      text: '--- a/src/x.js\n+++ b/src/x.js\n@@ -3,3 +3,3 @@\n a\n-b\n+c\n d\n',
      form: 'unified',
      headers: [{ old: 'a/src/x.js', new: 'b/src/x.js' }],
      hunks: [{ old: ['a', 'b', 'd'], new: ['a', 'c', 'd'], at: 3 }],
    },
    {
      name: 'unified diff, two files',
      text: '--- a/x\n+++ b/x\n@@ -1 +1 @@\n-b\n+c\n--- a/y\n+++ b/y\n@@ -2 +2 @@\n-d\n+e\n',
      form: 'unified',
      headers: [
        { old: 'a/x', new: 'b/x' },
        { old: 'a/y', new: 'b/y' },
      ],
      hunks: [
        { old: ['b'], new: ['c'], at: 1 },
        { old: ['d'], new: ['e'], at: 2 },
      ],
    },
    {
      name: 'git diff with timestamps-free headers and an index line',
      text: 'diff --git a/x.js b/x.js\nindex 1..2 100644\n--- a/x.js\n+++ b/x.js\n@@ -1 +1 @@\n-b\n+c\n',
      form: 'unified',
      headers: [{ old: 'a/x.js', new: 'b/x.js' }],
      hunks: [{ old: ['b'], new: ['c'], at: 1 }],
    },
    {
      name: 'header timestamps after a tab',
      text: '--- foo.txt\t2024-07-19 09:58:02.489059795 +0100\n+++ foo.txt\t2024-07-19 09:58:24 +0100\n@@ -1 +1 @@\n-a\n+b\n',
      form: 'unified',
      headers: [{ old: 'foo.txt', new: 'foo.txt' }],
      hunks: [{ old: ['a'], new: ['b'], at: 1 }],
    },
    {
      name: '/dev/null old side: a new file; -0,0 is kept as 0 (the top)',
      text: '--- /dev/null\n+++ b/new.js\n@@ -0,0 +1,2 @@\n+a\n+b\n',
      form: 'unified',
      headers: [{ old: null, new: 'b/new.js' }],
      hunks: [{ old: [], new: ['a', 'b'], at: 0 }],
    },
    {
      name: 'pure insertion keeps its @@ -N as written (insert after line N)',
      text: '--- a/x\n+++ b/x\n@@ -7,0 +8,1 @@\n+new\n',
      form: 'unified',
      hunks: [{ old: [], new: ['new'], at: 7 }],
    },
    {
      name: 'miscounted header (jsdiff rejects it): counts ignored',
      text: '--- a/x\n+++ b/x\n@@ -1,2 +1,9 @@\n a\n-b\n+c\n d\n',
      form: 'unified',
      hunks: [{ old: ['a', 'b', 'd'], new: ['a', 'c', 'd'], at: 1 }],
    },
    {
      name: '@@ without numbers: an anchorless hunk',
      text: '--- a/x\n+++ b/x\n@@ @@\n a\n-b\n+c\n',
      form: 'unified',
      hunks: [{ old: ['a', 'b'], new: ['a', 'c'] }],
    },
    {
      name: 'no file headers: hunks only',
      text: '@@ -4,2 +4,2 @@\n-b\n+c\n',
      form: 'unified',
      headers: [undefined],
      hunks: [{ old: ['b'], new: ['c'], at: 4 }],
    },
    {
      name: 'trailing prose after a hunk is dropped',
      text: '@@ -1,2 +1,2 @@\n a\n-b\n+c\nThis adds the check.\n',
      form: 'unified',
      hunks: [{ old: ['a', 'b'], new: ['a', 'c'], at: 1 }],
    },
    {
      name: 'an unprefixed line followed by a diff line is context',
      text: '@@ -1,3 +1,3 @@\nfunction a() {\n-  return 1;\n+  return 2;\n}\n',
      form: 'unified',
      hunks: [{ old: ['function a() {', '  return 1;'], new: ['function a() {', '  return 2;'], at: 1 }],
    },
    {
      name: 'an empty line between diff lines is a blank context line',
      text: '@@ -1,3 +1,3 @@\n a\n\n-b\n+c\n',
      form: 'unified',
      hunks: [{ old: ['a', '', 'b'], new: ['a', '', 'c'], at: 1 }],
    },
    {
      name: 'Markdown fence and prose around the diff are dropped',
      text: 'Here is the patch:\n```diff\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n```\nThis renames it.\n',
      form: 'unified',
      hunks: [{ old: ['a'], new: ['b'], at: 1 }],
    },
    {
      name: 'CRLF patch text: the transport line ending is dropped',
      text: '@@ -1 +1 @@\r\n-a\r\n+b\r\n',
      form: 'unified',
      hunks: [{ old: ['a'], new: ['b'], at: 1 }],
    },
    {
      name: '\\ No newline at end of file marks the side it follows',
      text: '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n',
      form: 'unified',
      hunks: [{ old: ['a', 'b'], new: ['a', 'c'], at: 1, noEol: 'old' }],
    },
    {
      name: 'SEARCH/REPLACE block with conflict markers',
      text: '<<<<<<< SEARCH\na\nb\n=======\nc\n>>>>>>> REPLACE\n',
      form: 'search-replace',
      headers: [undefined],
      hunks: [{ old: ['a', 'b'], new: ['c'] }],
    },
    {
      name: 'several blocks, text between them ignored, @@ inside content kept',
      text: 'src/x.py\n```python\n<<<<<<< SEARCH\n@@ odd\n=======\nx\n>>>>>>> REPLACE\n```\n<<<<<<< SEARCH\ny\n=======\n>>>>>>> REPLACE\n',
      form: 'search-replace',
      hunks: [
        { old: ['@@ odd'], new: ['x'] },
        { old: ['y'], new: [] },
      ],
    },
    {
      name: 'missing final REPLACE marker: the block ends at the end',
      text: '<<<<<<< SEARCH\na\n=======\nb\n\n',
      form: 'search-replace',
      hunks: [{ old: ['a'], new: ['b'] }],
    },
    {
      name: 'escaped marker lines in content (Roo-Code) and its :start_line: lines',
      text: '<<<<<<< SEARCH\n:start_line:3\n-------\nbefore\n\\=======\n=======\nafter\n\\>>>>>>> REPLACE\n>>>>>>> REPLACE\n',
      form: 'search-replace',
      hunks: [{ old: ['before', '======='], new: ['after', '>>>>>>> REPLACE'] }],
    },
    {
      name: 'plain SEARCH / ======= / REPLACE header lines',
      text: 'SEARCH\na\n=======\nb\nREPLACE\n',
      form: 'search-replace',
      hunks: [{ old: ['a'], new: ['b'] }],
    },
    {
      name: 'plain SEARCH: / REPLACE: headers as separator',
      text: 'SEARCH:\na\nREPLACE:\nb\n',
      form: 'search-replace',
      hunks: [{ old: ['a'], new: ['b'] }],
    },
    {
      name: 'a bare ======= separator',
      text: 'a\nb\n=======\nc\n',
      form: 'search-replace',
      hunks: [{ old: ['a', 'b'], new: ['c'] }],
    },
    {
      name: 'a bare -/+ block: one anchorless hunk, leading prose skipped',
      text: 'Change:\n x = 1\n-y = 2\n+y = 3\n',
      form: 'bare',
      headers: [undefined],
      hunks: [{ old: ['x = 1', 'y = 2'], new: ['x = 1', 'y = 3'] }],
    },
  ];

  it.each(rows)('$name', (row) => {
    const p = parsed(row.text);
    expect(p.form).toBe(row.form);
    expect(p.files.flatMap((f) => f.hunks).map(shape)).toEqual(row.hunks);
    if (row.headers) expect(p.files.map((f) => f.headers)).toEqual(row.headers);
  });

  it('diff hunks map each new context line to its old line; blocks carry no mapping', () => {
    const diff = parsed('@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n').files[0]!.hunks[0]!;
    expect(diff.newFromOld).toEqual([0, -1, 2]);
    expect(parsed('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE').files[0]!.hunks[0]!.newFromOld).toBeUndefined();
  });
});

describe('parsePatchText: what jsdiff reads, the tolerant reader reads the same way', () => {
  const wellFormed = [
    '--- a/x\n+++ b/x\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n d\n',
    '--- a/x\n+++ b/x\n@@ -2,2 +2,3 @@\n a\n+n\n b\n@@ -9 +10 @@\n-z\n+y\n',
    '--- a\n+++ a\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n\\ No newline at end of file\n',
  ];
  it.each(wellFormed)('%j', (text) => {
    // jsdiff accepts these; the same hunks with a miscount forced (so jsdiff throws) must read the same.
    expect(() => parsePatch(text)).not.toThrow();
    const strict = parsed(text);
    const tolerant = parsed(text.replace(/^@@ -(\d+)/gm, '@@  -$1'));
    expect(() => parsePatch(text.replace(/^(@@ -\d+)(,\d+)? /gm, '$1,99 '))).toThrow();
    const miscounted = parsed(text.replace(/^(@@ -\d+)(,\d+)? /gm, '$1,99 '));
    expect(miscounted.files.map((f) => f.hunks)).toEqual(strict.files.map((f) => f.hunks));
    expect(tolerant.files.map((f) => f.hunks.map((h) => h.oldLines))).toEqual(
      strict.files.map((f) => f.hunks.map((h) => h.oldLines)),
    );
  });
});

describe('parsePatchText: refusals, one row per message', () => {
  const rows: { name: string; text: string; rule: string; says: RegExp }[] = [
    { name: 'empty patch', text: '  \n\n', rule: 'empty-patch', says: /^Patch refused — the patch is empty/ },
    {
      name: 'no form at all',
      text: 'please change foo to bar',
      rule: 'not-a-patch',
      says: /not a patch in any form ws_patch reads[\s\S]*<<<<<<< SEARCH/,
    },
    {
      name: 'line breaks written out as \\n',
      text: '--- a/x\\n+++ b/x\\n@@ -1 +1 @@\\n-a\\n+b',
      rule: 'escaped-newlines',
      says: /single line with its line breaks written out as \\n/,
    },
    {
      name: 'headers without hunks',
      text: '--- a/x\n+++ b/x\n',
      rule: 'no-hunks',
      says: /no @@ hunk with - or \+ lines/,
    },
    {
      name: 'block without =======',
      text: '<<<<<<< SEARCH\na\n>>>>>>> REPLACE\n',
      rule: 'malformed-block',
      says: /block 1 has ">>>>>>> REPLACE" inside its SEARCH part/,
    },
    {
      name: 'block cut before =======',
      text: '<<<<<<< SEARCH\na\n',
      rule: 'malformed-block',
      says: /block 1 has no ======= line/,
    },
    {
      name: 'two bare separators',
      text: 'a\n=======\nb\n=======\nc\n',
      rule: 'malformed-block',
      says: /has 2 "=======" lines but no <<<<<<< SEARCH/,
    },
    {
      name: 'a close marker only',
      text: 'x\n>>>>>>> REPLACE\n',
      rule: 'malformed-block',
      says: /no complete SEARCH\/REPLACE block/,
    },
    {
      name: 'a git rename',
      text: 'diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n',
      rule: 'rename-diff',
      says: /renames x to y[\s\S]*ws_mv/,
    },
    {
      name: 'a binary diff',
      text: 'diff --git a/i.png b/i.png\nBinary files a/i.png and b/i.png differ\n',
      rule: 'binary-diff',
      says: /as a binary file/,
    },
  ];
  it.each(rows)('$name', ({ text, rule, says }) => {
    const r = parsePatchText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.rule).toBe(rule);
    expect(r.text).toMatch(says);
    expect(r.text).toMatch(/Nothing was changed/);
  });
});
