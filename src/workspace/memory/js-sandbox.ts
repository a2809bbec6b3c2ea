/**
 * The browser's JsEngine: runs `node …` for the memory workspace in a sandbox worker started
 * by the sandbox frame (public/sandbox.html, reached through sandbox-frame-link.ts): a
 * sandboxed frame with an opaque origin — no IndexedDB, no Cache Storage, no cookies, the
 * playground's origin a foreign one — served with a Content-Security-Policy that forbids
 * every fetch, connection and load but the runtime's own modules, which the worker inherits
 * (checked in e2e/shell.spec.ts and e2e/sandbox-network.spec.ts). Each job — the module graph
 * read from the in-memory files, with the node:* shims — gets a fresh worker, terminated when
 * the job ends, times out, is cancelled or grows past the memory cap, so `for(;;){}` costs one
 * thread until the timeout and never the page. Output arrives only on the job's private
 * channel; it is still untrusted (workspace code runs in the runtime's realm) and is checked
 * and bounded here.
 */
import type { ExecResult } from '../../engine/workspace.ts';
import runtimeSource from './js-sandbox-runtime.js?raw';
import { planNode } from './js-sandbox-args.ts';
import { planSpecs } from './test-runner-args.ts';
import { ModuleGraph } from './js-sandbox-modules.ts';
import type { SandboxJob, SandboxLimits, SandboxSpawner, SandboxWorker } from './sandbox-worker.ts';

export type { SandboxJob, SandboxLimits, SandboxSpawner, SandboxWorker } from './sandbox-worker.ts';
import { isTimeout, type JsEngine, type JsRequest } from './node-commands.ts';
import type { ProcessRunner } from './process-runner.ts';
import { sandboxFrame } from './sandbox-frame-link.ts';
import { ShellRunner } from './shell-runner.ts';

/** One job's worker as the engine sees it; the sandbox frame's link and a worker_threads adapter (tests) implement it. */
/** The memory a sandbox worker may use before it is stopped. */
export const MEMORY_CAP_BYTES = 512 * 2 ** 20;

const WHERE =
  'node ran in the browser sandbox (a worker in an opaque-origin frame with no network, with node:test, node:assert, node:path and node:util shims; not Node itself)';

const MIB = 2 ** 20;

/** What the Jest-style runner is, for the result's note. */
const RUNNER =
  "describe/it/test with skip, only, each and the hooks, Jest's own expect, jest.fn; not the project's Jest or Vitest";

export class SandboxJsEngine implements JsEngine {
  readonly runtime = "the browser's JavaScript sandbox";

  constructor(
    private readonly spawn: SandboxSpawner = (runtime, limits) => sandboxFrame.spawn(runtime, limits),
    private readonly limits: SandboxLimits = { memoryCapBytes: MEMORY_CAP_BYTES },
  ) {}

  async run(req: JsRequest): Promise<ExecResult> {
    // The JavaScript sandbox runs no Python: a Python engine of its own answers python3.
    if (req.program === 'python3') return finished(127, 'python3 is not a JavaScript program\n', WHERE);
    const plan =
      req.program === 'node'
        ? await planNode(req.fs, req.root, req.cwd, req.args)
        : await planSpecs(req.fs, req.root, req.cwd, req.program, req.args);
    if (plan.mode === 'print') return finished(plan.exitCode, plan.text, WHERE);
    const entries = plan.mode === 'run' ? [plan.entry] : plan.files;
    const where =
      plan.mode === 'jest' ? `${WHERE}; ${req.program} ran as the sandbox's Jest-style runner (${RUNNER})` : WHERE;
    if (plan.mode === 'test' && entries.length === 0) {
      return finished(
        1,
        `Could not find any test files in ${req.cwd} (names like *.test.js, test-*.js, or files under a test/ directory)\n`,
        WHERE,
      );
    }
    const modules = await new ModuleGraph(req.fs, req.root).collect(entries, { jest: plan.mode === 'jest' });
    const headChars = Math.ceil(req.maxOutputBytes / 2);
    const job: SandboxJob = {
      mode: plan.mode,
      entries,
      argv: plan.mode === 'run' ? plan.argv : [],
      cwd: req.cwd,
      env: req.env,
      modules,
      namePatterns: plan.mode === 'run' ? [] : plan.namePatterns,
      headChars,
      tailChars: req.maxOutputBytes - headChars,
    };
    return this.execute(job, req, where);
  }

  /** Runs `job` in a fresh worker until it exits, times out or is cancelled; never rejects. */
  private execute(job: SandboxJob, req: JsRequest, where: string): Promise<ExecResult> {
    return new Promise((resolve) => {
      let head = '';
      let tail = '';
      let total = 0;
      let done = false;
      let worker: SandboxWorker;
      try {
        worker = this.spawn(runtimeSource, this.limits);
      } catch (e) {
        // No Worker here (a Node host without this engine's spawner), or the page's policy forbids it.
        return resolve(
          finished(
            126,
            `node: the JavaScript sandbox could not start: ${(e as Error).message}\n`,
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
        const m = data as { type?: unknown; text?: unknown; total?: unknown; code?: unknown } | null;
        if (done || !m || typeof m !== 'object') return;
        if (m.type === 'head' && typeof m.text === 'string') {
          head += m.text.slice(0, Math.max(0, job.headChars - head.length));
          total = Math.max(total, head.length);
        } else if (m.type === 'tail' && typeof m.text === 'string') {
          tail = m.text.slice(-job.tailChars);
          if (typeof m.total === 'number' && Number.isFinite(m.total)) total = Math.max(total, m.total);
        } else if (m.type === 'exit') {
          end(
            Number.isInteger(m.code) && (m.code as number) >= 0 && (m.code as number) < 256 ? (m.code as number) : 1,
            false,
          );
        }
      });
      const say = (line: string) => (head += `${head && !head.endsWith('\n') ? '\n' : ''}sandbox: ${line}\n`);
      worker.onError((message) => {
        say(message);
        end(1, false, 'the sandbox worker failed');
      });
      worker.onMemory((bytes) => {
        const cap = `${Math.round(this.limits.memoryCapBytes / MIB)} MiB`;
        say(
          `stopped: the program used ${Math.round(bytes / MIB)} MiB, more than the sandbox's ${cap}; make it use less memory, or run it on the Node backend`,
        );
        // 137 is what a shell reports for a process killed with SIGKILL, as an out-of-memory kill is.
        end(137, false, `stopped for memory: it passed the ${cap} cap (the sandbox worker was terminated)`);
      });
      worker.postMessage(job);
    });
  }
}

/** The browser memory workspace's runner: just-bash, with `node` in this sandbox. */
export function sandboxRunner(): ProcessRunner {
  return new ShellRunner(new SandboxJsEngine());
}

function finished(exitCode: number, text: string, note: string): ExecResult {
  return { exitCode, output: text, totalBytes: text.length, truncated: false, timedOut: false, backendNote: note };
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
