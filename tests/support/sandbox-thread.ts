/**
 * The JavaScript sandbox's worker for Node tests: a worker_threads thread that imports the very
 * runtime source the browser gets (as a data: URL) and runs its job, with modules as data:
 * URLs (Node cannot import blob: URLs). Everything else — the job, the runtime, the shims, the
 * host's bounding and killing — is the code the browser runs.
 */
import { Worker } from 'node:worker_threads';
import type { SandboxWorker } from '../../src/workspace/memory/js-sandbox.ts';

const BOOT = `
const { parentPort, workerData } = require('node:worker_threads');
const realProcess = process;
const toData = (source, type) => 'data:' + type + ';base64,' + Buffer.from(source).toString('base64');
import(toData(workerData, 'text/javascript')).then(({ runJob }) => {
  parentPort.once('message', (job) => runJob(job, {
    url: toData,
    post: (m) => parentPort.postMessage(m),
    onUncaught: (h) => {
      realProcess.on('uncaughtException', h);
      realProcess.on('unhandledRejection', h);
    },
  }));
});
`;

/** A SandboxSpawner for Node: one thread per job. */
export function threadWorker(runtime: string): SandboxWorker {
  const worker = new Worker(BOOT, { eval: true, workerData: runtime });
  return {
    postMessage: (m) => worker.postMessage(m),
    onMessage: (h) => worker.on('message', h),
    onError: (h) => worker.on('error', (e: Error) => h(e.message)),
    terminate: () => void worker.terminate(),
  };
}
