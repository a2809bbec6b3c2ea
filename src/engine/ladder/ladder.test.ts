import { describe, expect, it } from 'vitest';
import { findMatch, MAX_TOLERANT_LINE_PAIRS, replaceSpans, toRungIds, RUNG_ORDER } from './ladder.ts';
import type { LadderMatch, LadderOptions, RungId } from './types.ts';
import { notFoundText } from './messages.ts';

const ON: LadderOptions = { tolerance: true, disabled: [] };

/** Applies a unique match (or every candidate of an ambiguous one) and returns the new text. */
function apply(text: string, m: LadderMatch, newStr: string): string {
  if (m.kind === 'unique') return replaceSpans(text, [{ span: m.span, text: m.adapt(newStr) }]);
  if (m.kind === 'ambiguous')
    return replaceSpans(
      text,
      m.candidates.map((c) => ({ span: c.span, text: c.adapt(newStr) })),
    );
  throw new Error('no match to apply');
}

const PY = 'def foo():\n    if ready:\n        run()\n    return 1\n';

describe('ladder: one row per rung', () => {
  const rows: { name: string; file: string; old: string; neu: string; rung: RungId; want: string }[] = [
    {
      name: 'exact',
      file: PY,
      old: '        run()',
      neu: '        go()',
      rung: 'exact',
      want: PY.replace('run()', 'go()'),
    },
    {
      name: 'trailing whitespace in old_str',
      file: PY,
      old: '    if ready:  \n        run()\t',
      neu: '    if ready:\n        go()',
      rung: 'trailing-ws',
      want: PY.replace('run()', 'go()'),
    },
    {
      name: 'CRLF file, LF old_str: the file keeps CRLF',
      file: 'a\r\nb\r\nc\r\n',
      old: 'a\nb',
      neu: 'a\nB\nb2',
      rung: 'trailing-ws',
      want: 'a\r\nB\r\nb2\r\nc\r\n',
    },
    {
      name: 'LF file, CRLF old_str: the file keeps LF',
      file: 'a\nb\nc\n',
      old: 'b\r\nc\r\n',
      neu: 'B\r\nc\r\n',
      rung: 'trailing-ws',
      want: 'a\nB\nc\n',
    },
    {
      name: 'indentation shifted: the file’s indentation is re-applied',
      file: PY,
      old: 'if ready:\n    run()',
      neu: 'if ready:\n    run()\n    log()',
      rung: 'indent',
      want: 'def foo():\n    if ready:\n        run()\n        log()\n    return 1\n',
    },
    {
      name: 'tabs for spaces: new_str is written with spaces',
      file: PY,
      old: '\tif ready:\n\t\trun()',
      neu: '\tif ready:\n\t\trun(1)\n\t\t\tdeeper()',
      rung: 'indent',
      want: 'def foo():\n    if ready:\n        run(1)\n            deeper()\n    return 1\n',
    },
    {
      name: 'spaces for tabs: new_str is written with tabs',
      file: 'func f() {\n\tif ok {\n\t\tgo()\n\t}\n}\n',
      old: '    if ok {\n        go()\n    }',
      neu: '    if ok {\n        stop()\n    }',
      rung: 'indent',
      want: 'func f() {\n\tif ok {\n\t\tstop()\n\t}\n}\n',
    },
    {
      name: 'blank lines added or dropped',
      file: 'a = 1\n\nb = 2\nc = 3\n',
      old: 'a = 1\nb = 2\n\n\nc = 3',
      neu: 'a = 1\n\nb = 20\nc = 3',
      rung: 'blank-lines',
      want: 'a = 1\n\nb = 20\nc = 3\n',
    },
    {
      name: 'curly quotes and an en dash; new_str’s copies of the drift are made plain',
      file: 'msg = "it\'s done" - ok\nnext = 1\n',
      old: 'msg = “it’s done” – ok\nnext = 1',
      neu: 'msg = “it’s finished” – ok\nnext = 1',
      rung: 'quotes-dashes',
      want: 'msg = "it\'s finished" - ok\nnext = 1\n',
    },
    {
      name: 'first+last line anchored, a middle line mistyped',
      file: 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i;\n  return sum;\n}\n',
      old: 'function total(items) {\n  let summ = 0;\n  for (const i of itemz) sum += i;\n  return sum;',
      neu: 'function total(items) {\n  let sum = 0;\n  return sum;',
      rung: 'anchors',
      want: 'function total(items) {\n  let sum = 0;\n  return sum;\n}\n',
    },
    {
      name: 'first+last line anchored, a middle line dropped from old_str',
      file: 'function total(items) {\n  let sum = 0;\n  validate(items);\n  for (const i of items) sum += i;\n  return sum;\n}\n',
      old: 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i;\n  return sum;',
      neu: 'function total(items) {\n  return items.length;',
      rung: 'anchors',
      want: 'function total(items) {\n  return items.length;\n}\n',
    },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    const m = findMatch(r.file, r.old, ON);
    expect(m.kind).toBe('unique');
    if (m.kind !== 'unique') return;
    expect(m.rung).toBe(r.rung);
    expect(apply(r.file, m, r.neu)).toBe(r.want);
  });
});

