/**
 * ws_grep's fast line search against its definition: on random texts (line breaks LF and CRLF,
 * stray CRs, a missing final break, astral characters) and random RE2 patterns (literals,
 * alternations in and out of groups, classes, anchors, `\A`/`\z`, inline flags, repeats), the
 * lines `matchingLines` finds are exactly those `simpleMatchingLines` finds by testing every line.
 * Plus the literal prefilter's own table: which patterns give which literals.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RE2JS } from 're2js';
import { lineMatcher, matchingLines, requiredLiterals, simpleMatchingLines } from './grep-lines.ts';

const text = fc
  .array(
    fc.string({
      maxLength: 12,
      unit: fc.constantFrom(
        'a',
        'b',
        'x',
        '1',
        ' ',
        '_',
        'A',
        'k',
        'S',
        '\u212a',
        '\u017f',
        'İ',
        '\r',
        'é',
        '😀',
        '|',
        '(',
      ),
    }),
    { maxLength: 8 },
  )
  .chain((lines) =>
    fc
      .tuple(fc.constantFrom('\n', '\r\n'), fc.constantFrom('', '\n', '\r\n', '\r'))
      .map(([eol, tail]) => lines.join(eol) + (lines.length ? tail : '')),
  );

const atom = fc.constantFrom(
  'a',
  'b',
  'ab',
  'x1',
  'A',
  'K',
  'as',
  'İ',
  'é',
  '😀',
  ' ',
  '.',
  '[ab]',
  '[^a]',
  '[[:digit:]]',
  '[[:alpha:]|x]',
  '\\d',
  '\\s',
  '\\w',
  '\\|',
  '\\(',
  '\\n',
  '\\r',
  '^',
  '$',
  '\\b',
  '\\B',
  '\\A',
  '\\z',
  '(?i)',
  '(?s)',
  '(?m)',
  '(?-m)',
);
const quantifier = fc.constantFrom('', '', '', '*', '+', '?', '{1,2}');
const pattern: fc.Arbitrary<string> = fc
  .letrec<{ seq: string; part: string }>((tie) => ({
    part: fc.oneof(
      { weight: 4, arbitrary: fc.tuple(atom, quantifier).map(([a, q]) => a + q) },
      {
        weight: 1,
        arbitrary: fc
          .tuple(fc.constantFrom('(', '(?:'), tie('seq'), tie('seq'), fc.constantFrom(')', ')?', ')*', ')+'))
          .map(([open, x, y, close]) => `${open}${x}|${y}${close}`),
      },
    ),
    seq: fc.array(tie('part'), { minLength: 1, maxLength: 4 }).map((parts) => parts.join('')),
  }))
  .seq.chain((seq) => fc.oneof(fc.constant(seq), seq.length < 30 ? fc.constant(`${seq}|x1`) : fc.constant(seq)));

function compiles(p: string, flags: number): boolean {
  try {
    RE2JS.compile(p, flags);
    return true;
  } catch {
    return false;
  }
}

describe('matchingLines', () => {
  it('finds exactly the lines a line-by-line test finds, for every pattern class', () => {
    fc.assert(
      fc.property(text, pattern, fc.boolean(), (t, p, caseInsensitive) => {
        const flags = caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
        fc.pre(compiles(p, flags));
        const m = lineMatcher(p, flags, null, caseInsensitive);
        expect(matchingLines(t, m)).toEqual(simpleMatchingLines(t, m.re));
      }),
      { numRuns: 3000 },
    );
  });

  it('finds exactly the same lines for a pattern searched as a literal string', () => {
    fc.assert(
      fc.property(text, pattern, (t, p) => {
        const m = lineMatcher(RE2JS.quote(p), 0, p, false);
        expect(matchingLines(t, m)).toEqual(simpleMatchingLines(t, m.re));
      }),
      { numRuns: 1000 },
    );
  });

  it.each([
    ['a match on the first line', 'x1\nab\n', 'x1', [0]],
    ['a line that starts with a line break', '\nab\nab', 'ab', [1, 2]],
    ['an empty line, and no line after the final break', 'a\n\n', '^$', [1]],
    ['a CR before the break is not part of the line', 'ab\r\nb\r\n', 'b$', [0, 1]],
    ['a CR at the very end is dropped too', 'a\nab\r', 'b$', [1]],
    ['a lone CR is a line, empty once the CR is dropped', '\r', '^$', [0]],
    ['a match across a line break is no line match', 'a\nb', 'a\\sb', []],
    ['\\A holds at every line start, as line by line', 'b\nab', '\\Aa', [1]],
  ])('%s', (_label, t, p, lines) => {
    const m = lineMatcher(p, 0, null, false);
    expect(matchingLines(t, m).map((h) => h.index)).toEqual(lines);
    expect(simpleMatchingLines(t, m.re).map((h) => h.index)).toEqual(lines);
  });
});

describe('ignoring case', () => {
  it.each<[string, string, number[]]>([
    ['a file without the literal in any case is passed over', 'module 6\nx', []],
    ['the literal in another case is found', 'x\n# MoDuLe 7', [1]],
  ])('%s', (_label, t, lines) => {
    const m = lineMatcher('MODULE 7', RE2JS.CASE_INSENSITIVE, null, true);
    expect(m.foldedAnyOf).toEqual(['module 7']);
    expect(matchingLines(t, m).map((h) => h.index)).toEqual(lines);
  });

  it.each([['kelvin'], ['class'], ['é1']])('%s folds beyond ASCII, so no lower-cased literal is used', (p) => {
    expect(lineMatcher(p, RE2JS.CASE_INSENSITIVE, null, true).foldedAnyOf).toBeNull();
    // The Kelvin sign and the long s match k and s when case is ignored.
    expect(RE2JS.compile('k', RE2JS.CASE_INSENSITIVE).test('\u212a')).toBe(true);
  });
});

describe('requiredLiterals', () => {
  it.each<[string, string[] | null]>([
    ['computeChecksum\\(', ['computeChecksum(']],
    ['render[0-9]+ = parse', [' = parse']],
    ['TODO|FIXME', ['TODO', 'FIXME']],
    ['(alpha|omega)', ['alpha', 'omega']],
    ['(?:alpha|omega)', ['alpha', 'omega']],
    ['((TODO|FIXME))', ['TODO', 'FIXME']],
    ['TODO:\\s|FIX[A-Z]+', ['TODO:', 'FIX']],
    // A repeated or optional group may match without either branch.
    ['(alpha|omega)?', null],
    ['(alpha|omega)*x', null],
    // A branch with no literal of its own gives none at all.
    ['TODO|[0-9]+', null],
    ['TODO|', null],
    // Groups side by side are not one group around the whole pattern.
    ['(a)|(b)', ['a', 'b']],
    ['(a)x|(b)', ['x', 'b']],
    // A pipe that is no alternation is still taken as one: no literal (never a wrong one).
    ['[|]x|y', null],
    ['\\|x', null],
  ])('%s → %j', (p, literals) => {
    expect(requiredLiterals(p)).toEqual(literals);
  });
});
