import { describe, expect, it } from 'vitest';
import { firstFailures, improves, parseTestTally, tallyFromNotes, tallyNote } from './tally.ts';

const rows: { runner: string; output: string; passed: number; failed: number }[] = [
  {
    runner: 'vitest',
    output: ' Test Files  1 failed | 2 passed (3)\n      Tests  2 failed | 10 passed (12)\n   Start at 10:00',
    passed: 10,
    failed: 2,
  },
  {
    runner: 'vitest, coloured',
    output: '      Tests  \x1b[1m\x1b[32m5 passed\x1b[39m\x1b[22m (5)',
    passed: 5,
    failed: 0,
  },
  {
    runner: 'jest',
    output: 'Test Suites: 1 failed, 1 total\nTests:       1 failed, 3 passed, 4 total\nTime: 1s',
    passed: 3,
    failed: 1,
  },
  {
    runner: 'jest, with skipped and todo tests',
    output: 'Test Suites: 1 failed, 1 passed, 2 total\nTests:       1 failed, 1 skipped, 1 todo, 7 passed, 10 total\n',
    passed: 7,
    failed: 1,
  },
  {
    runner: 'pytest',
    output: 'FAILED test_x.py::test_a\n========= 1 failed, 3 passed in 0.12s =========',
    passed: 3,
    failed: 1,
  },
  { runner: 'pytest collection error', output: '===== 2 passed, 1 error in 0.30s =====', passed: 2, failed: 1 },
  { runner: 'mocha', output: '  3 passing (12ms)\n  1 failing\n', passed: 3, failed: 1 },
  { runner: 'node:test TAP', output: '# tests 4\n# suites 0\n# pass 3\n# fail 1\n# cancelled 0', passed: 3, failed: 1 },
  { runner: 'node:test spec', output: 'ℹ tests 2\nℹ pass 2\nℹ fail 0\n', passed: 2, failed: 0 },
  {
    runner: 'go test -v',
    output: '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.00s)\nFAIL',
    passed: 1,
    failed: 1,
  },
  { runner: 'the last summary wins', output: '1 failed, 1 passed\n...rerun...\n2 passed', passed: 2, failed: 0 },
];

describe('parseTestTally', () => {
  it.each(rows)('$runner', ({ output, passed, failed }) => {
    expect(parseTestTally(output, 'ws_test')).toEqual({ passed, failed, source: 'ws_test' });
  });

  it.each(['', 'src/index.js\nsrc/util.js', 'npm ERR! missing script: test'])('no summary in %j', (output) => {
    expect(parseTestTally(output, 'ws_shell')).toBeNull();
  });
});

describe('improves', () => {
  const t = (passed: number, failed: number) => ({ passed, failed, source: 'ws_test' });
  it.each([
    { now: t(3, 1), best: undefined, want: true },
    { now: t(3, 0), best: t(3, 1), want: true },
    { now: t(4, 1), best: t(3, 1), want: true },
    { now: t(3, 1), best: t(3, 1), want: false },
    { now: t(9, 2), best: t(3, 1), want: false },
  ])('$now.passed/$now.failed over $best', ({ now, best, want }) => expect(improves(now, best)).toBe(want));
});

/** Failure reports as each runner prints them, trimmed to what the extractor reads. */
const NODE_TAP = `TAP version 13
# Subtest: suite A
    # Subtest: inner fail
    not ok 2 - inner fail
      ---
      duration_ms: 1.7
      failureType: 'testCodeFailure'
      error: |-
        Expected values to be strictly equal:

        1 !== 2

      code: 'ERR_ASSERTION'
      ...
    1..1
not ok 1 - suite A
  ---
  type: 'suite'
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  ...
# Subtest: parent
    # Subtest: child fail
    not ok 1 - child fail
      ---
      error: 'boom'
      ...
    1..1
not ok 2 - parent
  ---
  failureType: 'subtestsFailed'
  error: '1 subtest failed'
  ...
not ok 3 - skipped one # SKIP
1..3
# pass 0
# fail 3`;

