import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Haystack } from './haystack.ts';
import { LineTable } from './lines.ts';
import { plainPunctuation, RUNG_RULES, verbatimCore } from './normalize.ts';

/** Pieces of lines: words, punctuation plain and typographic, and every kind of whitespace the keys trim. */
const piece = fc.constantFrom(
  'value',
  'x',
  '(a)',
  '=',
  '"',
  "'",
  '-',
  '.',
  '...',
  '“',
  '’',
  '—',
  '…',
  '\u00a0',
  ' ',
  '  ',
  '\t',
  '\r',
  '}',
);
const line = fc.array(piece, { maxLength: 6 }).map((ps) => ps.join(''));
const text = fc
  .tuple(fc.array(line, { maxLength: 14 }), fc.constantFrom('\n', '\r\n'), fc.boolean())
  .map(([ls, eol, final]) => ls.join(eol) + (final && ls.length ? eol : ''));
const rule = fc.constantFrom(...Object.values(RUNG_RULES));

describe('Haystack', () => {
  it('finds exactly the window lines a key-by-key scan finds, for every rung key', () => {
    fc.assert(
      fc.property(
        text,
        line,
        fc.constantFrom('own', 'plain', 'other'),
        rule,
        fc.nat(16),
        fc.nat(16),
        (t, other, pick, r, a, b) => {
          const table = new LineTable(t);
          // A line of the file's own (so some line has its key), written with plain punctuation, or any line.
          const own = table.count > 0 ? table.line(b % table.count) : other;
          const target = pick === 'own' ? own : pick === 'plain' ? plainPunctuation(own) : other;
          const first = Math.min(a, Math.max(table.count - 1, 0));
          const last = Math.min(Math.max(first, b), Math.max(table.count - 1, 0));
          const key = r.key(target);
          const want: number[] = [];
          for (let i = first; i <= last; i++) if (r.key(table.line(i)) === key) want.push(i);
          expect(new Haystack(table, first, last).linesKeyed(r.key, key)).toEqual(want);
        },
      ),
    );
  });

  it('runs over the lines in a row, or over the non-blank ones, within the window', () => {
    const hay = new Haystack(new LineTable('a\n\n  \nb\nc\n\nd\n'), 0, 5);
    expect(hay.run(0, 3, false)).toEqual([0, 1, 2]);
    expect(hay.run(0, 3, true)).toEqual([0, 3, 4]);
    expect(hay.run(3, 9, true)).toEqual([3, 4]);
    expect(hay.run(4, 9, false)).toEqual([4, 5]);
  });

  it('looks for the longest run of a key that no key rewrites, or for nothing when there is none', () => {
    expect(verbatimCore('value = request.get("field_150", 150)')).toBe('field_150');
    expect(verbatimCore('"""Handle it."""')).toBe('Handle');
    expect(verbatimCore('... -- ""')).toBe('');
  });
});
