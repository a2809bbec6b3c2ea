/**
 * The browser's Python engine: `python3`, `python` and `pytest` for the memory workspace run
 * CPython compiled to WebAssembly (Pyodide) in a worker of the same sandbox frame as JavaScript
 * (sandbox-frame-link.ts): an opaque origin whose policy forbids every fetch and connection, so
 * a socket or urlopen reaches nothing. Pyodide is loaded on the first use only (its files come
 * from the playground's own origin, pyodide-assets.ts, and that first load is timed as a
 * first-use load, lazy-load.ts); every job then gets a fresh worker, which starts Pyodide from
 * those bytes, runs python3's command line (py-sandbox-main.py) over a copy of the workspace's
 * files (py-sandbox-files.ts), and is terminated when the job exits, times out, is cancelled or
 * grows past the memory cap (sandbox-job.ts). What the program wrote comes back through the
 * protected-state rules.
 *
 * `pytest` (`python3 -m pytest`) is not in the standard library: its wheels are fetched by this
 * thread from Pyodide's package index, checked against Pyodide's lock (py-wheels.ts), and handed
 * to the job; where they cannot be had, Python says pytest needs a connection.
 */
import type { ExecResult, PythonState } from '../../engine/workspace.ts';
import { isTimeout, type JsEngine, type JsRequest } from './node-commands.ts';
import { applyWrites, filesForPython, readWrites, RETURN_BYTES, type PyWrites } from './py-sandbox-files.ts';
import mainSource from './py-sandbox-main.py?raw';
import runtimeModule from './py-sandbox-runtime.js?raw';
import { finished, runSandboxJob } from './sandbox-job.ts';
import { PYODIDE_VERSION, PYTHON_RUNTIME, type PyAssets, type PyodideHost } from './py-sandbox-host.ts';
import { runtimeText } from './sandbox-source.ts';
import { WheelError, type WheelCache, type WheelSet } from './py-wheels.ts';

const WHERE = `python3 ran in Pyodide ${PYODIDE_VERSION} (CPython compiled to WebAssembly) in the browser sandbox (a worker in an opaque-origin frame with no network), over a copy of the workspace's files`;

/** The runtime as the sandbox worker loads it. */
const runtimeSource = runtimeText(runtimeModule);

/** Python's options that take a value in the next word. */
const VALUED = new Set(['-W', '-X']);

/** Whether python3's command line runs the module `pytest` (`-m pytest`, `-mpytest`, after other options). */
export function runsPytest(args: readonly string[]): boolean {
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (a === '-m') return args[i + 1] === 'pytest';
    if (a.startsWith('-m')) return a.slice(2) === 'pytest';
    if (!a.startsWith('-') || a === '-' || a === '--' || a.startsWith('-c')) return false;
    if (VALUED.has(a)) i++;
  }
  return false;
}

/** `p`, or null as soon as `signal` aborts (the timeout, a cancel): a shared fetch goes on for the next caller. */
function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T | null> {
  if (signal.aborted) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const onAbort = () => resolve(null);
    signal.addEventListener('abort', onAbort, { once: true });
    p.finally(() => signal.removeEventListener('abort', onAbort)).then(resolve, reject);
  });
}

export class PyodideEngine implements JsEngine {
  /**
   * `host`: the files, the worker started ahead and the first load, shared by this thread's
   * engines; `wheels`: packages from Pyodide's package index (pytest's), where they can be had.
   */
  constructor(
    private readonly host: PyodideHost,
    private readonly wheels?: WheelCache,
  ) {}

  state(): PythonState {
    return this.host.ready ? 'ready' : 'not-loaded';
  }

  warm(): Promise<void> {
    return this.host.warm();
  }

  async run(req: JsRequest): Promise<ExecResult> {
    if (req.program !== 'python3') return finished(127, `${req.program} is not a Python program\n`, WHERE);
    return { ...(await this.python(req)), runtime: PYTHON_RUNTIME };
  }

  private async python(req: JsRequest): Promise<ExecResult> {
    const timing = this.host.timeFirstLoad();
    let assets: PyAssets | null;
    try {
      assets = await this.host.assets();
    } catch (e) {
      this.host.ended(null, runtimeSource);
      await timing;
      const why = `Pyodide's files could not be loaded from the playground (${(e as Error).message})`;
      return finished(126, `python3: ${why}; try again, or reload the page\n`, `${WHERE}; ${why}`);
    }
    // The worker starts Python now, while pytest's wheels (if asked for) are fetched.
    const worker = this.host.take(assets, runtimeSource);
    let packages: WheelSet | null = null;
    let unreachable = '';
    if (this.wheels && runsPytest(req.args)) {
      try {
        // Without Pyodide's files here (Node tests), only the index's own lock entries are known.
        // Aborted meanwhile, the job below ends at once as a timed-out or cancelled run.
        packages = await untilAborted(this.wheels.get(assets?.lock ?? '{}', 'pytest'), req.signal);
      } catch (e) {
        if (!(e instanceof WheelError)) throw e;
        // Offline, Python says pytest needs a connection; a wheel that is not the lock's is refused outright.
        unreachable = `pytest's wheels could not be fetched from Pyodide's package index: ${e.message}`;
        if (e.kind !== 'offline') {
          worker.terminate();
          this.host.ended(assets, runtimeSource);
          await timing;
          return finished(1, `pytest: ${e.message}\n`, `${WHERE}; pytest was not installed: ${e.message}`);
        }
      }
    }
    const passed = await filesForPython(req.fs, req.root);
    const headChars = Math.ceil(req.maxOutputBytes / 2);
    const job = {
      files: passed.files,
      wheels: (packages?.wheels ?? []).map((w): [string, ArrayBuffer] => [w.file, w.bytes]),
      root: req.root,
      cwd: req.cwd,
      argv: [...req.args],
      env: req.env,
      stdin: req.stdin ?? null,
      main: mainSource,
      headChars,
      tailChars: req.maxOutputBytes - headChars,
      returnBytes: RETURN_BYTES,
    };
    let writes: PyWrites | null = null;
    const result = await runSandboxJob(
      {
        spawn: () => worker,
        limits: this.host.limits,
        runtime: runtimeSource,
        job,
        headChars,
        tailChars: job.tailChars,
        program: 'python3',
        sandbox: 'Python sandbox',
        where: WHERE,
        other: (m) => {
          if (m.type === 'loaded') this.host.started();
          else if (m.type === 'files') writes ??= readWrites(m);
        },
      },
      req,
    );
    this.host.ended(assets, runtimeSource);
    await timing;
    const notes: string[] = [];
    if (packages) {
      const n = packages.wheels.length;
      notes.push(
        `pytest from Pyodide's package index (${n} wheel${n === 1 ? '' : 's'}, each checked against its lock)`,
      );
    }
    if (unreachable) notes.push(unreachable);
    if (passed.left.length)
      notes.push(`not copied in (over the size a run may take, or nested too deep): ${passed.left.join(', ')}`);
    // A killed program's writes never arrive: the workspace is as it was.
    if (writes && !result.timedOut && !isTimeout(req.signal))
      notes.push(...(await applyWrites(req.fs, req.root, writes)));
    return notes.length ? { ...result, backendNote: `${result.backendNote}; ${notes.join('; ')}` } : result;
  }
}
