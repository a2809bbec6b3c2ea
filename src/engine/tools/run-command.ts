/**
 * Running a command line through the shell policy, shared by ws_shell and ws_test. The policy
 * reads the line once and returns, with its decision, the execution plan: per pipeline stage the
 * decoded argv, the environment prefixes it allowed, what stdin reads (a heredoc's or
 * here-string's bytes, a workspace file) and where stdout and stderr go. The backend runs that
 * plan — each stage spawned directly, stages joined by pipes — and no command text ever reaches a
 * shell; xargs is carried out here (xargs-run.ts), each command it starts checked first. What was
 * checked is exactly what runs.
 */
import { decideShell, type ShellDecision } from '../shell/index.ts';
import { decideLiteral } from '../shell/policy.ts';
import type { ShellPlan } from '../shell/plan-types.ts';
import { parserFor } from '../treesitter/loader.ts';
import { fail, firstLine, type Note, type ToolResult } from '../result.ts';
import type { ToolContext } from '../context.ts';
import type { ExecPlan, ExecResult } from '../workspace.ts';
import type { EngineSettings } from '../settings.ts';
import { resolvePlan } from './plan-run.ts';
import { runWithXargs } from './xargs-run.ts';
import { bareOptionFile } from './option-files.ts';

export type RunOutcome =
  | { readonly ran: false; readonly result: ToolResult }
  | {
      readonly ran: true;
      readonly exec: ExecResult;
      readonly decision: ShellDecision;
      readonly plan: ExecPlan;
      readonly notes: Note[];
    };

