import { Parser, type Options } from 'acorn';
import { describe, expect, it } from 'vitest';
import { LinearScopeParser } from './acorn-scopes.ts';
import { checkJs } from './javascript.ts';
import { readJsonl } from '../../../tests/support/corpus.ts';

/** acorn's verdict on `text`: 'ok' or its error message. */
function verdict(P: typeof Parser, text: string, sourceType: Options['sourceType']): string {
  try {
    P.parse(text, { ecmaVersion: 'latest', sourceType });
    return 'ok';
  } catch (e) {
    return (e as Error).message;
  }
}

describe('acorn-scopes: the same verdicts as acorn', () => {
  // One row per branch of acorn's declareName / checkLocalExport.
  const cases: [string, string, Options['sourceType']][] = [
    ['let twice', 'let a; let a;', 'script'],
    ['let after var', 'var a; let a;', 'script'],
    ['var after let', 'let a; var a;', 'script'],
    ['var twice', 'var a; var a;', 'script'],
    ['let after function (script top)', 'function a() {} let a;', 'script'],
    ['function after let', 'let a; function a() {}', 'script'],
    ['function twice (script top)', 'function a() {} function a() {}', 'script'],
    ['function twice (module top)', 'function a() {} function a() {}', 'module'],
    ['function twice in a block (sloppy)', '{ function a() {} function a() {} }', 'script'],
    ['var in a block after a block function', '{ function a() {} var a; }', 'script'],
    ['var after function in a function', 'function f() { function a() {} var a; }', 'script'],
    ['var redeclaring a simple catch parameter', 'try {} catch (e) { var e; }', 'script'],
    ['let redeclaring a simple catch parameter', 'try {} catch (e) { let e; }', 'script'],
    ['var redeclaring a destructured catch parameter', 'try {} catch ([e]) { var e; }', 'script'],
    ['var climbing out of a block over a let', 'let a; { var a; }', 'script'],
    ['class twice', 'class A {} class A {}', 'module'],
    ['const in a nested scope', 'const a = 1; { const a = 2; }', 'module'],
    ['export of an undeclared name', 'export { b };', 'module'],
    ['export of a let', 'let b; export { b };', 'module'],
    ['export before the var', 'export { b }; var b;', 'module'],
    ['export before the let', 'export { b }; let b;', 'module'],
    ['parameter and let', 'function f(a) { let a; }', 'script'],
    ['static block var and let', 'class A { static { let a; var a; } }', 'module'],
    ['a var in a static block stops there', 'let a; class A { static { var a; } }', 'module'],
    ['a var in an arrow function stops there', 'let a; const f = () => { var a; };', 'module'],
    [
      'a var in a constructor (direct super) stops there',
      'let a; class B extends A { constructor() { super(); var a; } }',
      'module',
    ],
    [
      'a var in a switch case climbs to the function',
      'function f(x) { let a; switch (x) { case 1: var a; } }',
      'script',
    ],
  ];
  it.each(cases)('%s', (_name, text, sourceType) => {
    expect(verdict(LinearScopeParser, text, sourceType)).toBe(verdict(Parser, text, sourceType));
  });
});

describe('acorn-scopes: the same verdicts as acorn on every JavaScript text of the edits corpus', () => {
  const texts = [
    ...new Set(
      readJsonl<{ lang: string; file_text: string; expected_text?: string }>('edits-dev.jsonl')
        .filter((c) => c.lang === 'javascript')
        .flatMap((c) => [c.file_text, ...(c.expected_text === undefined ? [] : [c.expected_text])]),
    ),
  ];
  it(`${texts.length} texts, as modules and as scripts`, () => {
    expect(texts.length).toBeGreaterThan(20);
    for (const text of texts) {
      for (const sourceType of ['module', 'script'] as const)
        expect(verdict(LinearScopeParser, text, sourceType)).toBe(verdict(Parser, text, sourceType));
    }
  });
});

/**
 * Work of one parse, counted rather than timed: the elements `Array.prototype.indexOf` looks
 * through (acorn's scope lookups) plus one per `Set.prototype.has` (ours).
 */
function work(parse: () => unknown): number {
  const indexOf = Array.prototype.indexOf;
  const has = Set.prototype.has;
  let count = 0;
  Array.prototype.indexOf = function (this: unknown[], ...args: [unknown, number?]) {
    count += this.length;
    return indexOf.apply(this, args);
  };
  Set.prototype.has = function (this: Set<unknown>, value: unknown) {
    count++;
    return has.call(this, value);
  };
  try {
    parse();
  } finally {
    Array.prototype.indexOf = indexOf;
    Set.prototype.has = has;
  }
  return count;
}

describe('acorn-scopes: work is linear in the number of declarations', () => {
  const N = 2000;
  const texts: [string, (n: number) => string][] = [
    ['let', (n) => Array.from({ length: n }, (_, i) => `let v${i} = ${i};`).join('\n')],
    ['function', (n) => Array.from({ length: n }, (_, i) => `function f${i}() {}`).join('\n')],
    ['class', (n) => Array.from({ length: n }, (_, i) => `class C${i} {}`).join('\n')],
    ['var after lets', (n) => Array.from({ length: n }, (_, i) => `let l${i}; var v${i};`).join('\n')],
  ];
  it.each(texts)('%s: 4× the declarations cost under 5× the work in checkJs', (_name, make) => {
    const at = (n: number) => work(() => checkJs(make(n), 'module'));
    expect(at(4 * N) / at(N)).toBeLessThan(5);
  });
  it("acorn's own scopes are quadratic on the same text (what this plugin removes)", () => {
    const make = texts[0]![1];
    const at = (n: number) => work(() => Parser.parse(make(n), { ecmaVersion: 'latest', sourceType: 'module' }));
    expect(at(4 * N) / at(N)).toBeGreaterThan(10);
  });
});
