/**
 * Running a command line through the shell policy, shared by ws_shell and ws_test. The policy
 * decides from the parsed argument list; what is spawned is exactly that list:
 *
 * - a single command without redirections runs as its argv (the policy's own argv[0]), with
 *   any `NAME=value` prefixes (which the policy limits to harmless names) as its environment;
 * - a pipeline, or a command with a redirection the policy allowed (`2>&1`, `> /dev/null`,
 *   `< file`), runs as `bash -c LINE` — only after the policy approved every stage and every
 *   redirection of that very line. On the memory backend that `bash` is just-bash over the
 *   in-memory files; on the Node backend it is the host's bash, in its own process group.
 */
import type { Parser } from 'web-tree-sitter';
import { decideShell, type ShellDecision } from '../shell/index.ts';
import { readProgram } from '../shell/syntax.ts';
import { parserFor } from '../treesitter/loader.ts';
import { fail, firstLine, type Note, type ToolResult } from '../result.ts';
import type { ToolContext } from '../context.ts';
import type { ExecResult } from '../workspace.ts';
import type { EngineSettings } from '../settings.ts';

/** How a checked command is handed to the workspace. */
export interface ExecPlan {
  readonly argv: readonly string[];
  readonly env?: Readonly<Record<string, string>>;
  /** True when the whole line runs through `bash -c` (pipelines, redirections). */
  readonly viaShell: boolean;
}

export type RunOutcome =
  | { readonly ran: false; readonly result: ToolResult }
  | { readonly ran: true; readonly exec: ExecResult; readonly decision: ShellDecision; readonly plan: ExecPlan; readonly notes: Note[] };

export interface RunLimits {
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
}

/**
 * The timeout a call gets: `shell_timeout` by default; a requested one is capped at
 * `shell_timeout_cap`. `capped` says the request was lowered.
 */
export function resolveTimeout(settings: EngineSettings, requested: number | undefined): { timeoutMs: number; capped: boolean } {
  if (requested === undefined) return { timeoutMs: settings.shell_timeout, capped: false };
  const cap = settings.shell_timeout_cap;
  return requested > cap ? { timeoutMs: cap, capped: true } : { timeoutMs: requested, capped: false };
}

/** The policy's decision for `command`, and how it would run when allowed. */
export async function checkCommand(command: string): Promise<{ decision: ShellDecision; plan: ExecPlan | null }> {
  const parser = await parserFor('bash');
  try {
    const decision = decideShell(parser, command);
    return { decision, plan: decision.decision === 'refuse' ? null : planFor(parser, command, decision) };
  } finally {
    parser.delete();
  }
}

function planFor(parser: Parser, command: string, decision: ShellDecision): ExecPlan | null {
  const argv = decision.argv?.[0];
  if (!argv) return null;
  const tree = parser.parse(command);
  if (!tree) return null;
  try {
    const stages = readProgram(tree.rootNode, command);
    if (!Array.isArray(stages)) return null;
    const [only] = stages;
    if (stages.length === 1 && only && only.redirects.length === 0) {
      const env = Object.fromEntries(only.assignments.map((a) => [a.name, a.value.text]));
      return only.assignments.length ? { argv, env, viaShell: false } : { argv, viaShell: false };
    }
    return { argv: ['bash', '-c', command], viaShell: true };
  } finally {
    tree.delete();
  }
}

/**
 * For the agent's approval step (its GateCheck): true when this call would be answered "needs a
 * person's approval" — a ws_shell command the policy gates (under any of its argument names).
 */
export async function isGatedShellCall(tool: string, args: unknown): Promise<boolean> {
  if (tool !== 'ws_shell' || typeof args !== 'object' || args === null) return false;
  const a = args as Record<string, unknown>;
  const command = [a.command, a.cmd, a.command_line].find((v): v is string => typeof v === 'string');
  return command !== undefined && (await checkCommand(command)).decision.decision === 'gated';
}

/**
 * Checks `command` with the policy and runs it when allowed (or gated and approved). A refusal
 * or a missing approval comes back as the failed result the model sees, named as `tool`.
 */
export async function runChecked(ctx: ToolContext, tool: string, command: string, limits: RunLimits): Promise<RunOutcome> {
  const { decision, plan } = await checkCommand(command);
  const shown = JSON.stringify(command);
  const policyNote: Note = { kind: 'shell', text: decision.reason, detail: decision.decision };

  if (decision.decision === 'refuse') {
    return {
      ran: false,
      result: fail(`${tool} did not run ${shown} — ${decision.reason}`, [policyNote, { kind: 'refusal', text: firstLine(decision.reason), detail: decision.rule }]),
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
  if (plan === null) {
    // The policy allowed a line this module cannot turn into an argument list: a bug, said plainly.
    return {
      ran: false,
      result: fail(`${tool} did not run ${shown}: the policy allowed it but gave no argument list to run. Send the command again as one plain command.`, [policyNote]),
    };
  }

  const notes: Note[] = [policyNote];
  if (decision.decision === 'gated') notes.push({ kind: 'shell', text: 'approved by a person in the UI', detail: 'approved' });
  if (plan.viaShell) notes.push({ kind: 'shell', text: 'ran the whole checked line with bash -c (a pipeline or a redirection)', detail: 'via-shell' });
  const exec = await ctx.ws.exec(plan.argv, {
    cwd: '',
    timeoutMs: limits.timeoutMs,
    maxOutputBytes: limits.maxOutputBytes,
    ...(plan.env ? { env: plan.env } : {}),
  });
  return { ran: true, exec, decision, plan, notes };
}
