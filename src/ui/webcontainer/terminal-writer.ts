/**
 * Turns the WebContainer workspace's terminal events into what an xterm is written: a prompt
 * line per command, the output exactly as the process wrote it, a dim line for how it ended,
 * and the host's notes. It remembers whether the last write ended a line, so a command whose
 * output has no final newline does not run into the next prompt.
 */
import type { TerminalEvent } from '../../workspace/webcontainer/terminal-feed.ts';

const DIM = '\x1b[2m';
const BOLD_GREEN = '\x1b[1;32m';
const CYAN = '\x1b[36m';
const RED = '\x1b[31m';
const RESET = '\x1b[0m';

/** An argument as a shell would need it written: bare when safe, else single-quoted. */
export function shellQuote(arg: string): string {
  if (/^[\w@%+=:,./-]+$/.test(arg)) return arg;
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

export class TerminalWriter {
  private atLineStart = true;

  /** The text to write for `event`. */
  format(event: TerminalEvent): string {
    switch (event.kind) {
      case 'command': {
        const where = event.cwd ? ` ${DIM}(in ${event.cwd})${RESET}` : '';
        return this.line(`${BOLD_GREEN}$${RESET} ${event.argv.map(shellQuote).join(' ')}${where}`);
      }
      case 'output':
        if (event.data === '') return '';
        this.atLineStart = /[\r\n]$/.test(event.data);
        return event.data;
      case 'exit': {
        const how =
          event.exitCode === null
            ? `${RED}[stopped${event.note ? `: ${event.note}` : ''}]`
            : `${DIM}[exit ${event.exitCode}${event.note ? `: ${event.note}` : ''}]`;
        return this.line(`${how}${RESET}`);
      }
      case 'note':
        return this.line(`${CYAN}# ${event.text}${RESET}`);
      default: {
        const never: never = event;
        throw new TypeError(`terminal writer: unknown event ${JSON.stringify(never)}`);
      }
    }
  }

  /** A whole line of its own, starting a new one first when the output left one open. */
  private line(text: string): string {
    const lead = this.atLineStart ? '' : '\r\n';
    this.atLineStart = true;
    return `${lead}${text}\r\n`;
  }
}
