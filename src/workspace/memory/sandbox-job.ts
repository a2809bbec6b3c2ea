/**
 * One job in a fresh sandbox worker, as the host sees it, for JavaScript (js-sandbox.ts) and
 * Python (py-sandbox.ts) alike: the worker is spawned, given its job, and listened to on its
 * private channel until it exits, times out, is cancelled or grows past the memory cap; then it is
 * terminated. What it sends is untrusted (workspace code runs in its realm): the head is kept up
 * to its share, the tail replaced, the exit code checked, and anything else handed to the
 * caller's `other` as data. The result names what ended the job, in the same words for every
 * language.
 */
import type { ExecResult } from '../../engine/workspace.ts';
import { isTimeout, type JsRequest } from './node-commands.ts';
import type { SandboxLimits, SandboxSpawner, SandboxWorker } from './sandbox-worker.ts';

const MIB = 2 ** 20;

/** What one job is: the runtime's source, the message that starts it, and how output is shared out. */
export interface SandboxRun {
  readonly spawn: SandboxSpawner;
  readonly limits: SandboxLimits;
  readonly runtime: string;
  readonly job: object;
  readonly headChars: number;
  readonly tailChars: number;
  /** The program's name and its sandbox's, for the message when the worker cannot be created. */
  readonly program: string;
  readonly sandbox: 'JavaScript sandbox' | 'Python sandbox';
  /** Where it ran, the start of the result's note. */
  readonly where: string;
  /** Messages other than head, tail and exit (e.g. Python's written files), as the worker sent them. */
  readonly other?: (message: { readonly type?: unknown } & Record<string, unknown>) => void;
}

/** A result of a program that did not run in a worker: `text` is its output, `note` the note. */
export function finished(exitCode: number, text: string, note: string): ExecResult {
  return { exitCode, output: text, totalBytes: text.length, truncated: false, timedOut: false, backendNote: note };
}

/** Runs the job in a fresh worker until it exits, times out or is cancelled; never rejects. */
export function runSandboxJob(run: SandboxRun, req: JsRequest): Promise<ExecResult> {
  const { where } = run;
  return new Promise((resolve) => {
    let head = '';
    let tail = '';
    let total = 0;
    let done = false;
    let worker: SandboxWorker;
    try {
      worker = run.spawn(run.runtime, run.limits);
    } catch (e) {
      // No Worker here (a Node host without this engine's spawner), or the page's policy forbids it.
      return resolve(
        finished(
          126,
          `${run.program}: the ${run.sandbox} could not start: ${(e as Error).message}\n`,
          `${where}; the sandbox worker could not be created`,
        ),
      );
    }
    const end = (exitCode: number | null, timedOut: boolean, note?: string) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      req.signal.removeEventListener('abort', onAbort);
      worker.terminate();
      resolve(assemble(head, tail, total, exitCode, timedOut, note ? `${where}; ${note}` : where));
    };
    const timer = setTimeout(
      () => end(null, true, `killed after ${req.timeoutMs} ms (the sandbox worker was terminated)`),
      req.timeoutMs,
    );
    // The shell aborts with a TimeoutError when its own timeout fires first: that is a timeout too.
    const onAbort = () =>
      isTimeout(req.signal)
        ? end(null, true, `killed after ${req.timeoutMs} ms (the sandbox worker was terminated)`)
        : end(null, false, 'cancelled; the sandbox worker was terminated');
    req.signal.addEventListener('abort', onAbort, { once: true });
    if (req.signal.aborted) return onAbort();

    worker.onMessage((data) => {
      const m = data as
        ({ type?: unknown; text?: unknown; total?: unknown; code?: unknown } & Record<string, unknown>) | null;
      if (done || !m || typeof m !== 'object') return;
      if (m.type === 'head' && typeof m.text === 'string') {
        head += m.text.slice(0, Math.max(0, run.headChars - head.length));
        total = Math.max(total, head.length);
      } else if (m.type === 'tail' && typeof m.text === 'string') {
        tail = m.text.slice(-run.tailChars);
        if (typeof m.total === 'number' && Number.isFinite(m.total)) total = Math.max(total, m.total);
      } else if (m.type === 'exit') {
        end(
          Number.isInteger(m.code) && (m.code as number) >= 0 && (m.code as number) < 256 ? (m.code as number) : 1,
          false,
        );
      } else run.other?.(m);
    });
    const say = (line: string) => (head += `${head && !head.endsWith('\n') ? '\n' : ''}sandbox: ${line}\n`);
    worker.onError((message) => {
      say(message);
      end(1, false, 'the sandbox worker failed');
    });
    worker.onMemory((bytes) => {
      const cap = `${Math.round(run.limits.memoryCapBytes / MIB)} MiB`;
      say(
        `stopped: the program used ${Math.round(bytes / MIB)} MiB, more than the sandbox's ${cap}; make it use less memory, or run it on the Node backend`,
      );
      // 137 is what a shell reports for a process killed with SIGKILL, as an out-of-memory kill is.
      end(137, false, `stopped for memory: it passed the ${cap} cap (the sandbox worker was terminated)`);
    });
    worker.postMessage(run.job);
  });
}

/** The kept head and tail, with a marker where the middle was dropped. */
function assemble(
  head: string,
  tail: string,
  total: number,
  exitCode: number | null,
  timedOut: boolean,
  note: string,
): ExecResult {
  const kept = new TextEncoder().encode(head + tail).length;
  const totalBytes = Math.max(total, kept);
  const truncated = totalBytes > kept;
  const output = truncated ? `${head}\n… [${totalBytes - kept} bytes of output omitted] …\n${tail}` : head + tail;
  return { exitCode, output, totalBytes, truncated, timedOut, backendNote: note };
}