describe('ladder: several places are never applied', () => {
  const rows: { name: string; file: string; old: string; rung: RungId; lines: number[] }[] = [
    { name: 'exact, twice', file: 'x = 1\ny = 2\nx = 1\n', old: 'x = 1', rung: 'exact', lines: [1, 3] },
    { name: 'trailing-ws, twice', file: 'a\nb\n\na\nb\n', old: 'a \nb ', rung: 'trailing-ws', lines: [1, 4] },
    {
      name: 'indent, a copy at another depth',
      file: 'if a:\n    x()\n    y()\nz()\nx()\ny()\n',
      old: '  x()\n  y()',
      rung: 'indent',
      lines: [2, 5],
    },
    { name: 'blank-lines, twice', file: 'p\n\nq\nr\np\nq\n', old: 'p\n\n\nq', rung: 'blank-lines', lines: [1, 5] },
    {
      name: 'quotes, twice',
      file: 'say("hi")\nok\nsay("hi")\nok\n',
      old: 'say(“hi”)\nok',
      rung: 'quotes-dashes',
      lines: [1, 3],
    },
    {
      name: 'anchors, twice',
      file: 'function doIt() {\n  log("a");\n}\nfunction doIt() {\n  log("b");\n}\n',
      old: 'function doIt() {\n  log("c");\n}',
      rung: 'anchors',
      lines: [1, 4],
    },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    const m = findMatch(r.file, r.old, ON);
    expect(m.kind).toBe('ambiguous');
    if (m.kind !== 'ambiguous') return;
    expect(m.rung).toBe(r.rung);
    expect(m.spans.map((s) => s.startLine)).toEqual(r.lines);
  });

  it('replace_all candidates replace every place of that rung', () => {
    const file = 'if a:\n    x()\nif b:\n        x()\n';
    const m = findMatch(file, 'x()', ON);
    expect(m.kind).toBe('ambiguous');
    expect(apply(file, m, 'y()')).toBe('if a:\n    y()\nif b:\n        y()\n');
  });
});

describe('ladder: the anchored rung’s fences', () => {
  const body = 'function total(items) {\n  let sum = 0;\n  for (const i of items) sum += i;\n  return sum;\n}\n';
  const rows: { name: string; file: string; old: string }[] = [
    {
      name: 'a hallucinated middle between two real lines',
      file: body,
      old: 'function total(items) {\n  const cache = new Map();\n  await flush(cache, items);\n  return sum;',
    },
    {
      name: 'anchors without words (just braces)',
      file: 'x(() => {\n  a = 1;\n  b = 2;\n});\n',
      old: '{\n  a = 11;\n  b = 22;\n}',
    },
    { name: 'only two lines: no middle to tolerate', file: body, old: 'function total(items) {\n  return sum;' },
    {
      name: 'span much longer than old_str',
      file: `function total(items) {\n${'  step();\n'.repeat(8)}  return sum;\n}\n`,
      old: 'function total(items) {\n  stepp();\n  return sum;',
    },
    {
      name: 'anchors at a different indentation structure (an inner brace for an outer one)',
      file: 'def f():\n    if a:\n        if b:\n            go()\n        done()\n',
      old: '    if a:\n        if b:\n            goo()\n    done()',
    },
    { name: 'every line mistyped', file: body, old: 'function totals(items) {\n  let summ = 0;\n  return sums;' },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s → not found', (_n, r) => {
    expect(findMatch(r.file, r.old, ON).kind).toBe('none');
  });

  it('picks the extent that pairs every line when a repeated tail offers two', () => {
    const file = '## Install steps\nrun setup\nrun build\n---\n---\n';
    const m = findMatch(file, '## Install steps\nrun setupp\nrun build\n---', ON);
    expect(m).toMatchObject({ kind: 'unique', rung: 'anchors', span: { startLine: 1, endLine: 4 } });
  });

  it('keeps the extent whose anchors keep old_str’s indentation (the outer brace, not an inner one)', () => {
    const file = 'if (ready) {\n  if (steady) {\n    run();\n  }\n}\n';
    const m = findMatch(file, 'if (ready) {\n  if (steady) {\n    runn();\n  }\n}', ON);
    expect(m).toMatchObject({ kind: 'unique', rung: 'anchors', span: { startLine: 1, endLine: 5 } });
  });
});

