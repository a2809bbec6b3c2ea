import { describe, expect, it } from 'vitest';
import { cleanOutput, dropTimingLines, lastLines, stripAnsi, viewExec, type ExecViewOptions } from './exec-output.ts';
import type { ExecResult } from './workspace.ts';

describe('stripAnsi and cleanOutput', () => {
  it.each([
    { what: 'SGR colours', input: '\x1b[31mred\x1b[0m \x1b[1;32mbold green\x1b[39;22m', want: 'red bold green' },
    { what: 'cursor moves and erase', input: 'a\x1b[2K\x1b[1Gb\x1b[?25l', want: 'ab' },
    {
      what: 'an OSC title ended by BEL, and a hyperlink ended by ST',
      input: '\x1b]0;title\x07x \x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\',
      want: 'x link',
    },
    { what: 'two-character escapes', input: '\x1b7saved\x1b8', want: 'saved' },
    { what: 'the 8-bit CSI', input: '\x9b31mred', want: 'red' },
    { what: 'plain text untouched', input: 'no escapes [here]', want: 'no escapes [here]' },
  ])('stripAnsi removes $what', ({ input, want }) => expect(stripAnsi(input)).toBe(want));

  it.each([
    { what: 'CRLF becomes LF', input: 'a\r\nb\r\n', want: 'a\nb\n' },
    {
      what: 'a progress line redrawn with CR keeps what was drawn last',
      input: 'start\n 10%\r 50%\r100%\ndone',
      want: 'start\n100%\ndone',
    },
    { what: 'escapes and redraws together', input: '\x1b[32m✓\x1b[0m 1\r\x1b[32m✓\x1b[0m 2\n', want: '✓ 2\n' },
  ])('cleanOutput: $what', ({ input, want }) => expect(cleanOutput(input)).toBe(want));

  it('lastLines keeps the end and counts every line', () => {
    expect(lastLines('1\n2\n3\n4\n', 2)).toEqual({ text: '3\n4', total: 4 });
    expect(lastLines('only', 5)).toEqual({ text: 'only', total: 1 });
  });
});

const base: ExecResult = { exitCode: 0, output: '', totalBytes: 0, truncated: false, timedOut: false };
const opts: ExecViewOptions = { command: 'npm test', timeoutMs: 120_000, timeoutCapMs: 600_000, budget: 500 };

