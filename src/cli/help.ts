/**
 * What `slm` prints about itself: the one-line-per-command overview (`slm help`, `slm --help`, and after
 * a missing or unknown command), one command's usage (`slm help COMMAND`, `slm COMMAND --help`, and after
 * a usage error), and the version (`slm --version`).
 */
import { APP_VERSION, engineVersion } from '../session/version.ts';
import type { CommandEntry } from './command.ts';

/** The flags that ask for help, at the top level or after a command. */
export const HELP_FLAGS: ReadonlySet<string> = new Set(['--help', '-h']);
/** The flags that ask for the version (top level only). */
export const VERSION_FLAGS: ReadonlySet<string> = new Set(['--version', '-V']);

/** True when a command's arguments ask for its help: `--help` or `-h` before any `--`. */
export function asksForHelp(args: readonly string[]): boolean {
  const end = args.indexOf('--');
  return (end === -1 ? args : args.slice(0, end)).some((a) => HELP_FLAGS.has(a));
}

/** Every command on one line, with how to learn more. */
export function overviewText(commands: Readonly<Record<string, CommandEntry>>): string {
  const names = Object.keys(commands);
  const width = Math.max(...names.map((n) => n.length)) + 2;
  const lines = names.map((n) => `  ${n.padEnd(width)}${commands[n]!.summary}`);
  return [
    'usage: slm COMMAND [ARGS]',
    '',
    'commands:',
    ...lines,
    '',
    "slm help COMMAND (or slm COMMAND --help) prints a command's usage and exit codes.",
    'slm --version prints the version of slm and of its engine.',
    '',
  ].join('\n');
}

/** A command's usage block, as help prints it and as a usage error ends. */
export function usageBlock(usage: string): string {
  return `usage:\n  ${usage.replace(/\n/g, '\n  ')}\n`;
}

/** `slm 0.1.0 (engine 0.1.0+3f9a0c21d4e8)`: the engine version is the one sessions record. */
export async function versionText(): Promise<string> {
  return `slm ${APP_VERSION} (engine ${await engineVersion()})\n`;
}