describe('ladder: options', () => {
  it('edit_tolerance off: exact only', () => {
    expect(findMatch(PY, 'if ready:\n    run()', { tolerance: false, disabled: [] }).kind).toBe('none');
    expect(findMatch(PY, '    if ready:', { tolerance: false, disabled: [] }).kind).toBe('unique');
  });
  it('a disabled rung is skipped and the next one tried', () => {
    const m = findMatch(PY, 'if ready:\n    run()', { tolerance: true, disabled: ['indent'] });
    expect(m).toMatchObject({ kind: 'unique', rung: 'blank-lines' });
    expect(
      findMatch(PY, 'if ready:\n    run()', {
        tolerance: true,
        disabled: ['indent', 'blank-lines', 'quotes-dashes', 'anchors'],
      }).kind,
    ).toBe('none');
  });
  it('a window restricts the search and the ambiguity to its lines', () => {
    const file = 'x = 1\na\nx = 1\nb\nx = 1\n';
    expect(findMatch(file, 'x = 1', ON).kind).toBe('ambiguous');
    expect(findMatch(file, 'x = 1', { ...ON, window: { startLine: 2, endLine: 4 } })).toMatchObject({
      kind: 'unique',
      span: { startLine: 3 },
    });
    expect(findMatch(file, ' x = 1 ', { ...ON, window: { startLine: 4, endLine: 5 } })).toMatchObject({
      kind: 'unique',
      rung: 'indent',
      span: { startLine: 5 },
    });
  });
  it('not found carries the closest span', () => {
    const m = findMatch(PY, 'def foo():\n    if steady:\n        walk()', ON);
    expect(m.kind).toBe('none');
    if (m.kind === 'none') expect(m.closest).toMatchObject({ startLine: 1, endLine: 3 });
  });
  it('toRungIds keeps known rung names only', () => {
    expect(toRungIds(['indent', 'bogus', 'anchors'])).toEqual(['indent', 'anchors']);
    expect(RUNG_ORDER[0]).toBe('exact');
  });
});

describe('notFoundText names only the rungs that ran', () => {
  it.each([
    [
      { tolerance: true, disabled: [] },
      'not even after ignoring trailing whitespace, indentation, blank lines and quote/dash style, nor by its first and last lines',
    ],
    [
      { tolerance: true, disabled: ['indent', 'anchors'] },
      'not even after ignoring trailing whitespace, blank lines and quote/dash style.',
    ],
    [
      { tolerance: true, disabled: ['trailing-ws', 'indent', 'blank-lines', 'quotes-dashes'] },
      'no exact match, not even by its first and last lines.',
    ],
    [
      { tolerance: true, disabled: ['trailing-ws', 'indent', 'blank-lines', 'quotes-dashes', 'anchors'] },
      'every looser rung is switched off (disabled_rungs), so old_str must match the file byte for byte',
    ],
    [{ tolerance: false, disabled: [] }, 'edit_tolerance is off, so old_str must match the file byte for byte'],
  ] as const)('%j', (tried, says) => {
    expect(notFoundText('a.js', 'x', undefined, tried)).toContain(says);
  });
});

describe('the tolerant rungs are bounded by MAX_TOLERANT_LINE_PAIRS', () => {
  const file = Array.from(
    { length: 15_000 },
    (_, i) => `    const value${i} = compute(alpha${i % 97}, beta${i % 89}, 'gamma');`,
  ).join('\n');
  const opts: LadderOptions = { tolerance: true, disabled: [] };

  it('an old text whose lines × the file lines pass the bound is searched exactly only: not found, no hint', () => {
    const missing = Array.from(
      { length: 3_000 },
      (_, i) => `    const value${i} = compute(alpha${i % 97}, beta${i % 89}, 'gamma')`,
    ).join('\n');
    expect(missing.split('\n').length * 15_000).toBeGreaterThan(MAX_TOLERANT_LINE_PAIRS);
    expect(findMatch(file, missing, opts)).toEqual({ kind: 'none' });
  });

  it('past the bound an exact match is still found', () => {
    const present = file.split('\n').slice(100, 3_100).join('\n');
    expect(findMatch(file, present, opts)).toMatchObject({ kind: 'unique', rung: 'exact' });
  });

  it('within the bound the ladder runs as before (a trailing-whitespace drift lands)', () => {
    const drifted = file
      .split('\n')
      .slice(10, 12)
      .map((l) => `${l}   `)
      .join('\n');
    expect(findMatch(file, drifted, opts)).toMatchObject({ kind: 'unique', rung: 'trailing-ws' });
  });
});
