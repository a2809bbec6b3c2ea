/**
 * The rules of the Jest-style runner, one row each: the spec files, the command, the report
 * lines that must appear in order (and text that must not), Jest's summary line and the exit code. The same table runs
 * against the browser sandbox (src/workspace/memory/jest-runner.test.ts) and the runner on a
 * Node host (src/workspace/node/host-jest.test.ts): one runner, two places.
 */
import { expect } from 'vitest';
import { parseTestTally } from '../../src/engine/tally.ts';
import type { ExecResult } from '../../src/engine/workspace.ts';

export interface JestRunnerRow {
  readonly what: string;
  readonly files: Readonly<Record<string, string>>;
  readonly argv?: readonly string[];
  /** Lines that must appear, in this order. */
  readonly lines: readonly string[];
  /** Text that must not appear anywhere in the output. */
  readonly absent?: readonly string[];
  readonly tests: string;
  readonly exit: number;
}

export const JEST_RUNNER_ROWS: readonly JestRunnerRow[] = [
  {
    what: 'test, it, xtest, xit, test.skip and test.todo',
    files: {
      'a.test.js': `test('one', () => { expect(1 + 1).toBe(2); });
it('two', () => { expect([1, 2]).toEqual([1, 2]); });
xtest('three', () => { throw new Error('never'); });
xit('four', () => { throw new Error('never'); });
test.skip('five', () => {});
test.todo('six');
`,
    },
    lines: [
      'PASS a.test.js',
      '  ✓ one (',
      '  ✓ two (',
      '  ○ skipped three',
      '  ○ skipped four',
      '  ○ skipped five',
      '  ✎ todo six',
    ],
    tests: '3 skipped, 1 todo, 2 passed, 6 total',
    exit: 0,
  },
  {
    what: 'a failing expect: the failure under ● with the matcher message and the spec frame',
    files: {
      'math.spec.js': `describe('math', () => {\n  it('adds', () => {\n    expect(1 + 1).toBe(3);\n  });\n});\n`,
    },
    lines: [
      'FAIL math.spec.js',
      '  math',
      '    ✕ adds (',
      '  ● math › adds',
      '    expect(received).toBe(expected) // Object.is equality',
      '    Expected: 3',
      '    Received: 2',
      '/ws/math.spec.js:3:19',
      'Test Suites: 1 failed, 1 total',
    ],
    tests: '1 failed, 1 total',
    exit: 1,
  },
  {
    what: '.only in a file skips the rest of that file (describe.only and fit too)',
    files: {
      'o.test.js': `test('a', () => {});\ntest.only('b', () => {});\ndescribe.only('d', () => { it('c', () => {}); });\nfit('e', () => {});\n`,
      'p.test.js': `test('other file', () => {});\n`,
    },
    lines: [
      'PASS o.test.js',
      '  ○ skipped a',
      '  ✓ b (',
      '  d',
      '    ✓ c (',
      '  ✓ e (',
      'PASS p.test.js',
      '  ✓ other file (',
    ],
    tests: '1 skipped, 4 passed, 5 total',
    exit: 0,
  },
  {
    what: 'test.each with rows of arrays, single values, objects and a tagged template; describe.each',
    files: {
      'e.test.js': `test.each([[1, 2, 3], [2, 2, 4]])('add(%i, %i) = %i', (a, b, s) => expect(a + b).toBe(s));
test.each([1, 2])('single %s (#%#)', (n) => expect(n).toBeGreaterThan(0));
test.each([{ a: 1, b: { c: 'x' } }])('object $a $b.c', ({ a }) => expect(a).toBe(1));
test.each\`
  a    | b    | sum
  \${1} | \${1} | \${2}
  \${2} | \${3} | \${6}
\`('template $a + $b = $sum', ({ a, b, sum }) => expect(a + b).toBe(sum));
describe.each([['x'], ['y']])('block %s', (name) => { test('has a name', () => expect(name).toHaveLength(1)); });
`,
    },
    lines: [
      '  ✓ add(1, 2) = 3 (',
      '  ✓ add(2, 2) = 4 (',
      '  ✓ single 1 (#0) (',
      '  ✓ single 2 (#1) (',
      "  ✓ object 1 'x' (",
      '  ✓ template 1 + 1 = 2 (',
      '  ✕ template 2 + 3 = 6 (',
      '  block x',
      '    ✓ has a name (',
      '  block y',
      '  ● template 2 + 3 = 6',
    ],
    tests: '1 failed, 8 passed, 9 total',
    exit: 1,
  },
  {
    what: 'hooks run in Jest order: beforeAll once, beforeEach outer first, afterEach inner first, afterAll once',
    files: {
      'h.test.js': `const log = [];
beforeAll(() => log.push('all'));
beforeEach(() => log.push('each'));
afterEach(() => log.push('/each'));
describe('inner', () => {
  beforeEach(() => log.push('inner-each'));
  afterEach(() => log.push('/inner-each'));
  test('t1', () => log.push('t1'));
});
afterAll(() => console.log(log.join(' ')));
test('t2', () => log.push('t2'));
`,
    },
    lines: ['all each inner-each t1 /inner-each /each each t2 /each'],
    tests: '2 passed, 2 total',
    exit: 0,
  },
  {
    what: 'a failing beforeAll fails every test under it',
    files: {
      'b.test.js': `describe('d', () => {\n  beforeAll(() => { throw new Error('setup broke'); });\n  test('x', () => {});\n  test('y', () => {});\n});\ntest('z', () => {});\n`,
    },
    lines: ['    ✕ x', '    ✕ y', '  ✓ z (', '  ● d › x', '    setup broke'],
    tests: '2 failed, 1 passed, 3 total',
    exit: 1,
  },
  {
    what: 'done callbacks, async tests, resolves and rejects',
    files: {
      'd.test.js': `test('done', (done) => { setTimeout(done, 5); });
test('done with an error', (done) => { setTimeout(() => done(new Error('late failure')), 5); });
test('async', async () => { await expect(Promise.resolve(2)).resolves.toBe(2); });
test('rejects', () => expect(Promise.reject(new Error('no'))).rejects.toThrow('no'));
`,
    },
    lines: ['  ✓ done (', '  ✕ done with an error (', '  ✓ async (', '  ✓ rejects (', '    late failure'],
    tests: '1 failed, 3 passed, 4 total',
    exit: 1,
  },
  {
    what: 'a test whose promise never settles fails at the test timeout, and the run goes on',
    files: {
      't.test.js': `jest.setTimeout(200);\ntest('hangs', () => new Promise(() => {}));\ntest('own timeout', () => new Promise(() => {}), 100);\ntest('after', () => {});\n`,
    },
    lines: [
      '  ✕ hangs (',
      '  ✕ own timeout (',
      '  ✓ after (',
      '    Exceeded timeout of 200 ms for a test.',
      '    Exceeded timeout of 100 ms for a test.',
    ],
    tests: '2 failed, 1 passed, 3 total',
    exit: 1,
  },
  {
    what: "Jest's matchers: toEqual, toStrictEqual, toThrow, toBeCloseTo, toMatchObject, toContain, asymmetric matchers, jest.fn",
    files: {
      'm.test.js': `test('matchers', () => {
  expect({ a: [1, { b: 2 }] }).toEqual({ a: [1, { b: 2 }] });
  expect(() => { throw new TypeError('bad input'); }).toThrow(TypeError);
  expect(() => { throw new Error('bad input'); }).toThrow(/bad/);
  expect(0.1 + 0.2).toBeCloseTo(0.3, 5);
  expect({ a: 1, b: { c: 2, d: 3 } }).toMatchObject({ b: { c: 2 } });
  expect([1, 2, 3]).toContain(2);
  expect({ id: 7, at: new Date() }).toEqual({ id: expect.any(Number), at: expect.anything() });
  const f = jest.fn((x) => x * 2);
  f(3);
  expect(f).toHaveBeenCalledWith(3);
  expect(f).toHaveReturnedWith(6);
});
test('Jest 29 aliases', async () => {
  const f = jest.fn();
  f(1);
  expect(f).toBeCalledWith(1);
  expect(f).toReturn();
  expect(() => { throw new Error('old name'); }).toThrowError('old name');
  await expect(Promise.reject(new Error('late'))).rejects.toThrowError('late');
});
test('toStrictEqual tells undefined fields apart', () => {
  expect({ a: 1, b: undefined }).toStrictEqual({ a: 1 });
});
`,
    },
    lines: [
      '  ✓ matchers (',
      '  ✓ Jest 29 aliases (',
      '  ✕ toStrictEqual tells undefined fields apart (',
      'expect(received).toStrictEqual(expected) // deep equality',
    ],
    tests: '1 failed, 2 passed, 3 total',
    exit: 1,
  },
  {
    what: 'expect.assertions counts the assertions a test made',
    files: { 'a.test.js': `test('two expected', () => { expect.assertions(2); expect(1).toBe(1); });\n` },
    lines: ['  ✕ two expected (', 'Expected two assertions to be called but received one assertion call.'],
    tests: '1 failed, 1 total',
    exit: 1,
  },
  {
    what: '@jest/globals and vitest are importable, ES modules and CommonJS alike',
    files: {
      'j.test.js': `import { describe, it, expect, jest } from '@jest/globals';\ndescribe('j', () => it('works', () => expect(jest.fn()).not.toHaveBeenCalled()));\n`,
      'v.spec.mjs': `import { test, expect, vi } from 'vitest';\ntest('vitest', () => { const f = vi.fn(); f(); expect(f).toHaveBeenCalledTimes(1); });\n`,
      'c.test.cjs': `const { test, expect } = require('@jest/globals');\ntest('cjs', () => expect(require('./lib')).toEqual({ x: 1 }));\n`,
      'lib/index.js': 'module.exports = { x: 1 };\n',
    },
    lines: ['PASS c.test.cjs', 'PASS j.test.js', 'PASS v.spec.mjs'],
    tests: '3 passed, 3 total',
    exit: 0,
  },
  {
    what: 'a spec that fails to load is a failed suite with the error, and the others still run',
    files: {
      'a.test.js': `import { nope } from './missing';\ntest('x', () => {});\n`,
      'b.test.js': "test('y', () => {});\n",
    },
    lines: [
      'FAIL a.test.js',
      '  ● Test suite failed to run',
      "Cannot find module '/ws/missing' imported from /ws/a.test.js",
      'PASS b.test.js',
      'Test Suites: 1 failed, 1 passed, 2 total',
    ],
    tests: '1 passed, 1 total',
    exit: 1,
  },
  {
    what: '-t runs only the tests whose full name matches; the rest are skipped',
    files: {
      'a.test.js': `describe('math', () => { test('adds', () => {}); test('subtracts', () => { throw new Error('x'); }); });\n`,
    },
    argv: ['jest', '-t', 'math adds'],
    lines: ['    ✓ adds (', '    ○ skipped subtracts'],
    tests: '1 skipped, 1 passed, 2 total',
    exit: 0,
  },
  {
    what: "jest's positional words are regexes on the spec paths",
    files: { 'src/a.test.js': "test('a', () => {});\n", 'src/b.test.js': "test('b', () => { throw 1; });\n" },
    argv: ['jest', 'src/a'],
    lines: ['PASS src/a.test.js'],
    tests: '1 passed, 1 total',
    exit: 0,
  },
  {
    what: 'vitest run, with a file filter',
    files: { 'x.spec.js': "test('x', () => {});\n", 'y.spec.js': "test('y', () => {});\n" },
    argv: ['vitest', 'run', 'y.spec'],
    lines: ['PASS y.spec.js'],
    tests: '1 passed, 1 total',
    exit: 0,
  },
  {
    what: "mocha runs ./test with describe/it and mocha's before/after hooks",
    files: {
      'test/a.js': `const assert = require('node:assert');\nlet n = 0;\nbefore(() => { n = 1; });\ndescribe('m', () => { it('sees before', () => assert.strictEqual(n, 1)); });\n`,
    },
    argv: ['mocha'],
    lines: ['PASS test/a.js', '  m', '    ✓ sees before ('],
    tests: '1 passed, 1 total',
    exit: 0,
  },
  {
    what: 'process.exit in a test fails that test and stops the run; the summary still counts the tests that ran',
    files: {
      'a.test.js': "test('first', () => {});\ntest('exits', () => { process.exit(0); });\ntest('after', () => {});\n",
      'b.test.js': "test('in b', () => {});\n",
    },
    lines: [
      'FAIL a.test.js',
      '  ✓ first (',
      '  ✕ exits (',
      '  ● exits',
      '    process.exit(0) was called while this test ran: the run stopped here, and no test after it ran.',
      'Test Suites: 1 failed, 1 total',
    ],
    absent: ['after (', 'in b'],
    tests: '1 failed, 1 passed, 2 total',
    exit: 1,
  },
  {
    what: 'process.exit after an await in a test is that test failing too; no afterAll runs after it',
    files: {
      'a.test.js': `describe('d', () => {
  afterAll(() => { console.log('afterAll ran'); });
  test('waits, then exits', async () => { await new Promise((r) => setTimeout(r, 5)); process.exit(2); });
});
`,
    },
    lines: [
      'FAIL a.test.js',
      '    ✕ waits, then exits (',
      '  ● d › waits, then exits',
      '    process.exit(2) was called',
    ],
    absent: ['afterAll ran'],
    tests: '1 failed, 1 total',
    exit: 1,
  },
  {
    what: "process.exit while a file loads fails that file; earlier files' tests are counted and no later file runs",
    files: {
      'a.test.js': "test('in a', () => {});\n",
      'b.test.js': "test('in b', () => {});\nprocess.exit(3);\n",
      'c.test.js': "test('in c', () => {});\n",
    },
    lines: [
      'PASS a.test.js',
      'FAIL b.test.js',
      '  ● Test suite failed to run',
      "process.exit(3) was called while this file's tests ran: the file counts as failed, and no test after it ran",
      'Test Suites: 1 failed, 1 passed, 2 total',
    ],
    absent: ['c.test.js'],
    tests: '1 passed, 1 total',
    exit: 1,
  },
];

/** The summary's Tests line, as Jest prints it. */
function testsLine(output: string): string | undefined {
  return /^Tests: +(.*)$/m.exec(output)?.[1];
}

/** Checks a run against its row: the lines in order, the summary, the exit code, and the tally parser's reading of it. */
export function expectRow(r: ExecResult, row: JestRunnerRow): void {
  let at = 0;
  for (const line of row.lines) {
    const found = r.output.indexOf(line, at);
    expect(found, `${JSON.stringify(line)} after offset ${at} in:\n${r.output}`).toBeGreaterThanOrEqual(0);
    at = found + line.length;
  }
  for (const text of row.absent ?? []) expect(r.output, `${JSON.stringify(text)} must not appear`).not.toContain(text);
  expect(testsLine(r.output), r.output).toBe(row.tests);
  expect(r.exitCode, r.output).toBe(row.exit);
  // The tally parser reads Jest's summary to the counts the runner printed.
  const tally = parseTestTally(r.output, 'ws_test');
  expect(tally && { passed: tally.passed, failed: tally.failed }).toEqual({
    passed: Number(/(\d+) passed/.exec(row.tests)?.[1] ?? 0),
    failed: Number(/(\d+) failed/.exec(row.tests)?.[1] ?? 0),
  });
}
