import { describe, expect, it } from 'vitest';
import { closestSpan, lineSimilarity, similarity } from './fuzzy.ts';
import { LineTable } from './ladder/lines.ts';

describe('similarity (bigram Dice)', () => {
  const rows: [string, string, number, number][] = [
    ['equal', 'equal', 1, 1],
    ['night', 'nacht', 0.2, 0.3],
    ['abc', 'xyz', 0, 0],
    ['a', 'b', 0, 0],
    ['const value = compute(1);', 'const valu = compute(1);', 0.9, 1],
  ];
  it.each(rows)('%s ~ %s', (a, b, lo, hi) => {
    const s = similarity(a, b);
    expect(s).toBeGreaterThanOrEqual(lo);
    expect(s).toBeLessThanOrEqual(hi);
  });
});

describe('lineSimilarity (edit distance)', () => {
  const rows: [string, string, number, number][] = [
    ['return', 'retrn', 0.8, 0.9],
    ['return', 'return', 1, 1],
    ['}', 'x = 1', 0, 0.2],
  ];
  it.each(rows)('%s ~ %s', (a, b, lo, hi) => {
    const s = lineSimilarity(a, b);
    expect(s).toBeGreaterThanOrEqual(lo);
    expect(s).toBeLessThanOrEqual(hi);
  });
  it('returns 0 below the floor', () => {
    expect(lineSimilarity('abcdef', 'uvwxyz', 0.5)).toBe(0);
  });
});

describe('closestSpan', () => {
  const file = new LineTable(
    [
      'import os',
      '',
      'def load(path):',
      '    with open(path) as f:',
      '        return f.read()',
      '',
      'def save(path, data):',
      '    pass',
      '',
    ].join('\n'),
  );
  const rows: { name: string; old: string[]; start?: number; end?: number }[] = [
    {
      name: 'a near miss points at its lines',
      old: ['def lod(path):', '    with open(path) as fh:', '        return fh.read()'],
      start: 3,
      end: 5,
    },
    { name: 'one drifted line', old: ['def save(path, data)'], start: 7, end: 7 },
    { name: 'nothing alike', old: ['SELECT * FROM users;'] },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    const c = closestSpan(file, r.old);
    if (r.start === undefined) expect(c).toBeUndefined();
    else expect(c).toMatchObject({ startLine: r.start, endLine: r.end });
  });
  it('stays inside a window', () => {
    expect(closestSpan(file, ['def load(path):'])).toMatchObject({ startLine: 3 });
    expect(closestSpan(file, ['def load(path):'], 5, 8)).toMatchObject({ startLine: 7 });
  });
});
