/**
 * The measured test tally: a test run's output parsed to pass/fail counts, so progress and
 * stall detection are measured, not read from the model's prose. Recognises the summary lines
 * of vitest, jest, pytest, unittest (tally-unittest.ts), mocha, node:test (TAP and spec reporters) and `go test -v`, and
 * picks out the first failing tests (their names and assertion lines) for ws_test's summary.
 */
import type { Note } from './result.ts';
import { stripAnsi } from './exec-output.ts';
import { unittestCounts, unittestFailure } from './tally-unittest.ts';

export interface TestTally {
  readonly passed: number;
  readonly failed: number;
  /** The tool whose output was parsed (ws_test, ws_shell). */
  readonly source: string;
}

/** One failing test as the runner reported it. */
export interface TestFailure {
  readonly name: string;
  /** The first lines of its error (assertion message, actual/expected), trimmed. */
  readonly detail: readonly string[];
}

/** Tools whose output may carry a test run. */
export const TEST_TOOLS: ReadonlySet<string> = new Set(['ws_test', 'ws_shell']);

/** Parses the last test summary in `output`; null when it holds none. */
export function parseTestTally(output: string, source: string): TestTally | null {
  const text = stripAnsi(output); // reporters colour their summaries
  const counts = nodeTest(text) ?? unittestCounts(text) ?? summaryLine(text) ?? goTest(text);
  return counts ? { ...counts, source } : null;
}

/**
 * Why a tally read from the output cannot be taken at its word, or null: the output says no
 * test failed, but the command failed or was killed. The output is whatever the project's code
 * printed, so a script can print a passing summary and exit 1; the exit code is the runner's own.
 */
export function distrust(tally: TestTally, exitCode: number | null, timedOut: boolean): string | null {
  if (tally.failed > 0 || (exitCode === 0 && !timedOut)) return null;
  const ended = timedOut
    ? 'was killed at its timeout'
    : exitCode === null
      ? 'was stopped'
      : `exited with code ${exitCode}`;
  return `the output reports ${tally.passed} passed and none failed, but the command ${ended}, so this is not counted as a passing run`;
}

/** Better than `best`: fewer failures, or as many failures and more passes. */
export function improves(tally: TestTally, best: TestTally | undefined): boolean {
  if (!best) return true;
  return tally.failed < best.failed || (tally.failed === best.failed && tally.passed > best.passed);
}

export function tallyText(t: TestTally): string {
  return `${t.passed} passed, ${t.failed} failed`;
}

/**
 * The tally as a result note, so the agent's stall detector and the UI's progress plot read
 * counts instead of re-parsing text. Kind 'hint' with detail `tally:P/F`; read it back with
 * `tallyFromNotes`.
 */
export function tallyNote(t: TestTally): Note {
  return { kind: 'hint', text: `test tally: ${tallyText(t)}`, detail: `${TALLY_PREFIX}${t.passed}/${t.failed}` };
}

const TALLY_PREFIX = 'tally:';