export interface RunLimits {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

/**
 * The timeout a call gets: `shell_timeout` by default; a requested one is capped at
 * `shell_timeout_cap`. `capped` says the request was lowered.
 */
export function resolveTimeout(
  settings: EngineSettings,
  requested: number | undefined,
): { timeoutMs: number; capped: boolean } {
  if (requested === undefined) return { timeoutMs: settings.shell_timeout, capped: false };
  const cap = settings.shell_timeout_cap;
  return requested > cap ? { timeoutMs: cap, capped: true } : { timeoutMs: requested, capped: false };
}

/** The policy's decision for `command` (its plan included when it may run). */
export async function checkCommand(command: string): Promise<ShellDecision> {
  const parser = await parserFor('bash');
  try {
    return decideShell(parser, command);
  } finally {
    parser.delete();
  }
}

/**
 * The decision for the command as it will really run, when its patterns made it another one: a
 * pattern can expand to more operands (`uniq [ab].txt` → `uniq a.txt b.txt`, which writes b.txt)
 * or to a name that reads as an option. Null when the expanded command is no worse than the one
 * that was checked (or nothing was expanded).
 */
function expandedAgain(
  plan: ShellPlan,
  resolved: ExecPlan,
  written: readonly (readonly boolean[])[],
  decision: ShellDecision,
): ShellDecision | null {
  if (!plan.stages.some((st) => st.args.some((a) => a.glob !== undefined))) return null;
  const again = decideLiteral(
    resolved.stages.map((st) => st.argv),
    written,
  );
  const rank = { allow: 0, gated: 1, refuse: 2 } as const;
  return rank[again.decision] > rank[decision.decision] ? again : null;
}

/**
 * For the agent's approval step (its GateCheck): true when this call would be answered "needs a
 * person's approval" — a ws_shell command the policy gates (under any of its argument names).
 */
export async function isGatedShellCall(tool: string, args: unknown): Promise<boolean> {
  if (tool !== 'ws_shell' || typeof args !== 'object' || args === null) return false;
  const a = args as Record<string, unknown>;
  const command = [a.command, a.cmd, a.command_line].find((v): v is string => typeof v === 'string');
  return command !== undefined && (await checkCommand(command)).decision === 'gated';
}

/**
 * Checks `command` with the policy and runs it when allowed (or gated and approved). A refusal
 * or a missing approval comes back as the failed result the model sees, named as `tool`.
 */
export async function runChecked(
  ctx: ToolContext,
  tool: string,
  command: string,
  limits: RunLimits,
): Promise<RunOutcome> {
  // One deadline for the whole call: expanding patterns and judging the result again use it too.
  const deadline = Date.now() + limits.timeoutMs;
  const decision = await checkCommand(command);
  const plan = decision.plan;
  const shown = JSON.stringify(command);
  const policyNote: Note = { kind: 'shell', text: decision.reason, detail: decision.decision };

  if (decision.decision === 'refuse') {
    return {
      ran: false,
      result: fail(`${tool} did not run ${shown} — ${decision.reason}`, [
        policyNote,
        { kind: 'refusal', text: firstLine(decision.reason), detail: decision.rule },
      ]),
    };
  }
  if (decision.decision === 'gated' && !ctx.approved) {
    return {
      ran: false,
      result: fail(
        `${tool} did not run ${shown}: it needs a person's approval in the UI first, and the call runs once they approve it — ${decision.reason}`,
        [{ ...policyNote, detail: 'gated' }],
      ),
    };
  }
  if (plan === undefined) {
    // The policy allowed a line without a plan: a bug, said plainly, and nothing runs.
    return {
      ran: false,
      result: fail(
        `${tool} did not run ${shown}: the policy allowed it but gave no execution plan. Send the command again as one plain command.`,
        [policyNote],
      ),
    };
  }
  const resolved = await resolvePlan(ctx, plan, deadline);
  if (!resolved.ok) {
    return { ran: false, result: fail(`${tool} did not run ${shown}: ${resolved.why}.`, [policyNote]) };
  }
  const expanded = expandedAgain(plan, resolved.plan, resolved.written, decision);
  if (expanded) {
    const argv = resolved.plan.stages.map((st) => st.argv.join(' ')).join(' | ');
    return {
      ran: false,
      result: fail(
        `${tool} did not run ${shown}: its patterns expand to ${JSON.stringify(argv.length > 160 ? `${argv.slice(0, 159)}…` : argv)}, and that command ${expanded.reason}`,
        [policyNote, { kind: 'refusal', text: firstLine(expanded.reason), detail: expanded.rule }],
      ),
    };
  }

  const named = await bareOptionFile(ctx, resolved.plan);
  if (named)
    return {
      ran: false,
      result: fail(`${tool} did not run ${shown}: ${named}.`, [
        policyNote,
        { kind: 'refusal', text: firstLine(named), detail: 'option-file' },
      ]),
    };

  const notes: Note[] = [policyNote];
  if (decision.decision === 'gated')
    notes.push({ kind: 'shell', text: 'approved by a person in the UI', detail: 'approved' });
  if (plan.stages.length > 1)
    notes.push({
      kind: 'shell',
      text: `ran as ${plan.stages.length} processes joined by pipes, each exactly as checked (no shell)`,
      detail: 'pipeline',
    });
  const left = deadline - Date.now();
  if (left <= 0)
    return {
      ran: false,
      result: fail(
        `${tool} did not run ${shown}: the ${limits.timeoutMs} ms timeout ran out while its patterns were expanded and checked; nothing ran. Narrow the patterns or raise timeout_ms.`,
        [policyNote, { kind: 'refusal', text: 'timeout ran out before the command started', detail: 'timeout' }],
      ),
    };
  const ran = await runWithXargs(ctx, resolved.plan, {
    cwd: '',
    timeoutMs: left,
    maxOutputBytes: limits.maxOutputBytes,
  });
  if (!ran.ok) {
    return {
      ran: false,
      result: fail(`${tool} did not run ${shown}: ${ran.why}`, [
        policyNote,
        { kind: 'refusal', text: firstLine(ran.why), detail: ran.rule },
      ]),
    };
  }
  for (const text of ran.notes) notes.push({ kind: 'shell', text, detail: 'xargs' });
  return { ran: true, exec: ran.exec, decision, plan: resolved.plan, notes };
}
