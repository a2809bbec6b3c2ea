/**
 * Approvals: a gated shell command (the policy's `gated` tier: installs, commits …) and an
 * mcp_call to a server not marked read_only always go before a person, in every mode; a run in `ask` mode also puts every mutating call (a tool
 * whose ToolDef says `writes`) before them, through an `approve(request)` callback. A denial is
 * a result the model sees, so it can choose another way. A replay answers a gated step it may
 * not run with 'unapproved': a recorded approval is never an approval here.
 */
import { fail, type ToolResult } from '../engine/result.ts';
import type { ToolDef } from '../engine/tool.ts';
import { isGatedShellCall } from '../engine/tools/run-command.ts';
import { isGatedMcpCall } from '../engine/tools/mcp_call.ts';
import type { EngineSettings } from '../engine/settings.ts';

export type ApprovalMode = 'auto' | 'ask';

export interface ApprovalRequest {
  /** The step this call belongs to (1-based). */
  readonly step: number;
  readonly tool: string;
  readonly args: unknown;
  /** Why it needs a person: it changes files, a shell command the policy gates, or a call to an MCP server not marked read-only. */
  readonly reason: 'writes' | 'gated-shell' | 'gated-mcp';
}

/**
 * true runs the call; false is a person's "no"; 'unapproved' is a replayed step nobody here
 * approved (whatever its record says), so it does not run either; 'unasked' is a call the run
 * had nobody to ask about (`slm run`), given again by a replay of it.
 */
export type ApprovalAnswer = boolean | 'unapproved' | 'unasked';

/** Resolves to the answer for one call. */
export type Approver = (request: ApprovalRequest) => Promise<ApprovalAnswer>;

/** Says whether a (non-writing) call is gated, e.g. the shell policy's `gated` tier for ws_shell, under the engine's settings. */
export type GateCheck = (tool: string, args: unknown, settings: EngineSettings) => boolean | Promise<boolean>;

/** The gates every run has: the shell policy's `gated` tier, and mcp_call to a server not marked read_only. */
export const isGatedCall: GateCheck = async (tool, args, settings) =>
  isGatedMcpCall(tool, args, settings) || (await isGatedShellCall(tool, args));

/** The reason a call needs approval in `mode`, or null when it runs without asking. */
export async function approvalReason(
  mode: ApprovalMode,
  def: ToolDef<any> | undefined,
  args: unknown,
  settings: EngineSettings,
  isGated: GateCheck = isGatedCall,
): Promise<ApprovalRequest['reason'] | null> {
  if (!def) return null;
  if (mode === 'ask' && def.writes) return 'writes';
  if (!(await isGated(def.name, args, settings))) return null;
  // Only a replay gates a writing tool (a recorded denial given again): it was asked about because it writes.
  if (def.writes) return 'writes';
  return def.name === 'mcp_call' ? 'gated-mcp' : 'gated-shell';
}

/** What did not happen when a gated call was not run. */
function notRun(req: ApprovalRequest): string {
  if (req.reason === 'writes') return 'nothing was changed';
  return req.reason === 'gated-mcp' ? 'the MCP server was not called' : 'the command did not run';
}

/** The result the model sees when a person declined its call. */
export function deniedResult(req: ApprovalRequest): ToolResult {
  return fail(
    `A person declined this ${req.tool} call, so ${notRun(req)}. Do not repeat the same call. ` +
      'Choose another way (ws_read to look again, a smaller or different change), or finish with done and say what is left undone.',
    [{ kind: 'refusal', text: `${req.tool} declined by a person`, detail: 'approval-denied' }],
  );
}

/** What, if anything, lets a call of this kind run where nobody can be asked. */
function withoutAsking(req: ApprovalRequest): string {
  if (req.reason === 'gated-mcp')
    return 'A server marked "read_only": true in mcp_servers is called without asking; mark it so only if none of its tools change anything.';
  if (req.reason === 'writes') return 'In the auto approval mode (the default) writing tools run without asking.';
  return 'No setting runs a gated command unasked: it runs only where a person can approve it (the tab), or a person runs it.';
}

/** The result the model sees when its gated call was not run because the run has no approver (`slm run`): nobody declined it. */
export function unaskedResult(req: ApprovalRequest): ToolResult {
  return fail(
    `This ${req.tool} call needs a person's approval, and no one was there to approve it (this run has no approver), so ${notRun(req)}. ` +
      `${withoutAsking(req)} Do not repeat the same call. Choose another way, or finish with done and say what is left undone.`,
    [{ kind: 'refusal', text: `${req.tool} not run: no one was there to approve it`, detail: 'approval-unasked' }],
  );
}

/** The result the model sees when a replayed gated call did not run because nobody here approved it. */
export function unapprovedResult(req: ApprovalRequest): ToolResult {
  return fail(
    `This ${req.tool} call was replayed from a recorded session and did not run: ${req.reason === 'gated-mcp' ? 'a call to an MCP server not marked read-only' : 'the command'} needs a person's approval, and an approval in a record is not an approval here. ` +
      `Nothing ran and nothing was changed${req.reason === 'gated-mcp' ? ' (the server was not called)' : ''}. If the call is still needed, make it again and a person will be asked; otherwise choose another way.`,
    [{ kind: 'refusal', text: `${req.tool} not run: not approved here (replayed)`, detail: 'approval-unapproved' }],
  );
}
