/**
 * "Approve and run" for one replayed step. A replay approves nothing, so a gated command in a
 * recorded session (a link, a file, a lesson, an example, the replayed part of "Continue from
 * here") does not run; the page shows what it would run (`approvalOffer`), and when a person
 * presses the button, that one step runs for real (`runApprovedStep`): the record is replayed
 * again in a fresh workspace up to that step, with this step, and only this one, approved. The
 * result comes back beside the record's, with the same check a replay makes.
 */
import type { ParsedCall } from '../agent/parse.ts';
import { normalizeArgs } from '../engine/aliases.ts';
import type { Engine } from '../engine/engine.ts';
import { decideShell } from '../engine/shell/index.ts';
import { parserFor } from '../engine/treesitter/loader.ts';
import type { Session } from '../session/record.ts';
import { replaySession } from '../session/replay.ts';
import type { ApprovalOffer, ApprovedRun } from './protocol.ts';
import type { RunHistory } from './run-history.ts';
import { freshSessionWorkspace } from './session-run.ts';

/** What "Approve and run" would run for a replayed call that was not approved here: its command, why it is gated, what it writes. */
export async function approvalOffer(engine: Engine, call: ParsedCall): Promise<ApprovalOffer | undefined> {
  const def = engine.tools.get(call.tool);
  if (!def || typeof call.args !== 'object' || call.args === null) return undefined;
  const command = normalizeArgs(def, call.args as Record<string, unknown>).args.command;
  if (typeof command !== 'string') return undefined;
  const parser = await parserFor('bash');
  try {
    const decision = decideShell(parser, command);
    return {
      tool: call.tool,
      command,
      reason: decision.reason,
      ...(decision.writes && { writes: [...decision.writes] }),
    };
  } finally {
    parser.delete();
  }
}

/**
 * Runs step `step` of `session` with a person's approval, in the workspace as the replay had it
 * before that step (rebuilt by replaying the steps before it, which stay as they were: a gated
 * one among them is still not approved). `history` is the replay's, for the change the step made.
 */
export async function runApprovedStep(session: Session, step: number, history: RunHistory): Promise<ApprovedRun> {
  const { ws, backend } = freshSessionWorkspace(session);
  const report = await replaySession(
    { ...session, steps: session.steps.slice(0, step) },
    { workspace: ws, approved: new Set([step]) },
  );
  const check = report.steps[step - 1];
  if (!check) {
    const why = report.divergence?.why ?? 'the replay stopped early';
    throw new Error(`Step ${step} could not be run: the replay ended before it. ${why}`);
  }
  if (check.approval !== 'approved')
    throw new Error(`Step ${step} was not run: it is not a gated step waiting for an approval here.`);
  const expected = session.steps[step - 1]!;
  const shell = expected.shellOutput !== undefined;
  const { changes, tree } = await history.changesTo(step - 1, ws);
  return {
    step,
    live: shell ? (check.shellOutput ?? check.resultText) : check.resultText,
    recorded: (shell ? expected.shellOutput : expected.resultText) ?? null,
    check: check.divergence
      ? { reproduced: false, divergence: check.divergence }
      : { reproduced: true, ...(check.equivalent && { equivalent: check.equivalent }) },
    changes,
    tree,
    backend,
  };
}
