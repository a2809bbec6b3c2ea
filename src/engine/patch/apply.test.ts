import { describe, expect, it } from 'vitest';
import { applyHunks, type HunkOutcome } from './apply.ts';
import { AnchorWindowLines } from './locate.ts';
import { parsePatchText } from './parse.ts';

const OPTS = { tolerance: true, disabled: [] };

/** `n` numbered lines, "line 1" … */
function numbered(n: number, from = 1): string[] {
  return Array.from({ length: n }, (_, i) => `line ${from + i}`);
}

function hunksOf(patch: string) {
  const r = parsePatchText(patch);
  if (!r.ok) throw new Error(r.text);
  return r.patch.files.flatMap((f) => f.hunks);
}

/** An outcome reduced to one comparable string. */
function brief(o: HunkOutcome): string {
  switch (o.kind) {
    case 'anchored':
      return `${o.rung}@${o.startLine}..${o.endLine}/${o.scope}${o.gutter ? '/gutter' : ''}`;
    case 'inserted':
      return `inserted ${o.lines} after ${o.afterLine}`;
    case 'failed': {
      const f = o.failure;
      if (f.kind === 'ambiguous')
        return `ambiguous ${f.rung}/${f.scope} at ${f.spans.map((s) => s.startLine).join(',')}`;
      if (f.kind === 'conflict')
        return `conflict ${f.near.rung}@${f.near.span.startLine} vs ${f.far.rung}@${f.far.spans.map((s) => s.startLine).join(',')}`;
      if (f.kind === 'not-found') return `not-found${f.closest ? ` closest ${f.closest.startLine}` : ''}`;
      if (f.kind === 'partial-gutter') return `partial-gutter ${f.plan.side}`;
      return f.kind;
    }
    default: {
      const never: never = o;
      throw new Error(String(never));
    }
  }
}

const BASE = `${numbered(100).join('\n')}\n`;
/** A block repeated at lines 10–12 and 60–62 of a 100-line file. */
const TWICE = BASE.replace('line 10\nline 11\nline 12', 'if (a) {\n  go();\n}').replace(
  'line 60\nline 61\nline 62',
  'if (a) {\n  go();\n}',
);
/** The same block at lines 45–47 (a decoy) and 72–74. */
const DECOY = BASE.replace('line 45\nline 46\nline 47', 'x();\ny();\nz();').replace(
  'line 72\nline 73\nline 74',
  'x();\ny();\nz();',
);

