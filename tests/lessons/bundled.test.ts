/**
 * Every bundled session (lessons and examples) ends on a measured, green final test run — done
 * ran the project's tests and they pass — and replays ✓ on the runtimes the browser gives it
 * (the JavaScript sandbox's runtime and Pyodide, each in a worker thread) as well as on Node and
 * this machine's python3 in the OS sandbox (the lesson and example tests, and `slm replay`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { pythonThreadWorker, threadWorker } from '../support/sandbox-thread.ts';
import { replaySession } from '../../src/session/replay.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { SandboxJsEngine } from '../../src/workspace/memory/js-sandbox.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';
import { PyodideEngine } from '../../src/workspace/memory/py-sandbox.ts';
import { PyodideHost } from '../../src/workspace/memory/py-sandbox-host.ts';
import { BUNDLED_FILES, loadBundled } from './bundled-files.ts';

beforeAll(() => useNodeWasm());

/** Pyodide for every replay here, as the tab shares one per page: loaded by the first session that runs python3. */
const pyodide = new PyodideHost(async () => null, pythonThreadWorker);

describe.each(BUNDLED_FILES.map((f) => [f.name, f] as const))('%s', (_name, file) => {
  it('ends with done and a final test run that passes', async () => {
    const last = (await loadBundled(file)).steps.at(-1)!;
    expect(last.call?.tool).toBe('done');
    expect(last.tally).toMatchObject({ failed: 0, source: 'ws_test' });
    expect(last.tally!.passed).toBeGreaterThan(0);
    expect(last.resultText).toMatch(/^Run finished\. .*\nFinal test run \(\d+ passed, 0 failed\):\n/);
  });

  it("replays ✓ on the browser's sandbox runtimes, whose node is not Node and whose python3 is Pyodide", async () => {
    const runner = new ShellRunner(new SandboxJsEngine(threadWorker), new PyodideEngine(pyodide));
    const ws = new MemoryWorkspace(undefined, undefined, runner);
    const report = await replaySession(await loadBundled(file), { workspace: ws });
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
    // Starting Pyodide takes seconds, tens on a loaded machine; each python3 run starts one.
  }, 300_000);
});
