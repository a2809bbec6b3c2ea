/**
 * Runs one argument vector for the Node workspace: its own process group, so a timeout or an
 * abort kills the command and every child it started; output capped while it runs (head and
 * tail kept, every byte counted), never after, so a runaway command cannot exhaust memory.
 */
import { spawn } from 'node:child_process';
import type { ExecResult } from '../../engine/workspace.ts';
import { CappedBytes } from '../capped-bytes.ts';

export interface SpawnRequest {
  readonly argv: readonly string[];
  /** Absolute working directory. */
  readonly cwd: string;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  readonly env?: Readonly<Record<string, string>>;
}

/** Kills the process group led by `pid`; the group may already be gone. */
function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // ESRCH: the group exited between the decision and the kill — nothing left to stop.
  }
}

/** Spawns `argv` and resolves when its output is closed; never rejects. */
export function spawnCapped(req: SpawnRequest): Promise<ExecResult> {
  const [cmd] = req.argv;
  if (cmd === undefined) {
    return Promise.resolve(notRun(127, 'no command was given (the argument vector is empty)'));
  }
  if (req.signal?.aborted) return Promise.resolve(notRun(null, 'cancelled before it started'));

  const out = new CappedBytes(req.maxOutputBytes);

  return new Promise<ExecResult>((resolvePromise) => {
    let settled = false;
    let timedOut = false;
    let aborted = false;

    // `sh -c 'exec "$@" 2>&1'` gives stdout and stderr one pipe, so they interleave exactly as
    // written (two pipes would race), and passes argv through untouched ("$@" is not re-parsed).
    // detached: the child leads a new process group, so -pid reaches its children too.
    const child = spawn('/bin/sh', ['-c', 'exec "$@" 2>&1', 'sh', ...req.argv], {
      cwd: req.cwd,
      detached: true,
      stdio: ['ignore', 'pipe', 'ignore'],
      env: { ...process.env, ...req.env },
    });

    const stop = (): void => killGroup(child.pid);
    const timer = setTimeout(() => {
      timedOut = true;
      stop();
    }, req.timeoutMs);
    const onAbort = (): void => {
      aborted = true;
      stop();
    };
    req.signal?.addEventListener('abort', onAbort, { once: true });

    const finish = (result: ExecResult): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      resolvePromise(result);
    };

    child.stdout.on('data', (c: Buffer) => out.push(c));
    // Only the wrapper shell's own start can fail here (a missing command is sh's exit 127).
    child.on('error', (e: Error) => finish(notRun(126, `could not start ${cmd} in ${req.cwd}: ${e.message}`)));
    // 'close' waits for the pipes, so output written just before exit is not lost.
    child.on('close', (code) => {
      const killed = timedOut || aborted;
      finish({
        exitCode: killed ? null : code,
        output: out.text(),
        totalBytes: out.totalBytes,
        truncated: out.truncated,
        timedOut,
        ...(timedOut
          ? { backendNote: `killed after ${req.timeoutMs} ms (the whole process group)` }
          : aborted
            ? { backendNote: 'cancelled; the whole process group was killed' }
            : {}),
      });
    });
  });
}

function notRun(exitCode: number | null, why: string): ExecResult {
  return { exitCode, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: why };
}