describe('viewExec', () => {
  it.each([
    { what: 'success without output', r: {}, want: '(command succeeded with no output: npm test)' },
    {
      what: 'failure without output',
      r: { exitCode: 2 },
      want: '(command failed with exit code 2 and no output: npm test)',
    },
    {
      what: 'whitespace-only output counts as none',
      r: { output: '\n  \n' },
      want: '(command succeeded with no output: npm test)',
    },
    { what: 'output, then its exit code', r: { output: 'ok 1\n', exitCode: 1 }, want: 'ok 1\n[exit code 1]' },
    { what: 'colours stripped', r: { output: '\x1b[31mFAIL\x1b[0m x\n' }, want: 'FAIL x\n[exit code 0]' },
    {
      what: "a failure with no output shows the backend's reason",
      r: { exitCode: 127, backendNote: 'this memory workspace was created without a process runner' },
      want: '(command failed with exit code 127 and no output: npm test)\n[this memory workspace was created without a process runner]',
    },
  ])('$what', ({ r, want }) => {
    expect(viewExec({ ...base, ...r }, opts).text).toBe(want);
  });

  it('a timeout says so, that the process tree was killed, and how to get more time', () => {
    const v = viewExec({ ...base, exitCode: null, timedOut: true, output: 'started\n' }, { ...opts, timeoutMs: 1500 });
    expect(v.text).toBe(
      'started\n[timed out after 1.5 s: the command and every process it started were killed. ' +
        'Run a narrower command (a single test file, a test name pattern) or pass a larger timeout_ms (at most 600000); an endless loop in the code needs a fix, not more time.]',
    );
    expect(v.notes).toContainEqual({
      kind: 'shell',
      text: 'timed out after 1500 ms; process tree killed',
      detail: 'timeout',
    });
    const empty = viewExec({ ...base, exitCode: null, timedOut: true }, { ...opts, timeoutMs: 600_000 });
    expect(empty.text).toMatch(
      /^\(command produced no output before it timed out: npm test\)\n\[timed out after 600 s: .*Run a narrower command \(a single test file, a test name pattern\); an endless/,
    );
  });

  it('a cancelled run says it was stopped', () => {
    expect(viewExec({ ...base, exitCode: null }, opts).text).toBe(
      '(command was stopped with no output: npm test)\n[cancelled: the command was stopped before it finished, and every process it started was killed.]',
    );
  });

  it('keeps head and tail within the budget, and names one total: what the command wrote', () => {
    const output = Array.from({ length: 400 }, (_, i) => `line ${i}`).join('\n');
    const v = viewExec({ ...base, output, truncated: true, totalBytes: 104_857_600 }, opts);
    const [kept, exit] = v.text.split('\n[').slice(-2);
    expect(v.text.startsWith('line 0\nline 1\n')).toBe(true);
    expect(v.text).toContain('line 399\n[output truncated:');
    expect(kept).toMatch(
      new RegExp(
        `^output truncated: the command wrote 104857600 bytes, of which the ${output.length} characters at its beginning and end were kept while it ran; the middle \\d+ of those are omitted here to stay within ${opts.budget}\\. `,
      ),
    );
    expect(v.text).not.toMatch(/characters in total/);
    expect(exit).toBe('exit code 0]');
    expect(v.notes.map((n) => n.kind)).toEqual(['truncated', 'truncated']);
    expect(v.text.length).toBeLessThan(opts.budget + 400);
  });

  it('output capped while running that fits the budget: the backend cap is said on its own', () => {
    const v = viewExec(
      { ...base, output: 'head\n… [900 bytes of output omitted] …\ntail', truncated: true, totalBytes: 1000 },
      opts,
    );
    expect(v.text).toContain(
      '\n[the command wrote 1000 bytes of output; only its beginning and end were kept while it ran. ',
    );
    expect(v.notes).toEqual([
      { kind: 'truncated', text: 'output capped while running: 1000 bytes written', detail: '1000' },
    ]);
  });

  it('records the backend note', () => {
    expect(viewExec({ ...base, output: 'x', backendNote: 'ran in just-bash' }, opts).notes).toEqual([
      { kind: 'shell', text: 'ran in just-bash', detail: 'backend' },
    ]);
  });
});

describe('dropTimingLines', () => {
  it.each([
    ['TAP duration in a YAML block', 'ok 1 - a\n  ---\n  duration_ms: 0.227236\n  ...\nok 2 - b', 'ok 1 - a\nok 2 - b'],
    ['TAP summary duration', '# pass 8\n# fail 1\n# duration_ms 225.811237', '# pass 8\n# fail 1'],
    [
      'a YAML block with more than a duration keeps the rest',
      'not ok 1 - a\n  ---\n  duration_ms: 1.5\n  failureType: testCodeFailure\n  ...',
      'not ok 1 - a\n  ---\n  failureType: testCodeFailure\n  ...',
    ],
    [
      'vitest start and duration',
      ' Test Files  1 passed (1)\n   Start at  02:22:47\n   Duration  1.01s (transform 545ms)',
      ' Test Files  1 passed (1)',
    ],
    ['jest time', 'Tests:       1 passed, 1 total\nTime:        0.512 s', 'Tests:       1 passed, 1 total'],
    ['a test named after durations stays', 'ok 3 - duration_ms parsing works', 'ok 3 - duration_ms parsing works'],
    [
      'unittest keeps its count, not its time',
      '....\n---\nRan 4 tests in 0.002s\n\nOK',
      '....\n---\nRan 4 tests\n\nOK',
    ],
    ['unittest, one test', 'Ran 1 test in 12.250s', 'Ran 1 test'],
    ['a line that only mentions a run stays', 'Ran 4 tests in 0.002s and more', 'Ran 4 tests in 0.002s and more'],
  ])('%s', (_name, input, expected) => {
    expect(dropTimingLines(input)).toBe(expected);
  });
});
