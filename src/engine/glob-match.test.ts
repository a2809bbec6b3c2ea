/**
 * globMatcher against picomatch, differentially: on every generated pattern and walked path both
 * agree (picomatch is fast on these short inputs), and where picomatch backtracks for a minute
 * the RE2 matcher answers at once.
 */
import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { globMatcher, isGlobRefusal, type GlobMatcher } from './glob-match.ts';

const PIECES = [
  'a',
  'b',
  '.',
  '/',
  '*',
  '**',
  '?',
  '[ab]',
  '[!a]',
  '{a,b}',
  '{x,a/b}',
  '+(a|b)',
  '@(a)',
  '*(b)',
  '?(a)',
  '\\*',
];
const SEGMENTS = ['a', 'b', 'ab', 'ba', '.a', 'a.b', 'a.', '..a', 'aa', '*', 'b.b', '.'.concat('b.')];

const pattern = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 6 }).map((p) => p.join(''));
const path = fc.array(fc.constantFrom(...SEGMENTS), { minLength: 1, maxLength: 4 }).map((s) => s.join('/'));

function matcher(p: string, basename: boolean): GlobMatcher {
  const m = globMatcher(p, { basename });
  if (isGlobRefusal(m)) throw new Error(m.refused);
  return m;
}

describe('globMatcher', () => {
  it('agrees with picomatch on every generated pattern and path', () => {
    fc.assert(
      fc.property(pattern, fc.array(path, { minLength: 1, maxLength: 8 }), fc.boolean(), (p, paths, basename) => {
        const pico = picomatch(p, { dot: true, basename });
        const ours = matcher(p, basename);
        for (const x of paths) expect([p, x, ours(x)]).toEqual([p, x, pico(x)]);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['*a*a*a*a*a*a*a*b', 'a'.repeat(60)],
    ['**/*a*a*a*a*a*a*a*a*a*b', `src/${'a'.repeat(250)}`],
    ['+(a|aa)+(a|aa)*b', 'a'.repeat(200)],
  ])('answers %s against a long name at once (picomatch backtracks for minutes)', (p, name) => {
    const t = performance.now();
    expect(matcher(p, false)(name)).toBe(false);
    expect(performance.now() - t).toBeLessThan(1000);
  });

  it('refuses a negated group, which needs a lookaround, with what to do instead', () => {
    const m = globMatcher('!(x).ts');
    expect(isGlobRefusal(m) && m.refused).toMatch(/negated group "!\(…\)".*name what to match instead/);
  });
});
