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
import { finished, runSandboxJob } from './sandbox-job.ts';
import runtimeModule from './js-sandbox-runtime.js?raw';
import { runtimeText } from './sandbox-source.ts';
import { planNode } from './js-sandbox-args.ts';
import { planSpecs } from './test-runner-args.ts';
import { ModuleGraph } from './js-sandbox-modules.ts';
import type { SandboxJob, SandboxLimits, SandboxSpawner } from './sandbox-worker.ts';

export type { SandboxJob, SandboxLimits, SandboxSpawner, SandboxWorker } from './sandbox-worker.ts';
import type { JsEngine, JsRequest } from './node-commands.ts';
import type { ProcessRunner } from './process-runner.ts';
import { sandboxFrame } from './sandbox-frame-link.ts';
import { ShellRunner } from './shell-runner.ts';
import { PyodideEngine } from './py-sandbox.ts';
import { PyodideHost } from './py-sandbox-host.ts';
import { fetchPyodideAssets } from './pyodide-assets.ts';
import { tabWheels } from './py-wheels.ts';

/** One job's worker as the engine sees it; the sandbox frame's link and a worker_threads adapter (tests) implement it. */
/** The memory a sandbox worker may use before it is stopped. */
export const MEMORY_CAP_BYTES = 512 * 2 ** 20;

/** The runtime as the sandbox worker loads it. */
const runtimeSource = runtimeText(runtimeModule);

const WHERE =
  'node ran in the browser sandbox (a worker in an opaque-origin frame with no network, with node:test, node:assert, node:path and node:util shims; not Node itself)';

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
    const run = { spawn: this.spawn, limits: this.limits, runtime: runtimeSource, job, headChars, where };
    return runSandboxJob({ ...run, tailChars: job.tailChars, program: 'node', sandbox: 'JavaScript sandbox' }, req);
  }
}

/** The browser memory workspace's runner: just-bash, with `node` in this sandbox and `python3` in Pyodide (py-sandbox.ts). */
export function sandboxRunner(): ProcessRunner {
  return new ShellRunner(new SandboxJsEngine(), new PyodideEngine(tabPython, tabWheels));
}

/** The tab's Python: Pyodide's files from the playground's origin, shared by every session of this worker. */
const tabPython = new PyodideHost(fetchPyodideAssets);
