/**
 * The OS sandbox for the model's commands, as the CLI chooses it: bubblewrap when it can run
 * here; else, only with --unsandboxed-commands, the commands run directly; else they are not
 * run. Anything but bubblewrap is said once on stderr, with what it means and what to do.
 */
import {
  commandSandbox,
  UNSANDBOXED_FLAG,
  UNSANDBOXED_RISK,
  type CommandSandbox,
} from '../workspace/node/host-sandbox.ts';
import { writeOut, type CliIO } from './command.ts';

/** The parseArgs option of every command that runs the model's commands. */
export const SANDBOX_OPTIONS = { 'unsandboxed-commands': { type: 'boolean' } } as const;

/** The usage line for the flag. */
export const SANDBOX_USAGE = `${UNSANDBOXED_FLAG}: where the OS sandbox (bubblewrap) cannot run, run commands anyway — this ${UNSANDBOXED_RISK}.`;

/** The sandbox for `slm COMMAND`, said on stderr when it is not bubblewrap. */
export async function chooseSandbox(command: string, allowUnsandboxed: boolean, io: CliIO): Promise<CommandSandbox> {
  const sandbox = await commandSandbox(allowUnsandboxed);
  if (sandbox.kind !== 'bwrap') await writeOut(io.stderr, `slm ${command}: ${sandbox.note}\n`);
  return sandbox;
}