/** The tally a result recorded with `tallyNote`, or null. */
export function tallyFromNotes(notes: readonly Note[], source: string): TestTally | null {
  for (const n of notes) {
    const m = n.kind === 'hint' && n.detail?.startsWith(TALLY_PREFIX) ? /^tally:(\d+)\/(\d+)$/.exec(n.detail) : null;
    if (m) return { passed: Number(m[1]), failed: Number(m[2]), source };
  }
  return null;
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

/** How many lines of a failure's error are kept. */
const DETAIL_LINES = 6;

/**
 * The first `max` failing tests in `output`, in the order reported, each with the opening
 * lines of its error. Recognises node:test TAP (`not ok N - name` and its YAML `error:`
 * block), vitest/jest (`× name`, `✕ name`, `● a › b`), mocha (`1) name:`), pytest
 * (`FAILED file::name - message`) and go (`--- FAIL: TestX`). Suites that fail only because a
 * child failed are left out.
 */
export function firstFailures(output: string, max: number): TestFailure[] {
  const lines = stripAnsi(output).split('\n');
  const found: TestFailure[] = [];
  const seen = new Set<string>();
  // Jest lists a failed test as `✕ name (3 ms)` under its suites, then again in full under `●
  // suite › name` with its error: the full one stands for both.
  const detailed = lines.flatMap((l) => /^\s*● (.+ › .+)$/.exec(l)?.[1] ?? []);
  const listedAgain = (name: string) => detailed.some((d) => d.endsWith(` › ${name}`));
  for (let i = 0; i < lines.length && found.length < max; i++) {
    const hit = failureAt(lines, i);
    if (!hit || seen.has(hit.name) || (/^\s*(?:×|✕|✗)\s/.test(lines[i]!) && listedAgain(hit.name))) continue;
    seen.add(hit.name);
    found.push(hit);
  }
  return found;
}

function failureAt(lines: readonly string[], i: number): TestFailure | null {
  const line = lines[i]!;
  let m = /^(\s*)not ok \d+ - (.*)$/.exec(line);
  // A `# TODO` or `# SKIP` directive marks an expected failure, not a real one.
  if (m) return /\s#\s*(?:TODO|SKIP)\b/i.test(m[2]!) ? null : tapFailure(lines, i, m[1]!.length, m[2]!);
  // pytest's `FAILED file::name - message`; unittest's summary `FAILED (failures=1)` names no test.
  m = /^FAILED (?!\()(\S+)(?: - (.*))?$/.exec(line);
  if (m) return { name: m[1]!, detail: m[2] ? [m[2]] : [] };
  m = /^\s*--- FAIL: (\S+)/.exec(line);
  if (m) return { name: m[1]!, detail: following(lines, i + 1, (l) => /^\s+\S+\.go:\d+:/.test(l)) };
  m = /^\s*(?:×|✕|✗)\s+(.+?)(?:\s+\(?\d+\s*ms\)?)?$/.exec(line);
  if (m)
    return { name: m[1]!, detail: following(lines, i + 1, (l) => /^\s{4,}\S/.test(l) && !/^\s*(?:✓|√|×|✕)/.test(l)) };
  m = /^\s*● (.+ › .+)$/.exec(line);
  if (m) return { name: m[1]!, detail: following(lines, i + 1, (l) => l.trim() !== '' && !/^\s*at /.test(l)) };
  m = /^\s+\d+\) (.+)$/.exec(line);
  if (m) return mochaFailure(lines, i, m[1]!);
  return unittestFailure(lines, i);
}

/**
 * mocha: `1) suite` then the test title on the next lines, the last one ending in `:`; the
 * title is the last of those lines (the suite names come before it).
 */
function mochaFailure(lines: readonly string[], i: number, first: string): TestFailure | null {
  let j = i;
  let title = first;
  while (!title.endsWith(':')) {
    if (++j >= lines.length || j > i + 3 || lines[j]!.trim() === '') return null;
    title = lines[j]!.trim();
  }
  return { name: title.slice(0, -1), detail: following(lines, j + 1, (l) => /^\s+\S/.test(l) && !/^\s*at /.test(l)) };
}

/**
 * A TAP `not ok`: the error block follows, indented two more spaces. A test whose YAML says it
 * is a suite, or that failed with "N subtests failed", is a parent of the real failure: skip it.
 */
function tapFailure(lines: readonly string[], i: number, indent: number, name: string): TestFailure | null {
  const body: string[] = [];
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.trim() === '...' || (l.trim() !== '' && leading(l) <= indent)) break;
    body.push(l);
  }
  const yaml = body.join('\n');
  if (/^\s*type: 'suite'/m.test(yaml) || /failureType: 'subtestsFailed'/.test(yaml)) return null;
  const detail: string[] = [];
  const at = body.findIndex((l) => /^\s*error: /.test(l));
  if (at >= 0) {
    const first = body[at]!.replace(/^\s*error:\s*/, '');
    if (first !== '|-' && first !== '|' && first !== '>-') detail.push(unquote(first));
    const depth = leading(body[at]!);
    for (let j = at + 1; j < body.length && detail.length < DETAIL_LINES; j++) {
      const l = body[j]!;
      if (l.trim() !== '' && leading(l) <= depth) break;
      if (l.trim() !== '') detail.push(l.trim());
    }
  }
  return { name, detail };
}

/** Up to DETAIL_LINES lines after a failure header that `keep` accepts, stopping at the first it rejects. */
function following(lines: readonly string[], from: number, keep: (line: string) => boolean): string[] {
  const out: string[] = [];
  for (let j = from; j < lines.length && out.length < DETAIL_LINES; j++) {
    const l = lines[j]!;
    if (l.trim() === '' && out.length === 0) continue;
    if (!keep(l)) break;
    out.push(l.trim());
  }
  return out;
}

function leading(line: string): number {
  return line.length - line.trimStart().length;
}

function unquote(s: string): string {
  const m = /^'(.*)'$/.exec(s);
  return m ? m[1]!.replace(/''/g, "'") : s;
}