describe('applyHunks: anchoring, one row per rule', () => {
  const rows: { name: string; file: string; patch: string; outcomes: string[]; after?: string }[] = [
    {
      name: 'exact, @@ line off by a few lines: anchored in the window',
      file: BASE,
      patch: '@@ -25,2 +25,2 @@\n line 30\n-line 31\n+LINE 31\n',
      outcomes: ['exact@30..31/window'],
      after: BASE.replace('line 31\n', 'LINE 31\n'),
    },
    {
      name: `@@ line more than ${AnchorWindowLines} lines off: found by searching the whole file`,
      file: BASE,
      patch: '@@ -80,2 +80,2 @@\n line 30\n-line 31\n+LINE 31\n',
      outcomes: ['exact@30..31/file'],
    },
    {
      name: 'two copies, the @@ line names the second: the window tells them apart',
      file: TWICE,
      patch: '@@ -58,3 +58,3 @@\n if (a) {\n-  go();\n+  stop();\n }\n',
      outcomes: ['exact@60..62/window'],
      after: TWICE.replace(/( {2}go\(\);)([\s\S]*) {2}go\(\);/, '$1$2  stop();'),
    },
    {
      name: 'two copies within the window: ambiguous, refused',
      file: BASE.replace('line 10\nline 11', 'dup\nmore').replace('line 20\nline 21', 'dup\nmore'),
      patch: '@@ -15,2 +15,2 @@\n dup\n-more\n+less\n',
      outcomes: ['ambiguous exact/window at 10,20'],
    },
    {
      name: 'two copies and no line number: ambiguous in the whole file',
      file: TWICE,
      patch: '<<<<<<< SEARCH\nif (a) {\n  go();\n}\n=======\nif (b) {\n  go();\n}\n>>>>>>> REPLACE',
      outcomes: ['ambiguous exact/file at 10,60'],
    },
    {
      name: "earlier hunks' delta carried forward: hunk 1 lands 10 lines low and adds 2, so hunk 2 is looked for 12 lines low",
      file: DECOY,
      patch: '@@ -20,2 +20,4 @@\n line 30\n+new a\n+new b\n line 31\n@@ -60,3 +62,3 @@\n x();\n-y();\n+w();\n z();\n',
      outcomes: ['exact@30..31/window', 'exact@72..74/window'],
    },
    {
      name: 'a drifted hunk (indentation) lands by the ladder inside the window',
      file: 'def f():\n    if x:\n        return 1\n    return 2\n',
      patch: '@@ -2,2 +2,2 @@\n if x:\n-    return 1\n+    return 3\n',
      outcomes: ['indent@2..3/window'],
      after: 'def f():\n    if x:\n        return 3\n    return 2\n',
    },
    {
      name: "a context line keeps the file's own text (its trailing whitespace) when the hunk matched inexactly",
      file: 'a = 1   \nb = 2\nc = 3\n',
      patch: '@@ -1,3 +1,3 @@\n a = 1\n-b = 2\n+b = 20\n c = 3\n',
      outcomes: ['trailing-ws@1..3/window'],
      after: 'a = 1   \nb = 20\nc = 3\n',
    },
    {
      name: 'near the @@ line only loosely, exactly elsewhere: a conflict, refused',
      file: BASE.replace('line 30\nline 31', '    alpha()\n    beta()').replace('line 70\nline 71', 'alpha()\nbeta()'),
      patch: '@@ -30,2 +30,2 @@\n alpha()\n-beta()\n+gamma()\n',
      outcomes: ['conflict indent@30 vs exact@70'],
    },
    {
      name: 'near the @@ line only by first+last anchors, whole elsewhere: the whole match wins',
      file: BASE.replace('line 30\nline 31\nline 32', 'start here()\n  middle one\nend here()').replace(
        'line 70\nline 71\nline 72',
        'start here()\n  middle two\nend here()',
      ),
      patch: '@@ -30,3 +30,3 @@\n start here()\n-  middle two\n+  middle 2\n end here()\n',
      outcomes: ['exact@70..72/file'],
    },
    {
      name: 'pure insertion @@ -N,0: after line N',
      file: 'a\nb\nc\n',
      patch: '@@ -2,0 +3,1 @@\n+new\n',
      outcomes: ['inserted 1 after 2'],
      after: 'a\nb\nnew\nc\n',
    },
    {
      name: 'pure insertion @@ -0,0: at the top',
      file: 'a\nb\n',
      patch: '@@ -0,0 +1,2 @@\n+x\n+y\n',
      outcomes: ['inserted 2 after 0'],
      after: 'x\ny\na\nb\n',
    },
    {
      name: 'pure insertion after the last line of a file without a final newline',
      file: 'a\nb',
      patch: '@@ -2,0 +3 @@\n+c\n',
      outcomes: ['inserted 1 after 2'],
      after: 'a\nb\nc',
    },
    {
      name: 'pure insertion past the end: refused',
      file: 'a\nb\n',
      patch: '@@ -9,0 +10 @@\n+c\n',
      outcomes: ['insert-range'],
    },
    {
      name: 'nothing to find and no line number, into a file with text: refused',
      file: 'a\n',
      patch: '<<<<<<< SEARCH\n=======\nb\n>>>>>>> REPLACE',
      outcomes: ['no-anchor'],
    },
    {
      name: 'nothing to find, into an empty file: the new lines are the file',
      file: '',
      patch: '<<<<<<< SEARCH\n=======\nb\n>>>>>>> REPLACE',
      outcomes: ['inserted 1 after 0'],
      after: 'b\n',
    },
    {
      name: 'removed lines leave no empty line behind',
      file: 'a\nb\nc\nd\n',
      patch: '<<<<<<< SEARCH\nb\nc\n=======\n>>>>>>> REPLACE',
      outcomes: ['exact@2..3/file'],
      after: 'a\nd\n',
    },
    {
      name: 'a block is whole lines: text inside a longer line is not a place',
      file: 'foobar()\nx = 1\n',
      patch: '<<<<<<< SEARCH\nfoo\n=======\nbaz\n>>>>>>> REPLACE',
      outcomes: ['not-found closest 1'],
    },
    {
      name: 'whole lines win over the same text inside a longer line',
      file: 'y = x = 1\n  x = 1\n',
      patch: '<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE',
      outcomes: ['exact@2..2/file'],
      after: 'y = x = 1\n  x = 2\n',
    },
    {
      name: 'a CRLF file and an LF patch: exact, and the file keeps CRLF',
      file: 'a\r\nb\r\nc\r\n',
      patch: '@@ -1,2 +1,2 @@\n a\n-b\n+B\n',
      outcomes: ['exact@1..2/window'],
      after: 'a\r\nB\r\nc\r\n',
    },
    {
      name: '\\ No newline at end of file on the new side drops the final newline',
      file: 'a\nb\n',
      patch: '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\\ No newline at end of file\n',
      outcomes: ['exact@1..2/window'],
      after: 'a\nc',
    },
    {
      name: '\\ No newline at end of file on the old side only adds the final newline',
      file: 'a\nb',
      patch: '--- a/x\n+++ b/x\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+c\n',
      outcomes: ['exact@1..2/window'],
      after: 'a\nc\n',
    },
    {
      name: 'a read gutter on every line of both sides: stripped',
      file: 'a\nb\nc\n',
      patch: '<<<<<<< SEARCH\n     2|b\n     3|c\n=======\n     2|B\n     3|c\n>>>>>>> REPLACE',
      outcomes: ['exact@2..3/file/gutter'],
      after: 'a\nB\nc\n',
    },
    {
      name: 'a read gutter on the old side, none on the new: stripped from the old side',
      file: 'a\nb\nc\n',
      patch: '@@ -2,2 +2,2 @@\n-     2|b\n-     3|c\n+B\n+c\n',
      outcomes: ['exact@2..3/window/gutter'],
      after: 'a\nB\nc\n',
    },
    {
      name: 'a gutter on some old lines only: refused by name',
      file: 'a\nb\nc\n',
      patch: '<<<<<<< SEARCH\n     2|b\nc\n=======\nB\n>>>>>>> REPLACE',
      outcomes: ['partial-gutter old'],
    },
    {
      name: 'a gutter on every old line and some new lines: refused by name',
      file: 'a\nb\nc\n',
      patch: '<<<<<<< SEARCH\n1 | a\n2 | b\n3 | c\n=======\n1 | a\nB\n3 | c\n>>>>>>> REPLACE',
      outcomes: ['partial-gutter new'],
    },
    {
      name: 'numbers that belong to the text: matched as written',
      file: '  10|a\n  11|b\n',
      patch: '<<<<<<< SEARCH\n10|a\n11|b\n=======\n10|a\n11|B\n>>>>>>> REPLACE',
      outcomes: ['indent@1..2/file'],
      after: '  10|a\n  11|B\n',
    },
    {
      name: "a failed hunk reports the original file's line numbers, after earlier insertions",
      file: BASE,
      patch: '@@ -0,0 +1,3 @@\n+x\n+y\n+z\n@@ -50,2 +53,2 @@\n line 50\n-line 5l\n+line 51b\n',
      outcomes: ['inserted 3 after 0', 'not-found closest 50'],
    },
  ];

  it.each(rows)('$name', ({ file, patch, outcomes, after }) => {
    const r = applyHunks(file, hunksOf(patch), OPTS);
    expect(r.outcomes.map(brief)).toEqual(outcomes);
    expect(r.ok).toBe(outcomes.every((o) => !/^(ambiguous|conflict|not-found|partial|insert-range|no-anchor)/.test(o)));
    if (after !== undefined) expect(r.text).toBe(after);
  });

  it('with edit_tolerance off only exact places count, and a gutter is not stripped', () => {
    const strict = { tolerance: false, disabled: [] };
    expect(
      applyHunks('    a\n', hunksOf('<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE'), strict).outcomes.map(brief),
    ).toEqual(['exact@1..1/file']);
    expect(
      applyHunks(
        'def f():\n    if x:\n        return 1\n',
        hunksOf('@@ -2,2 +2,2 @@\n if x:\n-    return 1\n+    return 3\n'),
        strict,
      ).ok,
    ).toBe(false);
    expect(
      applyHunks('a\nb\n', hunksOf('<<<<<<< SEARCH\n     1|a\n=======\nA\n>>>>>>> REPLACE'), strict).outcomes.map(
        brief,
      ),
    ).toEqual(['not-found']);
  });

  it('a switched-off rung is not tried', () => {
    const hunks = hunksOf('@@ -2,2 +2,2 @@\n if x:\n-    return 1\n+    return 3\n');
    const file = 'def f():\n    if x:\n        return 1\n';
    expect(applyHunks(file, hunks, OPTS).ok).toBe(true);
    expect(
      applyHunks(file, hunks, { tolerance: true, disabled: ['indent', 'blank-lines', 'quotes-dashes', 'anchors'] }).ok,
    ).toBe(false);
  });
});