const failureRows: { runner: string; output: string; want: { name: string; detail: string[] }[] }[] = [
  {
    runner: 'node:test TAP: leaf failures only, with their error lines; suites and parents of failures left out',
    output: NODE_TAP,
    want: [
      { name: 'inner fail', detail: ['Expected values to be strictly equal:', '1 !== 2'] },
      { name: 'child fail', detail: ['boom'] },
    ],
  },
  {
    runner: 'vitest',
    output:
      ' FAIL  test/a.test.ts > math > adds\n ❯ test/a.test.ts (2 tests | 1 failed)\n   × adds 3ms\n     → expected 3 to be 4\n   ✓ subtracts',
    want: [{ name: 'adds', detail: ['→ expected 3 to be 4'] }],
  },
  {
    runner: 'jest',
    output:
      '  ● math › adds\n\n    expect(received).toBe(expected)\n\n    Expected: 4\n    Received: 3\n\n      at Object.<anonymous> (a.test.js:3:5)',
    want: [{ name: 'math › adds', detail: ['expect(received).toBe(expected)'] }],
  },
  {
    runner: 'jest (verbose: the ✕ line under its suite, then the ● block, one failure)',
    output:
      'FAIL test/a.test.js\n  math\n    ✓ subtracts (1 ms)\n    ✕ adds (3 ms)\n  ✕ top level (2 ms)\n\n  ● math › adds\n\n    expect(received).toBe(expected)\n',
    want: [
      { name: 'top level', detail: [] },
      { name: 'math › adds', detail: ['expect(received).toBe(expected)'] },
    ],
  },
  {
    runner: 'mocha',
    output:
      '  1 passing\n  1 failing\n\n  1) math\n       adds:\n     AssertionError: expected 3 to equal 4\n      at Context.<anonymous> (test/a.js:4:10)',
    want: [{ name: 'adds', detail: ['AssertionError: expected 3 to equal 4'] }],
  },
  {
    runner: 'pytest',
    output: 'FAILED tests/test_a.py::test_adds - assert 3 == 4\n===== 1 failed, 2 passed in 0.1s =====',
    want: [{ name: 'tests/test_a.py::test_adds', detail: ['assert 3 == 4'] }],
  },
  {
    runner: 'go test -v',
    output:
      '=== RUN   TestAdd\n    add_test.go:9: got 3, want 4\n--- FAIL: TestAdd (0.00s)\n    add_test.go:12: also wrong\nFAIL',
    want: [{ name: 'TestAdd', detail: ['add_test.go:12: also wrong'] }],
  },
  { runner: 'no failures', output: 'ok 1 - adds\n# pass 1\n# fail 0', want: [] },
];

describe('firstFailures', () => {
  it.each(failureRows)('$runner', ({ output, want }) => {
    expect(
      firstFailures(output, 5).map((f) => ({ name: f.name, detail: [...f.detail].filter((d) => d !== '') })),
    ).toEqual(want);
  });

  it('stops at the limit and names each failure once', () => {
    const output = ['not ok 1 - a', 'not ok 2 - b', 'not ok 3 - a', 'not ok 4 - c'].join('\n');
    expect(firstFailures(output, 2).map((f) => f.name)).toEqual(['a', 'b']);
    expect(firstFailures(output, 9).map((f) => f.name)).toEqual(['a', 'b', 'c']);
  });
});

describe('the tally as a note', () => {
  it('round-trips through tallyNote and tallyFromNotes, and other notes are ignored', () => {
    const note = tallyNote({ passed: 8, failed: 1, source: 'ws_test' });
    expect(note).toEqual({ kind: 'hint', text: 'test tally: 8 passed, 1 failed', detail: 'tally:8/1' });
    expect(tallyFromNotes([{ kind: 'hint', text: 'x', detail: 'no-test-command' }, note], 'ws_shell')).toEqual({
      passed: 8,
      failed: 1,
      source: 'ws_shell',
    });
    expect(tallyFromNotes([{ kind: 'shell', text: 'x', detail: 'tally:1/1' }], 'ws_test')).toBeNull();
  });
});
