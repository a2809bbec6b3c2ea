/**
 * The measured test tally: a test run's output parsed to pass/fail counts, so progress and
 * stall detection are measured, not read from the model's prose. Recognises the summary lines
 * of vitest, jest, pytest, mocha, node:test (TAP and spec reporters) and `go test -v`.
 */

export interface TestTally {
  readonly passed: number;
  readonly failed: number;
  /** The tool whose output was parsed (ws_test, ws_shell). */
  readonly source: string;
}

/** Tools whose output may carry a test run. */
export const TEST_TOOLS: ReadonlySet<string> = new Set(['ws_test', 'ws_shell']);

/** Parses the last test summary in `output`; null when it holds none. */
export function parseTestTally(output: string, source: string): TestTally | null {
  const text = output.replace(/\x1b\[[0-9;]*m/g, ''); // reporters colour their summaries
  const counts = nodeTest(text) ?? summaryLine(text) ?? goTest(text);
  return counts ? { ...counts, source } : null;
}

/** Better than `best`: fewer failures, or as many failures and more passes. */
export function improves(tally: TestTally, best: TestTally | undefined): boolean {
  if (!best) return true;
  return tally.failed < best.failed || (tally.failed === best.failed && tally.passed > best.passed);
}

export function tallyText(t: TestTally): string {
  return `${t.passed} passed, ${t.failed} failed`;
}

type Counts = { passed: number; failed: number };

/** node:test: `# pass 3` / `# fail 1` (TAP) or `ℹ pass 3` / `ℹ fail 1` (spec). */
function nodeTest(text: string): Counts | null {
  const pass = lastMatch(text, /^[#ℹ]\s*pass\s+(\d+)\s*$/gm);
  const fail = lastMatch(text, /^[#ℹ]\s*fail\s+(\d+)\s*$/gm);
  return pass === null && fail === null ? null : { passed: pass ?? 0, failed: fail ?? 0 };
}

/**
 * Summary lines: vitest `Tests  1 failed | 3 passed (4)`, jest `Tests: 1 failed, 3 passed`,
 * pytest `== 1 failed, 3 passed in 0.1s ==`, mocha `3 passing` / `1 failing`. vitest and jest
 * also print a `Test Files`/`Test Suites` line first, so a `Tests` line wins when present.
 */
function summaryLine(text: string): Counts | null {
  const testsLine = [...text.matchAll(/^\s*Tests:?\s+(.*)$/gm)].pop()?.[1];
  const scope = testsLine ?? lastSummary(text);
  if (scope === null) return null;
  const passed = lastMatch(scope, /(\d+)\s+(?:passed|passing)\b/g);
  const failed = lastMatch(scope, /(\d+)\s+(?:failed|failing)\b/g);
  const errors = testsLine ? null : lastMatch(scope, /(\d+)\s+errors?\b(?= in )/g); // pytest collection errors
  if (passed === null && failed === null) return null;
  return { passed: passed ?? 0, failed: (failed ?? 0) + (errors ?? 0) };
}

const COUNT = /(\d+)\s+(?:passed|passing|failed|failing)\b/;

/** The last line with a count, plus the line before it when that one has a count too (mocha prints passing and failing on two lines). */
function lastSummary(text: string): string | null {
  const lines = text.split('\n');
  for (let i = lines.length - 1; i >= 0; i--) {
    if (!COUNT.test(lines[i]!)) continue;
    const prev = lines[i - 1];
    return prev !== undefined && COUNT.test(prev) ? `${prev}\n${lines[i]}` : lines[i]!;
  }
  return null;
}

/** `go test -v`: one `--- PASS:` / `--- FAIL:` line per test. */
function goTest(text: string): Counts | null {
  const passed = (text.match(/^\s*--- PASS:/gm) ?? []).length;
  const failed = (text.match(/^\s*--- FAIL:/gm) ?? []).length;
  return passed + failed === 0 ? null : { passed, failed };
}

function lastMatch(text: string, re: RegExp): number | null {
  const all = [...text.matchAll(re)];
  const m = all[all.length - 1];
  return m ? Number(m[1]) : null;
}
