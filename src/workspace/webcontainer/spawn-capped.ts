/**
 * Runs one argument vector in WebContainer with the bounds every backend keeps: a timeout and
 * an AbortSignal that kill the process, output capped while it runs (head and tail kept, every
 * byte counted) and never after. WebContainer's `spawn` has no timeout option and its `exit`
 * promise may never settle for a killed process, so the result is decided here, not by `exit`.
 * Output is left as the terminal wrote it (ANSI codes, CRLF): the engine cleans it for the
 * model, the terminal panel shows it as is.
 */
import type { ExecOptions, ExecResult } from '../../engine/workspace.ts';
import { CappedBytes } from '../capped-bytes.ts';
import type { TerminalListener } from './terminal-feed.ts';

/** The part of a WebContainerProcess used here. */
export interface SpawnedProcess {
  readonly output: ReadableStream<string>;
  readonly exit: Promise<number>;
  kill(): void;
}

export interface SpawnOptionsLike {
  /** Relative to the WebContainer's workdir; omitted for the workdir itself. */
  cwd?: string;
  env?: Record<string, string>;
}

export type Spawn = (command: string, args: string[], options: SpawnOptionsLike) => Promise<SpawnedProcess>;

/**
 * How long output may keep arriving after the process exited or was killed. Output written
 * just before the exit is still in the stream; a child left running that keeps the terminal
 * open must not hold the result back.
 */
export const FLUSH_MS = 200;

type Stop = 'timeout' | 'abort';

/** Spawns `argv` and resolves with its bounded result; never rejects. `tee` sees the command, its output and its end. */
export async function spawnCapped(
  spawn: Spawn,
  argv: readonly string[],
  opts: ExecOptions,
  tee?: TerminalListener,
): Promise<ExecResult> {
  const [cmd, ...args] = argv;
  if (cmd === undefined) return notRun(127, 'no command was given (the argument vector is empty)');
  if (opts.signal?.aborted) return notRun(null, 'cancelled before it started');
  const cwd = opts.cwd ?? '';
  tee?.({ kind: 'command', argv, cwd });

  const out = new CappedBytes(opts.maxOutputBytes);
  const encoder = new TextEncoder();
  let stopped: Stop | null = null;
  let proc: SpawnedProcess | null = null;
  let signalStop!: () => void;
  const whenStopped = new Promise<null>((resolve) => (signalStop = () => resolve(null)));
  const stop = (why: Stop): void => {
    if (stopped) return;
    stopped = why;
    proc?.kill();
    signalStop();
  };
  const timer = setTimeout(() => stop('timeout'), opts.timeoutMs);
  const onAbort = (): void => stop('abort');
  opts.signal?.addEventListener('abort', onAbort, { once: true });

  const end = (result: ExecResult): ExecResult => {
    tee?.({ kind: 'exit', exitCode: result.exitCode, ...(result.backendNote ? { note: result.backendNote } : {}) });
    return result;
  };

  try {
    const spawning = spawn(cmd, args, { ...(cwd ? { cwd } : {}), ...(opts.env ? { env: { ...opts.env } } : {}) });
    try {
      // Starting counts against the timeout too: a spawn that never answers is stopped like a command.
      proc = await Promise.race([spawning, whenStopped]);
    } catch (e) {
      return end(notRun(127, `could not start ${cmd}${cwd ? ` in ${cwd}` : ''}: ${messageOf(e)}`));
    }
    if (proc === null) {
      // Stopped before the process existed: kill it if it turns up after all.
      spawning.then(
        (p) => p.kill(),
        () => undefined,
      );
      return end(stoppedResult(stopped!, opts.timeoutMs, out));
    }
    if (stopped) proc.kill();

    const reader = proc.output.getReader();
    let streamError: string | null = null;
    const pump = (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        out.push(encoder.encode(value));
        tee?.({ kind: 'output', data: value });
      }
    })().catch((e: unknown) => {
      streamError = messageOf(e);
    });

    let exitCode: number | null = null;
    let exitError: string | null = null;
    try {
      exitCode = await Promise.race([proc.exit, whenStopped]);
    } catch (e) {
      exitError = messageOf(e);
    }
    await settleWithin(pump, FLUSH_MS);
    // Stop reading (a child may still hold the terminal open); a stream already closed has nothing to report.
    reader.cancel().catch(() => undefined);

    if (stopped) return end(stoppedResult(stopped, opts.timeoutMs, out));
    const problem = exitError ?? streamError;
    return end({
      exitCode: exitError !== null ? null : exitCode,
      output: out.text(),
      totalBytes: out.totalBytes,
      truncated: out.truncated,
      timedOut: false,
      ...(problem !== null ? { backendNote: `WebContainer lost track of the process: ${problem}` } : {}),
    });
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

function stoppedResult(why: Stop, timeoutMs: number, out: CappedBytes): ExecResult {
  return {
    exitCode: null,
    output: out.text(),
    totalBytes: out.totalBytes,
    truncated: out.truncated,
    timedOut: why === 'timeout',
    backendNote: why === 'timeout' ? `killed after ${timeoutMs} ms` : 'cancelled; the process was killed',
  };
}

function notRun(exitCode: number | null, why: string): ExecResult {
  return { exitCode, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: why };
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** Waits for `p`, or `ms` at most; the timer is cleared either way. */
async function settleWithin(p: Promise<void>, ms: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    await Promise.race([p, new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  } finally {
    clearTimeout(timer);
  }
}
