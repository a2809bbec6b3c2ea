/**
 * The `slm` command line, from arguments to exit code: subcommands come from one table; `help`,
 * `--help` and `--version` are answered here; an unknown command prints the overview and exits 2.
 * Output formats and exit codes are a public contract: scripts and the bench depend on them.
 */
import { EXIT, UsageError, type CliIO, type CommandEntry } from './command.ts';
import { batchCommand } from './commands/batch.ts';
import { callCommand } from './commands/call.ts';
import { checkShellEntry } from './commands/check-shell.ts';
import { evalCommand } from './commands/eval.ts';
import { parseEntry } from './commands/parse.ts';
import { runCommand } from './commands/run.ts';
import { replayCommand } from './commands/replay.ts';
import { serveWebCommand } from './commands/serve-web.ts';
import { asksForHelp, HELP_FLAGS, overviewText, usageBlock, VERSION_FLAGS, versionText } from './help.ts';

/** Every subcommand, by name, in the order the overview lists them. */
export const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  call: callCommand,
  batch: batchCommand,
  run: runCommand,
  replay: replayCommand,
  eval: evalCommand,
  'check-shell': checkShellEntry,
  parse: parseEntry,
  'serve-web': serveWebCommand,
};

function commandNamed(name: string): CommandEntry | undefined {
  return Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
}

/** `slm help [COMMAND]`: the overview, or one command's usage; exit 2 for a name that is no command. */
function help(args: readonly string[], io: CliIO): number {
  if (args.length === 0) {
    io.stdout.write(overviewText(COMMANDS));
    return EXIT.ok;
  }
  const command = args.length === 1 ? commandNamed(args[0]!) : undefined;
  if (!command) {
    const why =
      args.length > 1 ? `takes one command, got ${args.join(' ')}` : `unknown command ${JSON.stringify(args[0])}`;
    io.stderr.write(`slm help: ${why}\n\n${overviewText(COMMANDS)}`);
    return EXIT.usage;
  }
  io.stdout.write(usageBlock(command.usage));
  return EXIT.ok;
}

/** Runs one command line (the arguments after `slm`) and resolves to the process exit code. */
export async function runSlm(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr.write(`slm: name a command\n\n${overviewText(COMMANDS)}`);
    return EXIT.usage;
  }
  if (VERSION_FLAGS.has(name)) {
    io.stdout.write(await versionText());
    return EXIT.ok;
  }
  if (name === 'help' || HELP_FLAGS.has(name)) return help(name === 'help' ? rest : [], io);
  const command = commandNamed(name);
  if (!command) {
    io.stderr.write(`slm: unknown command ${JSON.stringify(name)}\n\n${overviewText(COMMANDS)}`);
    return EXIT.usage;
  }
  if (asksForHelp(rest)) return help([name], io);
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (!(e instanceof UsageError)) {
      // A bug, not bad input: say so with the stack, under its own exit code.
      io.stderr.write(`slm ${name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      return EXIT.internal;
    }
    io.stderr.write(`${e.message}\n\n${usageBlock(e.usage)}`);
    return EXIT.usage;
  }
}
