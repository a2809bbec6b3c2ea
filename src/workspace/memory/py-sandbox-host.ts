/**
 * What every Python engine of one thread shares: Pyodide's files, fetched once on the first
 * `python3`, whether Python has started (Workspace.pythonState: `.py` checks use CPython's
 * compile() from then on), the first load's timing (lazy-load.ts), and one worker started ahead.
 *
 * Every job still gets a worker of its own, never reused: state cannot leak from one run to the
 * next, and a timeout ends it by terminating the worker. Starting Pyodide in a worker takes
 * seconds, so once a job has run, the next job's worker is started at once and given the files;
 * it starts Python while nothing runs and waits for its job (py-sandbox-runtime.js). The first
 * `python3` pays for the load; later ones find Python ready.
 */
import { timedLoad } from '../../engine/lazy-load.ts';
import { sandboxFrame } from './sandbox-frame-link.ts';
import type { SandboxLimits, SandboxSpawner, SandboxWorker } from './sandbox-worker.ts';

/** Pyodide's files, as a Python job's worker gets them (see py-sandbox-runtime.js). */
export interface PyAssets {
  /** pyodide.mjs, the loader, as source text. */
  readonly loader: string;
  /** pyodide.asm.mjs, the Emscripten module, as source text. */
  readonly asm: string;
  readonly wasm: ArrayBuffer;
  readonly stdlib: ArrayBuffer;
  /** pyodide-lock.json's text. */
  readonly lock: string;
}

/** Where Pyodide's files come from: the playground's origin in the tab; null where the worker finds them itself (Node tests). */
export type PyAssetSource = () => Promise<PyAssets | null>;

/** The Pyodide version the package ships. */
export const PYODIDE_VERSION = '314.0.8';

/** The CPython that Pyodide version is (its pyodide-lock.json's `info.python`). */
export const PYODIDE_PYTHON = '3.14.2';

/** What a step that ran python3 in the tab ran on (ExecResult.runtime). */
export const PYTHON_RUNTIME = `Python ${PYODIDE_PYTHON} (Pyodide ${PYODIDE_VERSION})`;

/** What the first use loads, in the words a step's timing uses (lazy-load.ts). */
export const PYTHON_LOAD = `Python (Pyodide ${PYODIDE_VERSION}: CPython 3.14 and its standard library)`;

/** The memory a Python worker may use before it is stopped (the JavaScript sandbox's cap). */
const PY_MEMORY_CAP_BYTES = 512 * 2 ** 20;

/** Messages a worker started ahead may send before its job (its `loaded`) are kept, up to this many. */
const EARLY_MESSAGES = 8;

/**
 * Workers kept started ahead: two, since a `.py` edit's check runs Python twice in a row (the
 * text before the edit and after it, post-edit.ts).
 */
const AHEAD = 2;

/** A worker started ahead, and when it has Python running (or cannot). */
interface Ahead {
  readonly worker: SandboxWorker;
  readonly loaded: Promise<void>;
}

/**
 * A worker that has been given Pyodide's files: what it says before anyone listens (a worker
 * started ahead) is kept and handed to the first listener.
 */
function startedWorker(spawn: SandboxSpawner, runtime: string, limits: SandboxLimits, assets: PyAssets | null): Ahead {
  const worker = spawn(runtime, limits);
  let settle = () => {};
  const loaded = new Promise<void>((resolve) => (settle = resolve));
  const early: unknown[] = [];
  let onMessage: ((data: unknown) => void) | null = null;
  let error: string | null = null;
  let onError: ((message: string) => void) | null = null;
  let memory: number | null = null;
  let onMemory: ((bytes: number) => void) | null = null;
  worker.onMessage((d) => {
    if ((d as { type?: unknown } | null)?.type === 'loaded') settle();
    if (onMessage) onMessage(d);
    else if (early.length < EARLY_MESSAGES) early.push(d);
  });
  worker.onError((m) => (settle(), onError ? onError(m) : (error ??= m)));
  worker.onMemory((b) => (settle(), onMemory ? onMemory(b) : (memory ??= b)));
  worker.postMessage({ assets });
  const handle: SandboxWorker = {
    postMessage: (m: object) => worker.postMessage(m),
    onMessage: (h: (data: unknown) => void) => ((onMessage = h), early.splice(0).forEach(h)),
    onError: (h: (message: string) => void) => ((onError = h), error !== null && h(error)),
    onMemory: (h: (bytes: number) => void) => ((onMemory = h), memory !== null && h(memory)),
    terminate: () => (settle(), worker.terminate()),
  };
  return { worker: handle, loaded };
}

export class PyodideHost {
  #assets: Promise<PyAssets | null> | null = null;
  #ready = false;
  #ahead: Ahead[] = [];
  /** The first load while it runs: from the first request to Pyodide started in its worker. */
  #firstLoad: { resolve(): void; reject(e: Error): void } | null = null;

  constructor(
    private readonly source: PyAssetSource,
    private readonly spawn: SandboxSpawner = (runtime, limits) => sandboxFrame.spawn(runtime, limits),
    readonly limits: SandboxLimits = { memoryCapBytes: PY_MEMORY_CAP_BYTES },
  ) {}

  /** True once a worker has started Pyodide. */
  get ready(): boolean {
    return this.#ready;
  }

  /** Pyodide's files, fetched on the first call; a fetch that failed is tried again on the next. */
  assets(): Promise<PyAssets | null> {
    return (this.#assets ??= this.source().catch((e: unknown) => {
      this.#assets = null;
      throw e;
    }));
  }

  /**
   * Times the first load, when none has been timed or is being timed; resolves when it is
   * reported (or known to have failed), so the caller's listeners hear it within the tool call.
   */
  timeFirstLoad(): Promise<void> {
    if (this.#ready || this.#firstLoad) return Promise.resolve();
    const started = new Promise<void>((resolve, reject) => (this.#firstLoad = { resolve, reject }));
    return timedLoad(PYTHON_LOAD, () => started).catch(() => {});
  }

  /** A worker Python was heard to start in (its `loaded` message). */
  started(): void {
    this.#ready = true;
    this.#firstLoad?.resolve();
    this.#firstLoad = null;
  }

  /** A job ended: a first load it did not finish counts nothing; once Python runs, the next jobs' workers start now. */
  ended(assets: PyAssets | null, runtime: string): void {
    this.#firstLoad?.reject(new Error('Pyodide did not start'));
    this.#firstLoad = null;
    while (this.#ready && this.#ahead.length < AHEAD)
      this.#ahead.push(startedWorker(this.spawn, runtime, this.limits, assets));
  }

  /** The worker for the next job: one started ahead, or a new one given the files now. */
  take(assets: PyAssets | null, runtime: string): SandboxWorker {
    return (this.#ahead.shift() ?? startedWorker(this.spawn, runtime, this.limits, assets)).worker;
  }

  /** Resolves when every worker started ahead has Python running (or has failed): the next jobs start at once. */
  async warm(): Promise<void> {
    await Promise.all(this.#ahead.map((a) => a.loaded));
  }
}
