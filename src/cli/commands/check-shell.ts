/**
 * `slm check-shell`: reads `{"cmd": "..."}` JSON lines on stdin and answers each with one line
 * `{"decision","tier","reason","rule","argv"?,"plan"?}` from the ws_shell policy, in order (`plan`:
 * what would run, for allow and gated — see engine/shell/plan.ts). A line that
 * is not valid JSON or has no string `cmd` is answered with decision "refuse" saying so, and the
 * run goes on. This output is a public contract that other checks run against.
 */
import { createInterface } from 'node:readline';
import type { Parser } from 'web-tree-sitter';
import { decideShell, type ShellDecision } from '../../engine/shell/index.ts';
import { parserFor } from '../../engine/treesitter/loader.ts';
import { EXIT, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';

const USAGE = `slm check-shell  < commands.jsonl
    Reads one JSON object per line: {"cmd": "ls -la | wc -l"}.
    Prints one line {"decision": "allow"|"gated"|"refuse", "tier", "reason", "rule", "argv"?, "plan"?}
    per input line, in order, without running anything. "plan" (allow and gated) is what would
    run: per stage its args, env, stdin and where stdout/stderr go.`;

/** The answer for a line that carries no command to judge. */
function badLine(reason: string): ShellDecision {
  return { decision: 'refuse', tier: 'never', reason, rule: 'bad-input' };
}

/** Judges one input line. */
export function answerLine(parser: Parser, line: string): ShellDecision {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return badLine(
      `input line is not valid JSON: ${JSON.stringify(line.slice(0, 80))}. Send one object per line: {"cmd": "ls -la"}.`,
    );
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return badLine(`input line is ${JSON.stringify(parsed)?.slice(0, 80)}, not a JSON object. Send {"cmd": "ls -la"}.`);
  }
  const cmd = (parsed as Record<string, unknown>).cmd;
  if (typeof cmd !== 'string') {
    const got = cmd === undefined ? '' : ` (its cmd is a ${cmd === null ? 'null' : typeof cmd})`;
    return badLine(`input line has no "cmd" string${got}. Send {"cmd": "ls -la"}.`);
  }
  return decideShell(parser, cmd);
}

/**
 * Answers every line of `stdin` on `stdout` and resolves to the exit code (0 once the input
 * ends; every line, good or bad, gets its answer).
 */
export async function checkShellCommand(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): Promise<number> {
  const parser = await parserFor('bash');
  try {
    const lines = createInterface({ input: stdin, crlfDelay: Infinity });
    for await (const line of lines) {
      if (line.trim() === '') continue;
      await writeOut(stdout, `${JSON.stringify(answerLine(parser, line))}\n`);
    }
  } finally {
    parser.delete();
  }
  return EXIT.ok;
}

/** The `check-shell` subcommand. */
export const checkShellEntry: CommandEntry = {
  summary: 'judges shell commands read as JSON lines with the ws_shell policy, running nothing',
  usage: USAGE,
  run: async (argv: readonly string[], io: CliIO) => {
    if (argv.length)
      throw new UsageError(
        `slm check-shell: takes no arguments (got ${argv.join(' ')}); the commands come on stdin`,
        USAGE,
      );
    return checkShellCommand(io.stdin, io.stdout);
  },
};
