/**
 * `slm`: the command-line face of the engine (`npm run -s slm -- COMMAND …`). Subcommands come
 * from one table; an unknown one prints the usage and exits 2. Output formats and exit codes
 * are a public contract: scripts and the bench depend on them.
 */
import { useNodeWasm } from '../platform/node-wasm.ts';
import { EXIT, UsageError, type CliIO, type CommandEntry } from './command.ts';
import { batchCommand } from './commands/batch.ts';
import { callCommand } from './commands/call.ts';
import { checkShellEntry } from './commands/check-shell.ts';
import { evalCommand } from './commands/eval.ts';
import { parseEntry } from './commands/parse.ts';
import { runCommand } from './commands/run.ts';
import { replayCommand } from './commands/replay.ts';

/** Every subcommand, by name. */
const COMMANDS: Readonly<Record<string, CommandEntry>> = {
  call: callCommand,
  batch: batchCommand,
  run: runCommand,
  replay: replayCommand,
  eval: evalCommand,
  'check-shell': checkShellEntry,
  parse: parseEntry,
};

function usageText(): string {
  const lines = Object.values(COMMANDS).map((c) => `  ${c.usage.replace(/\n/g, '\n  ')}`);
  return `usage: slm COMMAND [ARGS]\n\ncommands:\n${lines.join('\n\n')}\n`;
}

/** Runs one command line and resolves to the process exit code. */
async function main(argv: readonly string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout.write(usageText());
    return EXIT.ok;
  }
  if (name === undefined) {
    io.stderr.write(`slm: name a command\n\n${usageText()}`);
    return EXIT.usage;
  }
  const command = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!command) {
    io.stderr.write(`slm: unknown command ${JSON.stringify(name)}\n\n${usageText()}`);
    return EXIT.usage;
  }
  try {
    return await command.run(rest, io);
  } catch (e) {
    if (!(e instanceof UsageError)) {
      // A bug, not bad input: say so with the stack, under its own exit code.
      io.stderr.write(`slm ${name}: internal error: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
      return EXIT.internal;
    }
    io.stderr.write(`${e.message}\n\nusage:\n  ${e.usage.replace(/\n/g, '\n  ')}\n`);
    return EXIT.usage;
  }
}

useNodeWasm();
process.exitCode = await main(process.argv.slice(2), {
  stdin: process.stdin,
  stdout: process.stdout,
  stderr: process.stderr,
});
