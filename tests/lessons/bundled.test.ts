/**
 * Every bundled session (lessons and examples) ends on a measured, green final test run — done
 * ran the project's tests and they pass — and replays ✓ on the runtime the browser gives it
 * (the JavaScript sandbox's runtime, in a worker thread) as well as on Node in the OS sandbox
 * (the lesson and example tests, and `slm replay`).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { threadWorker } from '../support/sandbox-thread.ts';
import { replaySession } from '../../src/session/replay.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { SandboxJsEngine } from '../../src/workspace/memory/js-sandbox.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';
import { BUNDLED_FILES, loadBundled } from './bundled-files.ts';

beforeAll(() => useNodeWasm());

describe.each(BUNDLED_FILES.map((f) => [f.name, f] as const))('%s', (_name, file) => {
  it('ends with done and a final test run that passes', async () => {
    const last = (await loadBundled(file)).steps.at(-1)!;
    expect(last.call?.tool).toBe('done');
    expect(last.tally).toMatchObject({ failed: 0, source: 'ws_test' });
    expect(last.tally!.passed).toBeGreaterThan(0);
    expect(last.resultText).toMatch(/^Run finished\. .*\nFinal test run \(\d+ passed, 0 failed\):\n/);
  });

  it("replays ✓ on the browser's sandbox runtime, whose node is not Node", async () => {
    const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new SandboxJsEngine(threadWorker)));
    const report = await replaySession(await loadBundled(file), { workspace: ws });
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
  });
});
