/**
 * The segment matcher the runners expand patterns with, against real bash: for generated
 * pattern/name pairs, `segmentMatcher(p)(name)` must equal bash's `[[ $name == $p ]]` (LC_ALL=C,
 * the pattern unquoted so it is a pattern). And patterns that make a backtracking matcher take
 * minutes (`*a*a*a*a*a*a*a*a*a*a*b` on a long name of `a`s) are answered like any other.
 */
import { execFileSync } from 'node:child_process';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { segmentMatcher } from '../../src/engine/shell/pattern.ts';

/** bash's verdicts for many pairs in one process: one line of 1 or 0 per pair. */
function bashMatches(pairs: readonly (readonly [pattern: string, name: string])[]): boolean[] {
  const script = 'while IFS= read -r p && IFS= read -r n; do if [[ $n == $p ]]; then echo 1; else echo 0; fi; done';
  const input = pairs.map(([p, n]) => `${p}\n${n}\n`).join('');
  const out = execFileSync('/bin/bash', ['--norc', '--noprofile', '-c', script], {
    input,
    env: { PATH: '/usr/bin:/bin', LC_ALL: 'C' },
    encoding: 'utf8',
  });
  return out
    .split('\n')
    .filter(Boolean)
    .map((l) => l === '1');
}

const PIECES = [
  '*',
  '?',
  'a',
  'b',
  '.',
  '-',
  '[ab]',
  '[!a]',
  '[^b]',
  '[a-c]',
  '[[:digit:]]',
  '[[:alpha:]]',
  '[]a]',
  '[',
  ']',
  '\\*',
  '\\?',
  '\\[',
  '1',
  'é',
];
const NAME_CHARS = ['a', 'b', 'c', '.', '-', '1', '*', '?', '[', ']', 'é', 'A'];

const pattern = fc.array(fc.constantFrom(...PIECES), { minLength: 1, maxLength: 7 }).map((ps) => ps.join(''));
const name = fc.array(fc.constantFrom(...NAME_CHARS), { minLength: 0, maxLength: 8 }).map((cs) => cs.join(''));

describe('segmentMatcher agrees with bash', () => {
  it('on 600 generated pattern/name pairs (fixed seed)', () => {
    const pairs = fc.sample(fc.tuple(pattern, name), { numRuns: 600, seed: 20261201 });
    const expected = bashMatches(pairs);
    expect(expected).toHaveLength(pairs.length);
    const differ = pairs
      .filter(([p, n], i) => segmentMatcher(p)(n) !== expected[i])
      .map(([p, n], i) => `${p} vs ${n}: bash ${expected[i]}`);
    expect(differ).toEqual([]);
    // Both verdicts occur, so the comparison means something.
    expect(new Set(expected).size).toBe(2);
  });

  it.each([
    ['[z-a]', 'z'],
    ['[z-a]*', 'zebra'],
    ['x[a-\\]]', 'x]'],
    ['[a-[:digit:]]', 'a'],
  ])('a bracket bash reads as matching nothing, or otherwise: %s vs %s agrees with bash, no error', (p, n) => {
    expect(segmentMatcher(p)(n)).toBe(bashMatches([[p, n]])[0]);
  });

  it.each([
    ['*a*a*a*a*a*a*a*a*a*a*b', 'a'.repeat(60), false],
    ['*a*a*a*a*a*a*a*a*a*a*a', 'a'.repeat(60), true],
    [`${'*?'.repeat(200)}x`, 'y'.repeat(250), false],
    [`${'*[ab]'.repeat(100)}c`, 'ab'.repeat(120), false],
  ])('a pattern that makes backtracking explode: %s', (p, n, expected) => {
    expect(segmentMatcher(p)(n)).toBe(expected);
    expect(bashMatches([[p, n]])).toEqual([expected]);
  });
});
