import { describe, expect, it } from 'vitest';
import { indentationFits, indentStyle, makeReindent, type IndentPair } from './indent.ts';

const pair = (from: string, to: string): IndentPair => ({ from, to });
const SPACES4 = () => ({ tabs: false, unit: 4 });

describe('indentationFits', () => {
  const rows: { name: string; pairs: IndentPair[]; flat: boolean; fits: boolean }[] = [
    { name: 'one shift for every line', pairs: [pair('', '    '), pair('    ', '        ')], flat: false, fits: true },
    { name: 'tabs for 4 spaces', pairs: [pair('\t', '    '), pair('\t\t', '        ')], flat: false, fits: true },
    {
      name: 'spaces for tabs, shifted a level',
      pairs: [pair('  ', '\t\t'), pair('    ', '\t\t\t')],
      flat: false,
      fits: true,
    },
    {
      name: 'an inner brace for an outer one',
      pairs: [pair('    ', '    '), pair('  ', '    ')],
      flat: false,
      fits: false,
    },
    { name: 'flattened old_str, accepted', pairs: [pair('', '  '), pair('', '    ')], flat: true, fits: true },
    { name: 'flattened old_str, not accepted', pairs: [pair('', '  '), pair('', '    ')], flat: false, fits: false },
    { name: 'one line', pairs: [pair('', '\t\t')], flat: false, fits: true },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    expect(indentationFits(r.pairs, r.flat)).toBe(r.fits);
  });
});

describe('makeReindent', () => {
  const rows: { name: string; pairs: IndentPair[]; lines: string[]; want: string[] | null }[] = [
    { name: 'no drift: used as written', pairs: [pair('  ', '  ')], lines: ['  a'], want: null },
    {
      name: 'shift +4, deeper line extrapolated',
      pairs: [pair('', '    '), pair('  ', '      ')],
      lines: ['a', '  b', '    c'],
      want: ['    a', '      b', '        c'],
    },
    {
      name: 'dedent, shallower line clamps at column 0',
      pairs: [pair('        ', '    ')],
      lines: ['        a', '    b', 'c'],
      want: ['    a', 'b', 'c'],
    },
    { name: 'tabs to 4 spaces', pairs: [pair('\t', '    ')], lines: ['\ta', '\t\tb'], want: ['    a', '        b'] },
    {
      name: 'spaces to tabs',
      pairs: [pair('    ', '\t'), pair('        ', '\t\t')],
      lines: ['    a', '            b'],
      want: ['\ta', '\t\t\tb'],
    },
    {
      name: 'flattened: the first occurrence wins',
      pairs: [pair('', '  '), pair('', '    ')],
      lines: ['a', 'b'],
      want: ['  a', '  b'],
    },
    { name: 'blank lines untouched', pairs: [pair('', '    ')], lines: ['a', '', '  '], want: ['    a', '', '  '] },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', (_n, r) => {
    const f = makeReindent(r.pairs, r.lines, SPACES4);
    if (r.want === null) expect(f).toBeNull();
    else expect(r.lines.map(f!)).toEqual(r.want);
  });
});

describe('indentStyle', () => {
  it.each([
    ['tabs', ['\ta', '\t\tb'], { tabs: true, unit: 4 }],
    ['2-space', ['  a', '    b', '  c'], { tabs: false, unit: 2 }],
    ['4-space with a comment continuation', ['    a', '     * b', '        c'], { tabs: false, unit: 4 }],
  ] as const)('%s', (_n, lines, want) => {
    expect(indentStyle(lines)).toEqual(want);
  });
});
