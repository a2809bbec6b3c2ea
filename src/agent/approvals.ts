/**
 * Approvals: a gated shell command (the policy's `gated` tier: installs, commits …) always goes
 * before a person, in every mode; a run in `ask` mode also puts every mutating call (a tool
 * whose ToolDef says `writes`) before them, through an `approve(request)` callback. A denial is
 * a result the model sees, so it can choose another way. A replay answers a gated step it may
 * not run with 'unapproved': a recorded approval is never an approval here.
 */
import { fail, type ToolResult } from '../engine/result.ts';
import type { ToolDef } from '../engine/tool.ts';
import { isGatedShellCall } from '../engine/tools/run-command.ts';

export type ApprovalMode = 'auto' | 'ask';

export interface ApprovalRequest {
  /** The step this call belongs to (1-based). */
  readonly step: number;
  readonly tool: string;
  readonly args: unknown;
  /** Why it needs a person: it changes files, or it is a shell command the policy gates. */
  readonly reason: 'writes' | 'gated-shell';
}

/**
 * true runs the call; false is a person's "no"; 'unapproved' is a replayed step nobody here
 * approved (whatever its record says), so it does not run either.
 */
export type ApprovalAnswer = boolean | 'unapproved';

/** Resolves to the answer for one call. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/** Says whether a (non-writing) call is gated, e.g. the shell policy's `gated` tier for ws_shell. */
export type GateCheck = (tool: string, args: unknown) => boolean | Promise<boolean>;

/** The reason a call needs approval in `mode`, or null when it runs without asking. */
export async function approvalReason(
  mode: ApprovalMode,
  def: ToolDef<any> | undefined,
  args: unknown,
  isGated: GateCheck = isGatedShellCall,
): Promise<ApprovalRequest['reason'] | null> {
  if (!def) return null;
  if (mode === 'ask' && def.writes) return 'writes';
  if (!(await isGated(def.name, args))) return null;
  // Only a replay gates a writing tool (a recorded denial given again): it was asked about because it writes.
  return def.writes ? 'writes' : 'gated-shell';
}

/** The result the model sees when a person declined its call. */
export function deniedResult(req: ApprovalRequest): ToolResult {
  const what = req.reason === 'writes' ? 'nothing was changed' : 'the command did not run';
  return fail(
    `A person declined this ${req.tool} call, so ${what}. Do not repeat the same call. ` +
      'Choose another way (ws_read to look again, a smaller or different change), or finish with done and say what is left undone.',
    [{ kind: 'refusal', text: `${req.tool} declined by a person`, detail: 'approval-denied' }],
  );
}

/** The result the model sees when a replayed gated call did not run because nobody here approved it. */
export function unapprovedResult(req: ApprovalRequest): ToolResult {
  return fail(
    `This ${req.tool} call was replayed from a recorded session and did not run: the command needs a person's approval, and an approval in a record is not an approval here. ` +
      'Nothing ran and nothing was changed. If the command is still needed, call it again and a person will be asked; otherwise choose another way.',
    [{ kind: 'refusal', text: `${req.tool} not run: not approved here (replayed)`, detail: 'approval-unapproved' }],
  );
}
