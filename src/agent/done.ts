/**
 * `done`: the loop's final tool. `{"tool": "done", "args": {"summary": "…"}}` ends the run
 * after one last test run when the engine has a `ws_test` tool; without one, the step records
 * that no test tool was available. A done without a usable summary is refused, and the run
 * goes on.
 */
import type { Engine } from '../engine/engine.ts';
import { fail, ok, type ToolResult } from '../engine/result.ts';
import { schemaErrorText } from '../engine/schema-error.ts';
import { doneSchema, DONE_TOOL, TEST_TOOL } from './call-schema.ts';
import { doneVerdict, type LoopNote, type Stop } from './step.ts';
import { parseTestTally, tallyText, type TestTally } from '../engine/tally.ts';

export interface DoneOutcome {
  readonly result: ToolResult;
  readonly notes: readonly LoopNote[];
  readonly tally?: TestTally;
  /** Set when the run ends here. */
  readonly stop?: Stop;
}

export async function runDone(engine: Engine, args: unknown): Promise<DoneOutcome> {
  const given = args && typeof args === 'object' && !Array.isArray(args) ? (args as Record<string, unknown>) : {};
  const parsed = doneSchema.safeParse(given);
  if (!parsed.success) {
    const text = schemaErrorText(
      DONE_TOOL,
      parsed.error,
      given,
      ['summary'],
      `{"tool": "done", "args": {"summary": "what you changed and how you checked it"}}`,
    );
    return { result: fail(text, [{ kind: 'schema', text: 'done without a summary' }]), notes: [] };
  }
  const summary = parsed.data.summary;

  if (!engine.tools.has(TEST_TOOL)) {
    const text = `Run finished. Summary recorded: ${summary}\nNo test tool (${TEST_TOOL}) was available, so no final test run was made.`;
    return {
      result: ok(text),
      notes: [
        { kind: 'no-test-tool', text: `no ${TEST_TOOL} tool was registered; the run ended without a final test run` },
      ],
      stop: { kind: 'done', summary, tally: null, testTool: false, verdict: 'unmeasured' },
    };
  }

  const tests = await engine.call(TEST_TOOL, {});
  const tally = parseTestTally(tests.text, TEST_TOOL) ?? undefined;
  const verdict = tally ? tallyText(tally) : 'no pass/fail count could be read from the output';
  const text = `Run finished. Summary recorded: ${summary}\nFinal test run (${verdict}):\n${tests.text}`;
  return {
    result: { ...tests, text },
    notes: [{ kind: 'final-tests', text: `final test run: ${verdict}`, ...(tally && { detail: tallyText(tally) }) }],
    ...(tally && { tally }),
    stop: { kind: 'done', summary, tally: tally ?? null, testTool: true, verdict: doneVerdict(tally ?? null) },
  };
}
