/**
 * ws_test: run the workspace's test suite and parse the pass/fail tally (hash-anchored-tools'
 * run_tests). The command is found, not guessed by the model: the package.json `test` script
 * (`npm test`), else Python's (unittest or pytest), else `go test`. The result leads with `N passed, M failed` and the
 * first failures (names and assertion lines), and records the tally as a note, so the agent's
 * stall detector and the UI's plot measure progress instead of reading prose.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok, type Note } from '../result.ts';
import { cleanOutput, dropTimingLines, lastLines, viewExec } from '../exec-output.ts';
import { distrust, firstFailures, parseTestTally, tallyNote, tallyText, type TestFailure } from '../tally.ts';
import { checkCommand, runChecked } from './run-command.ts';
import { findTestCommand } from './test-command.ts';

/** Output a backend keeps of a test run: enough for the failures and the summary at the end. */
export const TEST_OUTPUT_BYTES = 1024 * 1024;

/** Lines of output shown under a parsed tally. */
const TAIL_LINES = 25;

/** Failing tests listed by name in the summary. */
const SHOWN_FAILURES = 5;

const schema = z.object({
  filter: z
    .string()
    .min(1)
    .optional()
    .describe('Run only tests whose name matches (passed to the runner: --test-name-pattern, -t, -k, -run)'),
});

const NO_COMMAND =
  'ws_test found no test command: there is no "test" script in package.json (or only npm\'s placeholder), no Python tests (test_*.py, or a pytest configuration) and no go.mod. ' +
  'Add a "test" script to package.json (e.g. "node --test") with ws_edit, or run a test file directly with ws_shell (node --test test/x.test.js).';

export const wsTest = defineTool({
  name: 'ws_test',
  summary: "Run the project's tests and parse the pass/fail tally",
  writes: false,
  schema,
  aliases: { pattern: 'filter', name: 'filter', grep: 'filter' },
  async run(args, ctx) {
    const found = await findTestCommand(ctx.ws, args.filter);
    if (!found) return fail(NO_COMMAND, [{ kind: 'hint', text: 'no test command found', detail: 'no-test-command' }]);

    // `npm test` is free, but its script is workspace content the model can edit: check it too.
    if (found.script !== undefined) {
      const decision = await checkCommand(found.script);
      if (decision.decision === 'refuse' || (decision.decision === 'gated' && !ctx.approved)) {
        const what =
          decision.decision === 'refuse'
            ? 'is refused by the shell policy'
            : "needs a person's approval in the UI first";
        return fail(
          `ws_test did not run npm test: its package.json "test" script ${JSON.stringify(found.script)} ${what} — ${decision.reason} ` +
            'Make the script one test-runner command (e.g. "node --test") with ws_edit, or run a test file directly with ws_shell.',
          [{ kind: 'shell', text: `test script: ${decision.reason}`, detail: decision.decision }],
        );
      }
    }

    const timeoutMs = ctx.settings.shell_timeout;
    const outcome = await runChecked(ctx, 'ws_test', found.line, { timeoutMs, maxOutputBytes: TEST_OUTPUT_BYTES });
    if (!outcome.ran) return outcome.result;
    const { exec } = outcome;

    const read = parseTestTally(exec.output, 'ws_test');
    const untrusted = read ? distrust(read, exec.exitCode, exec.timedOut) : null;
    const tally = untrusted ? null : read;
    const failures = firstFailures(exec.output, SHOWN_FAILURES);
    const status = exec.timedOut ? 'timed out' : `exit code ${exec.exitCode ?? 'none'}`;
    const head = [
      tally
        ? `${found.line}: ${tallyText(tally)} (${status})`
        : untrusted
          ? `${found.line}: ${untrusted} (${status}). Find what failed in the output below.`
          : `${found.line}: no pass/fail count could be read from the output (${status}). The output is below; fix what stops the runner, or run one test file with ws_shell.`,
    ];
    if (found.filterIgnored !== undefined) {
      head.push(
        `[filter ${JSON.stringify(found.filterIgnored)} was not applied: the runner of the "test" script is not one whose name option is known; all tests ran.]`,
      );
    }
    if (failures.length) head.push(failureList(failures, tally?.failed));
    // With the tally read, the end of the output (the runner's summary) is enough; without it, show all that fits.
    const tail = tally ? lastLines(dropTimingLines(cleanOutput(exec.output)), TAIL_LINES) : null;
    head.push(
      tail && tail.total > TAIL_LINES
        ? `Output (last ${TAIL_LINES} of ${tail.total} lines; ws_shell ${JSON.stringify(found.line)} shows more):`
        : 'Output:',
    );
    const summary = head.join('\n');

    const view = viewExec(tail ? { ...exec, output: tail.text } : exec, {
      command: found.line,
      timeoutMs,
      timeoutCapMs: ctx.settings.shell_timeout_cap,
      budget: Math.max(200, ctx.settings.max_tool_chars - summary.length - 700),
    });
    const notes: Note[] = [...outcome.notes, ...view.notes];
    if (tally) notes.push(tallyNote(tally));
    if (untrusted) notes.push({ kind: 'hint', text: `tally not counted: ${untrusted}`, detail: 'tally-distrusted' });
    const text = `${summary}\n${view.text}`;
    return exec.exitCode === 0 && !exec.timedOut ? ok(text, notes) : fail(text, notes);
  },
});

function failureList(failures: readonly TestFailure[], failedCount: number | undefined): string {
  const more =
    failedCount !== undefined && failedCount > failures.length ? ` (${failures.length} of ${failedCount} shown)` : '';
  const rows = failures.map((f, i) => [`  ${i + 1}. ${f.name}`, ...f.detail.map((d) => `     ${d}`)].join('\n'));
  return `First failures${more}:\n${rows.join('\n')}`;
}
