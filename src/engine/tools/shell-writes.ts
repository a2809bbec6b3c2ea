/**
 * What a gated ws_shell call would write, for the approval prompt: the policy's
 * `ShellDecision.writes` for the call's command (the same argument names run-command.ts reads).
 * undefined when the call is not a gated shell command, or the policy cannot tell.
 */
import { decideShell } from '../shell/index.ts';
import { parserFor } from '../treesitter/loader.ts';

/** The paths a gated ws_shell call would write, as the policy lists them. */
export async function gatedShellWrites(tool: string, args: unknown): Promise<readonly string[] | undefined> {
  if (tool !== 'ws_shell' || typeof args !== 'object' || args === null) return undefined;
  const a = args as Record<string, unknown>;
  const command = [a.command, a.cmd, a.command_line].find((v): v is string => typeof v === 'string');
  if (command === undefined) return undefined;
  const parser = await parserFor('bash');
  try {
    const decision = decideShell(parser, command);
    return decision.decision === 'gated' ? decision.writes : undefined;
  } finally {
    parser.delete();
  }
}
