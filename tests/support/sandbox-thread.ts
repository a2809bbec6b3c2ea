/**
 * The JavaScript sandbox's worker for Node tests: a worker_threads thread that imports the very
 * runtime source the browser gets and serves its job on a private MessageChannel, as the
 * browser's frame does, with modules as data: URLs (Node cannot import blob: URLs) and CommonJS
 * run as a classic script by node:vm (where the browser uses importScripts). The host
 * listens on that channel only: what the program posts on the thread's own parentPort is
 * dropped. A heap limit stands for the browser's memory measurement: a thread that runs out of
 * it is reported as stopped for memory (Pyodide's wasm memory is not on that heap: a Python thread
 * is bounded by its timeout only). Everything else — the job, the runtime, the shims, the
 * host's bounding and killing — is the code the browser runs.
 */
import { MessageChannel, Worker } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import type { SandboxLimits, SandboxWorker } from '../../src/workspace/memory/js-sandbox.ts';

/** Pyodide's ES module loader, as a URL a thread can import. */
const PYODIDE = pathToFileURL(createRequire(import.meta.url).resolve('pyodide/pyodide.mjs')).href;

const BOOT = `
const { workerData } = require('node:worker_threads');
const realProcess = process;
const toData = (source, type) => 'data:' + type + ';base64,' + Buffer.from(source).toString('base64');
const { runInThisContext } = require('node:vm');
import(toData(workerData.runtime, 'text/javascript')).then(({ serve }) => serve(workerData.port, {
  url: toData,
  // A classic script run at once, as the browser's importScripts runs it.
  script: (url) => runInThisContext(Buffer.from(url.slice(url.indexOf(',') + 1), 'base64').toString(), { filename: url }),
  onUncaught: (h) => {
    realProcess.on('uncaughtException', h);
    realProcess.on('unhandledRejection', h);
  },
}));
`;

/**
 * The Python sandbox's boot: the runtime's `serve` with Pyodide's own Node loader, which finds its
 * files beside itself (the browser's job brings them as bytes instead).
 */
const PY_BOOT = `
const { workerData } = require('node:worker_threads');
const toData = (source) => 'data:text/javascript;base64,' + Buffer.from(source).toString('base64');
import(toData(workerData.runtime)).then(({ serve }) => serve(workerData.port, {
  load: (_start, options) =>
    import(workerData.pyodide).then((m) => m.loadPyodide({ ...options, indexURL: new URL('.', workerData.pyodide).pathname })),
}));
`;

/** A SandboxSpawner for Node: one thread per job, its old generation capped at `limits.memoryCapBytes`. */
export function threadWorker(runtime: string, limits: SandboxLimits): SandboxWorker {
  return spawnThread(BOOT, runtime, limits);
}

/** The same for the Python sandbox (py-sandbox-runtime.js), with Pyodide from node_modules. */
export function pythonThreadWorker(runtime: string, limits: SandboxLimits): SandboxWorker {
  return spawnThread(PY_BOOT, runtime, limits);
}

function spawnThread(boot: string, runtime: string, limits: SandboxLimits): SandboxWorker {
  const { port1, port2 } = new MessageChannel();
  const worker = new Worker(boot, {
    eval: true,
    workerData: { runtime, port: port2, pyodide: PYODIDE },
    transferList: [port2],
    resourceLimits: { maxOldGenerationSizeMb: Math.max(16, Math.round(limits.memoryCapBytes / 2 ** 20)) },
  });
  let onMemory = (_bytes: number) => {};
  let onError = (_message: string) => {};
  worker.on('error', (e: Error & { code?: string }) =>
    e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? onMemory(limits.memoryCapBytes) : onError(e.message),
  );
  return {
    postMessage: (m) => port1.postMessage(m),
    onMessage: (h) => port1.on('message', h),
    onError: (h) => (onError = h),
    onMemory: (h) => (onMemory = h),
    terminate: () => {
      port1.close();
      void worker.terminate();
    },
  };
}
