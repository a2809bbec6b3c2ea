/**
 * One turn's "execute" phase: from a parse outcome to the result and the exact observation the
 * model sees next. A parse failure is answered with its retry message; `done` ends the run; a
 * call that needs approval is put before a person; everything else goes through Engine.call.
 * The loop's own notes (dropped calls, repairs, stall nudge) are appended here, in one place.
 */
import type { Engine } from '../engine/engine.ts';
import type { ToolResult } from '../engine/result.ts';
import {
  approvalReason,
  deniedResult,
  unapprovedResult,
  unaskedResult,
  type ApprovalAnswer,
  type ApprovalMode,
  type Approver,
  type GateCheck,
} from './approvals.ts';
import { DONE_TOOL } from './call-schema.ts';
import { typedValuesText } from './formats/typed-values.ts';
import { runDone } from './done.ts';
import { droppedCallsText, type ParseOutcome } from './parse.ts';
import { stallStep, type StallState } from './stall.ts';
import type { ApprovalOutcome, LoopNote, Stop } from './step.ts';
import { parseTestTally, TEST_TOOLS, type TestTally } from '../engine/tally.ts';

export interface TurnSettings {
  readonly engine: Engine;
  readonly approval: ApprovalMode | ((step: number) => ApprovalMode);
  readonly approve?: Approver;
  readonly isGated?: GateCheck;
  /** Steps without test progress before the stall nudge. */
  readonly stallSteps: number;
}

export interface TurnOutcome {
  readonly result?: ToolResult;
  readonly observation: string;
  readonly notes: readonly LoopNote[];
  readonly approval?: ApprovalOutcome;
  readonly tally?: TestTally;
  readonly stall: StallState;
  readonly stop?: Stop;
}

export async function executeTurn(
  s: TurnSettings,
  parsed: ParseOutcome,
  index: number,
  stall: StallState,
  /** The reply was cut at the token limit: said as such, not as a broken call. */
  cut = false,
): Promise<TurnOutcome> {
  if (!parsed.ok) {
    const next = stallStep(stall, undefined, s.stallSteps);
    const notes: LoopNote[] = [
      cut
        ? { kind: 'reply-cut', text: 'the reply was cut at the token limit; told the model to write a smaller change' }
        : {
            kind: 'parse-retry',
            text: `no usable call (${parsed.error}); told the model how to retry`,
            detail: parsed.error,
          },
    ];
    return finishTurn({ observation: parsed.message, notes, stall: next.state }, next.nudge);
  }

  const { call } = parsed;
  const notes: LoopNote[] = [];
  if (parsed.repairs.length)
    notes.push({
      kind: 'repair',
      text: `call found after: ${parsed.repairs.join(', ')}${parsed.typed ? ` (text values read by the tool's schema: ${typedValuesText(parsed.typed)})` : ''}`,
      detail: parsed.repairs.join(','),
    });
  if (parsed.dropped.length)
    notes.push({
      kind: 'dropped-calls',
      text: droppedNote(parsed.dropped),
      detail: parsed.dropped.join(','),
    });

  let result: ToolResult;
  let approval: ApprovalOutcome | undefined;
  let tally: TestTally | undefined;
  let stop: Stop | undefined;
  if (call.tool === DONE_TOOL) {
    const done = await runDone(s.engine, call.args);
    ({ result, tally, stop } = done);
    notes.push(...done.notes);
  } else {
    const mode = typeof s.approval === 'function' ? s.approval(index) : s.approval;
    const reason = await approvalReason(mode, s.engine.tools.get(call.tool), call.args, s.engine.settings, s.isGated);
    const request = reason && { step: index, tool: call.tool, args: call.args, reason };
    if (request) {
      // No approver means nobody can say yes: the call does not run, and the result says nobody was asked.
      approval = s.approve ? outcomeOf(await s.approve(request)) : 'unasked';
      notes.push({ kind: 'approval', text: APPROVAL_NOTES[approval](call.tool), detail: approval });
    }
    if (request && approval === 'denied') result = deniedResult(request);
    else if (request && approval === 'unapproved') result = unapprovedResult(request);
    else if (request && approval === 'unasked') result = unaskedResult(request);
    else result = await s.engine.call(call.tool, call.args, { approved: approval === 'approved' });
    if (TEST_TOOLS.has(call.tool)) tally = parseTestTally(result.text, call.tool) ?? undefined;
  }

  const next = stallStep(stall, tally, s.stallSteps);
  const dropped = parsed.dropped.length ? droppedCallsText(parsed.dropped) : '';
  const observation = dropped ? `${result.text}\n${dropped}` : result.text;
  return finishTurn(
    {
      result,
      observation,
      notes,
      stall: next.state,
      ...(approval && { approval }),
      ...(tally && { tally }),
      ...(stop && { stop }),
    },
    stop ? undefined : next.nudge,
  );
}

function outcomeOf(answer: ApprovalAnswer): ApprovalOutcome {
  if (answer === 'unapproved' || answer === 'unasked') return answer;
  return answer ? 'approved' : 'denied';
}

const APPROVAL_NOTES: Readonly<Record<ApprovalOutcome, (tool: string) => string>> = {
  approved: (tool) => `${tool} approved by a person`,
  denied: (tool) => `${tool} denied by a person`,
  unapproved: (tool) => `${tool} replayed without running: nobody here approved it (a recorded approval is not one)`,
  unasked: (tool) => `${tool} not run: the run has no approver, so no one was asked`,
};

/** Appends the stall nudge, when there is one, to the observation and the notes. */
function finishTurn(turn: TurnOutcome, nudge: string | undefined): TurnOutcome {
  if (!nudge) return turn;
  return {
    ...turn,
    observation: `${turn.observation}\n${nudge}`,
    notes: [...turn.notes, { kind: 'stall', text: 'no test progress; nudge appended to the observation' }],
  };
}

/** The step's note for further calls in one message: the first ran, the rest were not. */
function droppedNote(dropped: readonly string[]): string {
  const n = dropped.length;
  return `the first call ran; ${n} further call${n === 1 ? ' was' : 's were'} dropped (${dropped.join(', ')})`;
}
