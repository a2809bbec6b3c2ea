/**
 * ws_shell: run one command, bounded. The shell policy decides first (allow, gated, refuse)
 * from the parsed argument list; a refusal names the tier and the tool to use instead, a gated
 * command waits for a person's approval, and an allowed one runs with a timeout (the whole
 * process tree is killed when it fires) and an output cap applied while it runs. The model
 * sees the output with escapes stripped, head and tail kept, the exit code, and an explicit
 * message when there was no output.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok, type Note } from '../result.ts';
import { viewExec } from '../exec-output.ts';
import { distrust, parseTestTally, tallyNote } from '../tally.ts';
import { resolveTimeout, runChecked } from './run-command.ts';

/** Bytes a backend keeps of one command's output (head and tail halves); the rest is counted, not kept. */
export const SHELL_OUTPUT_BYTES = 128 * 1024;

/** Characters kept free under max_tool_chars for the exit line, the timeout and cap messages. */
const FOOTER_RESERVE = 700;

const schema = z.object({
  command: z
    .string()
    .describe('One command or a read-only pipeline, e.g. "npm test" or "grep -rn TODO src | head -n 20"'),
  timeout_ms: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Timeout in milliseconds (default: the shell_timeout setting, 2 minutes; capped by shell_timeout_cap)'),
});

export const wsShell = defineTool({
  name: 'ws_shell',
  summary: 'Run one command (bounded)',
  writes: false,
  schema,
  aliases: { cmd: 'command', command_line: 'command' },
  async run(args, ctx) {
    const { timeoutMs, capped } = resolveTimeout(ctx.settings, args.timeout_ms);
    const outcome = await runChecked(ctx, 'ws_shell', args.command, { timeoutMs, maxOutputBytes: SHELL_OUTPUT_BYTES });
    if (!outcome.ran) return outcome.result;

    const { exec } = outcome;
    const view = viewExec(exec, {
      command: args.command,
      timeoutMs,
      timeoutCapMs: ctx.settings.shell_timeout_cap,
      budget: Math.max(200, ctx.settings.max_tool_chars - FOOTER_RESERVE),
    });
    const notes: Note[] = [...outcome.notes, ...view.notes];
    let text = view.text;
    if (capped) {
      text += `\n[timeout_ms ${args.timeout_ms} is above the cap; the command ran with ${timeoutMs} ms (shell_timeout_cap).]`;
      notes.push({ kind: 'shell', text: `timeout_ms lowered to the cap ${timeoutMs}`, detail: 'timeout-capped' });
    }
    const tally = parseTestTally(exec.output, 'ws_shell');
    const untrusted = tally ? distrust(tally, exec.exitCode, exec.timedOut) : null;
    if (tally && !untrusted) notes.push(tallyNote(tally));
    if (untrusted) notes.push({ kind: 'hint', text: `tally not counted: ${untrusted}`, detail: 'tally-distrusted' });
    return exec.exitCode === 0 && !exec.timedOut ? ok(text, notes) : fail(text, notes);
  },
});
