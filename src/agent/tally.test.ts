import { describe, expect, it } from 'vitest';
import { improves, parseTestTally } from './tally.ts';

const rows: { runner: string; output: string; passed: number; failed: number }[] = [
  { runner: 'vitest', output: ' Test Files  1 failed | 2 passed (3)\n      Tests  2 failed | 10 passed (12)\n   Start at 10:00', passed: 10, failed: 2 },
  { runner: 'vitest, coloured', output: '      Tests  \x1b[1m\x1b[32m5 passed\x1b[39m\x1b[22m (5)', passed: 5, failed: 0 },
  { runner: 'jest', output: 'Test Suites: 1 failed, 1 total\nTests:       1 failed, 3 passed, 4 total\nTime: 1s', passed: 3, failed: 1 },
  { runner: 'pytest', output: 'FAILED test_x.py::test_a\n========= 1 failed, 3 passed in 0.12s =========', passed: 3, failed: 1 },
  { runner: 'pytest collection error', output: '===== 2 passed, 1 error in 0.30s =====', passed: 2, failed: 1 },
  { runner: 'mocha', output: '  3 passing (12ms)\n  1 failing\n', passed: 3, failed: 1 },
  { runner: 'node:test TAP', output: '# tests 4\n# suites 0\n# pass 3\n# fail 1\n# cancelled 0', passed: 3, failed: 1 },
  { runner: 'node:test spec', output: 'ℹ tests 2\nℹ pass 2\nℹ fail 0\n', passed: 2, failed: 0 },
  { runner: 'go test -v', output: '=== RUN   TestA\n--- PASS: TestA (0.00s)\n=== RUN   TestB\n--- FAIL: TestB (0.00s)\nFAIL', passed: 1, failed: 1 },
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
