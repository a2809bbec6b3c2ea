import { describe, expect, it } from 'vitest';
import { gutterExample, scanGutter, stripMatchingGutter } from './gutter.ts';

describe('scanGutter: a gutter on every non-blank line is stripped', () => {
  const rows: { style: string; text: string; stripped: string }[] = [
    { style: 'pipe', text: '    41|def f():\n    42|    return 1', stripped: 'def f():\n    return 1' },
    { style: 'pipe', text: '41|a\n42|\n43|b', stripped: 'a\n\nb' },
    { style: 'roo', text: ' 41 | def f():\n 42 | \n 43 |     return 1', stripped: 'def f():\n\n    return 1' },
    { style: 'tab', text: '    17\t# note\n    18\tx = 1', stripped: '# note\nx = 1' },
    { style: 'arrow', text: '   296→    a()\n   297→\n   298→    b()', stripped: '    a()\n\n    b()' },
    { style: 'colon', text: '12: first\n13: second', stripped: 'first\nsecond' },
    { style: 'pipe', text: '    41|a\n\n    43|b', stripped: 'a\n\nb' },
  ];
  it.each(rows.map((r) => [`${r.style}: ${JSON.stringify(r.text)}`, r] as const))('%s', (_n, r) => {
    expect(scanGutter(r.text)).toEqual({ kind: 'all', style: r.style, stripped: r.stripped });
  });
});

describe('scanGutter: a gutter on some lines only is partial', () => {
  const rows: { name: string; text: string; style: string; lines: number[] }[] = [
    { name: 'first line only', text: '    91|\t\t}\n\t\treturn nil\n\t}', style: 'pipe', lines: [0] },
    { name: 'some middle lines', text: 'a = 1\n    52|b = 2\n    53|c = 3\nd = 4', style: 'pipe', lines: [1, 2] },
    { name: 'roo style on one line', text: ' 10 | x()\ny()', style: 'roo', lines: [0] },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    expect(scanGutter(r.text)).toMatchObject({ kind: 'partial', style: r.style, lines: r.lines });
  });
});

describe('scanGutter: text that is not a gutter', () => {
  const rows: { name: string; text: string }[] = [
    { name: 'plain code', text: 'def f():\n    return 1' },
    { name: 'numbers out of order are not a read', text: '3|a\n1|b' },
    { name: 'a colon on some lines only is text (a dict)', text: '8080: "http"\nother' },
    { name: 'numbered on some lines, out of step with a read', text: '1|a\nb\n7|c' },
    { name: 'blank', text: '\n\n' },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    expect(scanGutter(r.text).kind).toBe('none');
  });
});

describe('stripMatchingGutter (new_str)', () => {
  const rows: { name: string; text: string; want: string }[] = [
    { name: 'every line', text: '  7|a\n  8|b', want: 'a\nb' },
    { name: 'an added line without a number', text: '  7|a\n  8|b\n  new', want: 'a\nb\n  new' },
    { name: 'no gutter: untouched', text: 'a\nb', want: 'a\nb' },
    { name: 'one numbered line among many is text', text: '1|x\na\nb\nc', want: '1|x\na\nb\nc' },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    expect(stripMatchingGutter(r.text, 'pipe')).toBe(r.want);
  });
});

describe('gutterExample', () => {
  it('shows the first gutter line before and after', () => {
    expect(gutterExample('x\n    52|  y = 2\n', 'pipe')).toEqual({ before: '    52|  y = 2', after: '  y = 2' });
    expect(gutterExample('x', 'pipe')).toBeUndefined();
  });
});
