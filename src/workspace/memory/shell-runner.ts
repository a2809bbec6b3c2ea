/**
 * The memory workspace's ProcessRunner: each stage of the plan runs as one just-bash command
 * over the workspace's own InMemoryFs (so the shell and the file tools see the same files), with
 * `node`, `npm` and `npx` added (node-commands.ts) and JavaScript handed to a JsEngine, and
 * `python3`/`python`/`pytest` handed to a Python engine where one is given (python-commands.ts). The
 * arguments are handed over unparsed; stages run one after another, each reading the previous
 * one's output, routed as the plan says. One Bash per command, so no shell state (variables,
 * cwd) leaks from one call to the next.
 *
 * Bounds: the timeout aborts the run (just-bash stops at its next statement; the JsEngine
 * terminates its worker or kills its process group) and, should just-bash not return, the
 * result is given anyway. Output is bounded while running by just-bash's own output limit
 * (intermediate pipeline output included) and then cut to head + tail of maxOutputBytes.
 */
import { Bash } from 'just-bash';
import type { ExecOptions, ExecPlan, ExecResult, ExecSink, PythonState } from '../../engine/workspace.ts';
import type { ProcessRunner, RunnerTarget } from './process-runner.ts';
import { literalOperands } from './literal-operands.ts';
import { nodeCommands, type CommandRun, type JsEngine } from './node-commands.ts';
import { pythonCommands } from './python-commands.ts';

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
  return {
    text: `${text.slice(0, head)}\n… [${omitted} bytes of output omitted] …\n${text.slice(text.length - tail)}`,
    truncated: true,
  };
}

/** Where one stage's descriptor ends up: the next stage's stdin, the output, or nowhere. */
function place(sink: ExecSink, last: boolean): 'next' | 'output' | 'null' {
  return sink === 'next' && last ? 'output' : sink;
}

export class ShellRunner implements ProcessRunner {
  /** `js` runs `node`; `py`, when given, runs `python3`/`python`/`pytest` (else they say Python is not available). */
  constructor(
    private readonly js: JsEngine,
    private readonly py?: JsEngine,
  ) {}

  pythonWarm(): Promise<void> {
    return this.py?.warm?.() ?? Promise.resolve();
  }

  pythonState(): PythonState {
    return this.py ? (this.py.state?.() ?? 'ready') : 'none';
  }

  /** `node`'s runtime, the JavaScript engine's; a command that ran python3 says Python's in its result. */
  get runtime(): string | undefined {
    return this.js.runtime;
  }

  async run(target: RunnerTarget, plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    if (plan.stages.length === 0 || plan.stages.some((s) => s.argv.length === 0)) {
      return {
        exitCode: 127,
        output: '',
        totalBytes: 0,
        truncated: false,
        timedOut: false,
        backendNote: 'no command was given (a stage has an empty argument vector)',
      };
    }

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
    // What a program that names its own runtime ran on (python3); the last one said is kept.
    let runtime: string | undefined;
    const liveCap = Math.max(opts.maxOutputBytes, SHELL_LIVE_OUTPUT_BYTES);
    const commandRun: CommandRun = {
      fs: target.fs,
      root: target.root,
      signal: abort.signal,
      deadline: Date.now() + opts.timeoutMs,
      maxOutputBytes: opts.maxOutputBytes,
      note: (n) => notes.add(n),
      omitted: (bytes) => (omitted += Math.max(0, bytes)),
      interrupted: (output) => (interrupted += output),
      ranOn: (r) => (runtime = r),
    };
    // One Bash per stage: its variables are the environment the program sees (exported).
    const shellFor = (env: Readonly<Record<string, string>>): Bash =>
      new Bash({
        fs: target.fs,
        cwd: opts.cwd ? `${target.root}/${opts.cwd}` : target.root,
        env: { ...env, HOME: target.root, PWD: target.root },
        executionLimits: { maxOutputSize: liveCap, maxExecutionTimeMs: opts.timeoutMs },
        customCommands: [...nodeCommands(this.js, commandRun), ...pythonCommands(this.py, commandRun)],
      });
    const gaveUp = new Promise<null>((resolve) =>
      abort.signal.addEventListener('abort', () => setTimeout(() => resolve(null), ABORT_GRACE_MS), { once: true }),
    );

    let raw = '';
    let piped = '';
    let exitCode: number | null = null;
    let hitLimit = false;
    try {
      for (const [i, stage] of plan.stages.entries()) {
        if (abort.signal.aborted) break;
        const last = i === plan.stages.length - 1;
        const out = place(stage.stdout, last);
        const err = place(stage.stderr, last);
        const input =
          stage.stdin === 'pipe' ? (i === 0 ? '' : piped) : stage.stdin === 'empty' ? '' : latin1(stage.stdin);
        const [cmd, ...args] = stage.argv as [string, ...string[]];
        // The script is the quoted program name alone; `args` reach it unparsed. When both
        // descriptors go to one place, 2>&1 keeps their order as written.
        const joined = out === err && out !== 'null';
        const literal = literalOperands(cmd, args);
        const ran = await Promise.race([
          shellFor({ ...opts.env, ...stage.env }).exec(`${quoteWord(cmd)}${joined ? ' 2>&1' : ''}`, {
            args: literal.args,
            stdin: input,
            ...(stage.stdin instanceof Uint8Array ? { stdinKind: 'bytes' as const } : {}),
            signal: abort.signal,
          }),
          gaveUp,
        ]);
        if (ran === null) break;
        const r = { ...ran, stdout: literal.shown(ran.stdout), stderr: literal.shown(ran.stderr) };
        if (r.exitCode === 126 && /output size (?:limit )?exceeded/.test(r.stdout + r.stderr)) hitLimit = true;
        piped = '';
        const route = (text: string, where: 'next' | 'output' | 'null'): void => {
          if (where === 'output') raw += text;
          else if (where === 'next') piped += text;
        };
        route(r.stdout, out);
        if (!joined) route(r.stderr, err);
        exitCode = r.exitCode;
      }
      const killed = timedOut || abort.signal.aborted;
      // just-bash's own notice of the abort is not the command's output; the result says it was killed.
      if (killed) raw = raw.replace(/(^|\n)bash: execution aborted\n?$/, '$1');
      // The output so far says where a killed program was; just-bash drops it with the aborted command.
      if (killed && interrupted && !raw.includes(interrupted)) raw += interrupted;
      if (hitLimit) notes.add(`just-bash stopped the command when its output passed ${liveCap} bytes`);
      if (plan.stages.length > 1)
        notes.add("the stages ran one after another, each reading the previous one's whole output");
      const capped = capHeadTail(raw, opts.maxOutputBytes);
      return {
        exitCode: killed ? null : exitCode,
        output: capped.text,
        totalBytes: new TextEncoder().encode(raw).length + omitted,
        truncated: capped.truncated || hitLimit || omitted > 0,
        timedOut,
        backendNote: [...notes].join('; '),
        ...(runtime !== undefined && { runtime }),
      };
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }
}

/** Bytes as a latin1 string, the form just-bash forwards verbatim (stdinKind "bytes"). */
function latin1(bytes: Uint8Array): string {
  let s = '';
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return s;
}
