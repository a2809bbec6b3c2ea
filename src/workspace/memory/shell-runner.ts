/**
 * The memory workspace's ProcessRunner: commands run in just-bash over the workspace's own
 * InMemoryFs (so the shell and the file tools see the same files), with `node`, `npm` and
 * `npx` added (node-commands.ts) and JavaScript handed to a JsEngine. One Bash per command, so
 * no shell state (variables, cwd) leaks from one call to the next.
 *
 * Bounds: the timeout aborts the run (just-bash stops at its next statement; the JsEngine
 * terminates its worker or kills its process group) and, should just-bash not return, the
 * result is given anyway. Output is bounded while running by just-bash's own output limit
 * (intermediate pipeline output included) and then cut to head + tail of maxOutputBytes.
 */
import { Bash } from 'just-bash';
import type { ExecOptions, ExecResult } from '../../engine/workspace.ts';
import type { ProcessRunner, RunnerTarget } from './process-runner.ts';
import { nodeCommands, type JsEngine } from './node-commands.ts';

/** Output just-bash may produce in one run (all stages of a pipeline together) before it stops the command. */
export const SHELL_LIVE_OUTPUT_BYTES = 16 * 1024 * 1024;

/** How long a run may take to notice an abort before its result is given without it. */
const ABORT_GRACE_MS = 1000;

const BACKEND = 'ran in just-bash (the in-memory shell; about 80 commands, no network)';

/** Quotes one word for the one-line script that starts the command (its arguments bypass parsing). */
function quoteWord(word: string): string {
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

/** Keeps the first and last `max / 2` characters of `text`, with a marker saying how many bytes were dropped. */
export function capHeadTail(text: string, max: number): { text: string; truncated: boolean } {
  if (text.length <= max) return { text, truncated: false };
  const head = Math.ceil(max / 2);
  const tail = max - head;
  const omitted = new TextEncoder().encode(text.slice(head, text.length - tail)).length;
  return { text: `${text.slice(0, head)}\n… [${omitted} bytes of output omitted] …\n${text.slice(text.length - tail)}`, truncated: true };
}

export class ShellRunner implements ProcessRunner {
  constructor(private readonly js: JsEngine) {}

  async run(target: RunnerTarget, argv: readonly string[], opts: ExecOptions): Promise<ExecResult> {
    const [cmd, ...args] = argv;
    if (cmd === undefined) return { exitCode: 127, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: 'no command was given (the argument vector is empty)' };

    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The reason tells the JsEngine this abort is the timeout, not a cancel.
      abort.abort(new DOMException(`timed out after ${opts.timeoutMs} ms`, 'TimeoutError'));
    }, opts.timeoutMs);
    const onAbort = () => abort.abort();
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    if (opts.signal?.aborted) onAbort();

    const notes = new Set<string>([BACKEND]);
    let omitted = 0;
    let interrupted = '';
    const liveCap = Math.max(opts.maxOutputBytes, SHELL_LIVE_OUTPUT_BYTES);
    const bash = new Bash({
      fs: target.fs,
      cwd: opts.cwd ? `${target.root}/${opts.cwd}` : target.root,
      env: { HOME: target.root, PWD: target.root },
      executionLimits: { maxOutputSize: liveCap, maxExecutionTimeMs: opts.timeoutMs },
      customCommands: nodeCommands(this.js, {
        fs: target.fs,
        root: target.root,
        signal: abort.signal,
        deadline: Date.now() + opts.timeoutMs,
        maxOutputBytes: opts.maxOutputBytes,
        note: (n) => notes.add(n),
        omitted: (bytes) => (omitted += Math.max(0, bytes)),
        interrupted: (output) => (interrupted += output),
      }),
    });

    // `args` reach the command unparsed; only the quoted name and the environment prefix are
    // shell text. 2>&1: one stream, as the Node backend gives.
    const prefix = Object.entries(opts.env ?? {})
      .filter(([name]) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name))
      .map(([name, value]) => `${name}=${quoteWord(value)} `)
      .join('');
    const running = bash.exec(`${prefix}${quoteWord(cmd)} 2>&1`, { args: [...args], signal: abort.signal });
    const gaveUp = new Promise<null>((resolve) => abort.signal.addEventListener('abort', () => setTimeout(() => resolve(null), ABORT_GRACE_MS), { once: true }));
    try {
      const r = await Promise.race([running, gaveUp]);
      const killed = timedOut || abort.signal.aborted;
      // just-bash's own notice of the abort is not the command's output; the result says it was killed.
      let raw = r ? r.stdout + r.stderr : '';
      if (killed) raw = raw.replace(/(^|\n)bash: execution aborted\n?$/, '$1');
      // The output so far says where a killed program was; just-bash drops it with the aborted command.
      if (killed && interrupted && !raw.includes(interrupted)) raw += interrupted;
      const hitLimit = r !== null && r.exitCode === 126 && /output size (?:limit )?exceeded/.test(raw);
      if (hitLimit) notes.add(`just-bash stopped the command when its output passed ${liveCap} bytes`);
      const capped = capHeadTail(raw, opts.maxOutputBytes);
      return {
        exitCode: killed ? null : (r?.exitCode ?? null),
        output: capped.text,
        totalBytes: new TextEncoder().encode(raw).length + omitted,
        truncated: capped.truncated || hitLimit || omitted > 0,
        timedOut,
        backendNote: [...notes].join('; '),
      };
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }
}
