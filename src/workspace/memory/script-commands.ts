/**
 * How a package.json script runs in the memory workspace (`npm test`, `npm run NAME`, and so
 * ws_test): the script's text is read by the engine's shell policy, exactly as a ws_shell
 * command is, into an execution plan; its patterns are expanded against the workspace as bash
 * would; and its one command runs only when its first word is in `SCRIPT_COMMANDS` — handed to
 * the workspace command of that name with its arguments unparsed. No script text is ever
 * re-parsed by a shell. Anything else (a command this workspace does not have, a chain, a
 * pipeline, what the policy refuses or gates) says what could not run and why.
 */
import { checkCommand } from '../../engine/tools/run-command.ts';
import { resolvePlan } from '../../engine/tools/plan-run.ts';
import { resolvePath } from '../../engine/jail.ts';
import type { Workspace } from '../../engine/workspace.ts';

/** A script's first word: run as the workspace command of that name, or refused with why. */
export type ScriptCommand = { readonly runs: true } | { readonly refused: string };

const RUNS: ScriptCommand = { runs: true };

/**
 * The script commands the memory workspace runs, by first word. `node` is the JavaScript
 * sandbox's node; jest, vitest and mocha run its Jest-style runner. A runtime that joins the
 * workspace adds its command here.
 */
export const SCRIPT_COMMANDS: Readonly<Record<string, ScriptCommand>> = {
  node: RUNS,
  jest: RUNS,
  vitest: RUNS,
  mocha: RUNS,
  // Python's commands say themselves where no Python engine runs (the tab today): python-commands.ts.
  pytest: RUNS,
  python: RUNS,
  python3: RUNS,
};

/** One command of a script, ready to run: argv literal, the environment prefixes the script set. */
export interface ScriptStage {
  readonly argv: readonly string[];
  readonly env: Readonly<Record<string, string>>;
}

/** What the memory workspace runs for each script command, named in refusals. */
const WHAT_RUNS = Object.entries(SCRIPT_COMMANDS)
  .filter(([, c]) => 'runs' in c)
  .map(([name]) => name)
  .join(', ');

/**
 * The command `script` runs, or why it cannot run here. `ws` is the workspace (its files, for
 * patterns); `dir` is the package's directory relative to its root ('' for the root).
 */
export async function planScript(
  ws: Workspace,
  dir: string,
  script: string,
): Promise<{ readonly stage: ScriptStage } | { readonly refused: string }> {
  const decision = await checkCommand(script);
  if (decision.decision === 'refuse') return { refused: `the shell policy refuses it: ${decision.reason}` };
  if (decision.decision === 'gated')
    return { refused: `it needs a person's approval, which a script run cannot ask for: ${decision.reason}` };
  const plan = decision.plan;
  if (!plan || plan.stages.length !== 1)
    return {
      refused: `it is ${plan ? `a pipeline of ${plan.stages.length} commands` : 'not one plain command'}; a script here runs one command (${WHAT_RUNS})`,
    };
  const [only] = plan.stages;
  if (only!.stdin.kind !== 'empty' && only!.stdin.kind !== 'pipe')
    return { refused: 'it redirects its input; a script here runs one command without redirections' };
  if (only!.stdout === 'null' || only!.stderr === 'null')
    return { refused: 'it sends output to /dev/null; a script here runs one command whose output is shown' };
  const globbed = only!.args.some((a) => a.glob !== undefined);
  if (globbed && dir !== '')
    return {
      refused: `its patterns are expanded only for the workspace's top package.json, and this one is in ${dir}/; name the files`,
    };
  const resolved = await resolvePlan({ ws, resolve: (path, op) => resolvePath(ws, path, op) }, plan);
  if (!resolved.ok) return { refused: resolved.why };
  const stage = resolved.plan.stages[0]!;
  // `npx jest …` in a script: the workspace has no packages, so npx can only mean its own command.
  const argv = stage.argv[0] === 'npx' && stage.argv.length > 1 ? stage.argv.slice(1) : stage.argv;
  const command = SCRIPT_COMMANDS[argv[0]!];
  if (!command)
    return {
      refused: `${JSON.stringify(argv[0])} is not a command the memory workspace has for scripts (it runs ${WHAT_RUNS})`,
    };
  if ('refused' in command) return { refused: `${argv[0]}: ${command.refused}` };
  return { stage: { argv, env: stage.env ?? {} } };
}
