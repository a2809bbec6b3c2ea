/**
 * unittest's summary and failure reports in the tally: one row per summary form, then a
 * differential test against real CPython (random counts of passing, failing, erroring,
 * skipped and expected-failure tests, run by `python3 -m unittest`, parsed back).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import '../../tests/support/fast-check-seed.ts';
import { firstFailures, parseTestTally } from './tally.ts';

const rows: { form: string; output: string; passed: number; failed: number }[] = [
  {
    form: 'OK',
    output:
      '....\n----------------------------------------------------------------------\nRan 4 tests in 0.001s\n\nOK\n',
    passed: 4,
    failed: 0,
  },
  { form: 'one test', output: 'Ran 1 test in 0.000s\n\nOK', passed: 1, failed: 0 },
  {
    form: 'OK with skips and expected failures',
    output: 'Ran 6 tests in 0.010s\n\nOK (skipped=2, expected failures=1)\n',
    passed: 3,
    failed: 0,
  },
  { form: 'FAILED with failures', output: 'Ran 5 tests in 0.002s\n\nFAILED (failures=2)\n', passed: 3, failed: 2 },
  {
    form: 'FAILED with failures and errors',
    output: 'Ran 8 tests in 0.023s\n\nFAILED (failures=1, errors=1, skipped=1)\n',
    passed: 5,
    failed: 2,
  },
  {
    form: 'an unexpected success fails the run',
    output: 'Ran 3 tests in 0.001s\n\nFAILED (unexpected successes=1)\n',
    passed: 2,
    failed: 1,
  },
  { form: 'an import error is an error', output: 'Ran 1 test in 0.000s\n\nFAILED (errors=1)\n', passed: 0, failed: 1 },
  { form: 'no tests ran', output: 'Ran 0 tests in 0.000s\n\nNO TESTS RAN\n', passed: 0, failed: 0 },
  {
    form: 'the time dropped, as ws_test shows it',
    output: 'Ran 4 tests\n\nFAILED (failures=1)\n',
    passed: 3,
    failed: 1,
  },
  {
    form: 'the last summary wins',
    output: 'Ran 2 tests in 0.1s\n\nFAILED (failures=1)\n…\nRan 2 tests in 0.1s\n\nOK\n',
    passed: 2,
    failed: 0,
  },
];

describe('unittest summaries', () => {
  it.each(rows)('$form', ({ output, passed, failed }) => {
    expect(parseTestTally(output, 'ws_test')).toEqual({ passed, failed, source: 'ws_test' });
  });

  it('names each FAIL/ERROR test with its exception line', () => {
    const output = [
      '...F..Es',
      '======================================================================',
      'ERROR: test_float_text (test_calc.ParseTest.test_float_text)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/ws/tests/test_calc.py", line 31, in test_float_text',
      '    self.assertEqual(parse_number("2.5"), 2.5)',
      "ValueError: invalid literal for int() with base 10: '2.5'",
      '',
      '======================================================================',
      'FAIL: test_fraction (test_calc.MeanTest)',
      '----------------------------------------------------------------------',
      'Traceback (most recent call last):',
      '  File "/ws/tests/test_calc.py", line 19, in test_fraction',
      'AssertionError: 1 != 1.5',
      '',
      '----------------------------------------------------------------------',
      'Ran 8 tests in 0.023s',
    ].join('\n');
    expect(firstFailures(output, 5)).toEqual([
      {
        name: 'test_calc.ParseTest.test_float_text',
        detail: ["ValueError: invalid literal for int() with base 10: '2.5'"],
      },
      { name: 'test_calc.MeanTest.test_fraction', detail: ['AssertionError: 1 != 1.5'] },
    ]);
  });

  it("reads the summary's FAILED line as no test's name (pytest's FAILED lines name one)", () => {
    const output = [
      '.F',
      '======================================================================',
      'FAIL: test_fraction (test_grades.AverageTest.test_fraction)',
      '----------------------------------------------------------------------',
      'AssertionError: 87 != 87.5',
      '',
      '----------------------------------------------------------------------',
      'Ran 2 tests',
      '',
      'FAILED (failures=1)',
    ].join('\n');
    expect(firstFailures(output, 5).map((f) => f.name)).toEqual(['test_grades.AverageTest.test_fraction']);
  });
});

let python = '';
try {
  python = execFileSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).trim();
} catch {
  console.log('unittest differential test skipped: no python3 on this machine');
}

describe.skipIf(!python)('unittest summaries, against real CPython', () => {
  it('the tally matches the counts of the tests written', () => {
    const dir = mkdtempSync(join(tmpdir(), 'slm-unittest-'));
    try {
      const kinds = ['pass', 'fail', 'error', 'skip', 'xfail'] as const;
      const body: Record<(typeof kinds)[number], string> = {
        pass: 'self.assertTrue(True)',
        fail: 'self.assertEqual(1, 2)',
        error: 'raise RuntimeError("boom")',
        skip: 'self.skipTest("not now")',
        xfail: 'self.assertEqual(1, 2)',
      };
      fc.assert(
        fc.property(fc.array(fc.constantFrom(...kinds), { minLength: 1, maxLength: 8 }), (tests) => {
          const methods = tests.map(
            (k, i) =>
              `${k === 'xfail' ? '    @unittest.expectedFailure\n' : ''}    def test_${i}(self):\n        ${body[k]}\n`,
          );
          writeFileSync(
            join(dir, 'test_gen.py'),
            `import unittest\n\nclass T(unittest.TestCase):\n${methods.join('')}`,
          );
          // unittest reports on stderr.
          const run = spawnSync(python, ['-m', 'unittest', 'test_gen'], { cwd: dir, encoding: 'utf8' });
          const out = run.stdout + run.stderr;
          const count = (k: (typeof kinds)[number]) => tests.filter((t) => t === k).length;
          expect(parseTestTally(out, 'ws_shell')).toEqual({
            passed: count('pass'),
            failed: count('fail') + count('error'),
            source: 'ws_shell',
          });
        }),
        { numRuns: 15 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
