import { describe, expect, it } from 'vitest';
import { RE2JS } from 're2js';
import { requiredLiteral } from './grep-literal.ts';

/** Pattern → the literal every match must contain (null: none is claimed), with a text that matches. */
const CASES: ReadonlyArray<[string, string | null, string]> = [
  ['computeChecksum\\(', 'computeChecksum(', 'x = computeChecksum(items)'],
  ['function main', 'function main', 'export function main() {'],
  ['foo.*barbaz', 'barbaz', 'foo and barbaz'],
  ['colou?r', 'colo', 'color'],
  ['ab+c', 'ab', 'abbbc'],
  ['a{2}bc', 'bc', 'aabc'],
  ['x(abc)*yz', 'yz', 'xyz'],
  ['(foo)bar', 'bar', 'foobar'],
  ['[)(]+value', 'value', '(value'],
  ['\\bclass\\s+Foo', 'class', 'class   Foo'],
  ['^import ', 'import ', 'import x'],
  ['\\d+px', 'px', '12px'],
  ['😀?smile', 'smile', 'smile'],
  ['cat|dog', null, 'dog'],
  ['(?i)Hello', null, 'hello'],
  ['\\x41BC', null, 'ABC'],
  ['\\p{Greek}alpha', null, 'αalpha'],
  ['.*', null, 'anything'],
];

describe('requiredLiteral', () => {
  it.each(CASES)('%s → %s', (pattern, literal, text) => {
    expect(requiredLiteral(pattern)).toBe(literal);
    // The claim holds: the text matches and contains the literal.
    expect(RE2JS.compile(pattern).test(text)).toBe(true);
    if (literal !== null) expect(text).toContain(literal);
  });
});
