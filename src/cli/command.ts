/**
 * What every `slm` subcommand shares: its streams, its exit codes and the usage error it
 * raises for a malformed command line. A command is a function from arguments to an exit code.
 */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** The streams a command talks through (process.std* in the CLI, in-memory streams in tests). */
export interface CliIO {
  readonly stdin: NodeJS.ReadableStream;
  readonly stdout: NodeJS.WritableStream;
  readonly stderr: NodeJS.WritableStream;
}

/** Exit codes, part of the public contract. */
export const EXIT = Object.freeze({
  /** The tool call succeeded (or the batch ran to the end of its input). */
  ok: 0,
  /** The tool refused or failed; its text says why. */
  failed: 1,
  /** The command line itself was wrong; nothing ran. */
  usage: 2,
  /** An internal error (a bug); the stack is on stderr. */
  internal: 3,
});

export interface CommandEntry {
  /** What the command does, in one line of the `slm help` overview. */
  readonly summary: string;
  /** The command's usage, shown by `slm help COMMAND`, `slm COMMAND --help` and after a usage error. */
  readonly usage: string;
  run(args: readonly string[], io: CliIO): Promise<number>;
}

/** Thrown by a command for a malformed command line; main prints it with the usage and exits 2. */
export class UsageError extends Error {
  constructor(
    message: string,
    /** The usage of the command that raised it. */
    readonly usage: string,
  ) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Writes `text` and waits for the stream to drain when it is full, so big outputs keep their order and memory stays flat. */
export function writeOut(stream: NodeJS.WritableStream, text: string): Promise<void> {
  if (stream.write(text)) return Promise.resolve();
  return new Promise((resolve) => stream.once('drain', () => resolve()));
}

/** A command's options read by `parseArgs` (no positionals, unknown options refused), a malformed line thrown as `usage` makes it. */
export function parseOptions<const T extends NonNullable<ParseArgsConfig['options']>>(
  argv: readonly string[],
  options: T,
  usage: (message: string) => UsageError,
) {
  try {
    return parseArgs({ args: [...argv], options, allowPositionals: false, strict: true }).values;
  } catch (e) {
    throw usage((e as Error).message);
  }
}
