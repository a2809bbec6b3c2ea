/**
 * The sandbox's Jest-style runner end to end in Node: `jest`/`vitest`/`mocha` in the memory
 * workspace's shell, the job built from the in-memory files, the very runtime, runner shim and
 * bundle of Jest's `expect` the browser loads (in a worker_threads thread; see
 * tests/support/sandbox-thread.ts). One row per rule of the runner (tests/support/jest-runner-rows.ts,
 * shared with the runner on a Node host); each checks the report lines and Jest's summary, which
 * the tally parser must read to the same counts.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryFs } from 'just-bash';
import { singleCommand, type ExecResult } from '../../engine/workspace.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { ShellRunner } from './shell-runner.ts';
import { SandboxJsEngine } from './js-sandbox.ts';
import { threadWorker } from '../../../tests/support/sandbox-thread.ts';
import { expectRow, JEST_RUNNER_ROWS } from '../../../tests/support/jest-runner-rows.ts';

async function run(
  files: Readonly<Record<string, string>>,
  argv: readonly string[],
  timeoutMs = 20_000,
): Promise<ExecResult> {
  const ws = new MemoryWorkspace(new InMemoryFs(), '/ws', new ShellRunner(new SandboxJsEngine(threadWorker)));
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return ws.exec(singleCommand(argv), { timeoutMs, maxOutputBytes: 256 * 1024 });
}

describe("the sandbox's Jest-style runner", () => {
  it.each(JEST_RUNNER_ROWS)('$what', async (row) => {
    const r = await run(row.files, row.argv ?? ['jest']);
    expectRow(r, row);
    expect(r.backendNote).toMatch(/ran as the sandbox's Jest-style runner/);
  });

  it.each([
    {
      what: 'an option the runner does not know',
      argv: ['jest', '--shard=1/2'],
      text: /^jest: option --shard=1\/2 is not supported/,
    },
    { what: 'vitest watch', argv: ['vitest', 'watch'], text: /^vitest watch does not run in the offline sandbox/ },
    { what: 'no spec files', argv: ['jest'], text: /^No tests found in \/ws: the runner looks for \*\.spec\.js/ },
  ])('says what it cannot run: $what', async ({ argv, text }) => {
    const r = await run({ 'a.js': '' }, argv);
    expect(r.exitCode).toBe(1);
    expect(r.output).toMatch(text);
  });

  it('names TypeScript specs it cannot run', async () => {
    const r = await run({ 'a.spec.ts': "test('x', () => {});\n" }, ['jest']);
    expect(r.output).toMatch(
      /1 TypeScript spec file \(\/ws\/a\.spec\.ts\) cannot run: the offline sandbox has no TypeScript compiler/,
    );
  });

  it('the whole run still ends at the command timeout when a test blocks the thread', async () => {
    const r = await run(
      { 'a.test.js': "jest.setTimeout(60000);\ntest('spins', () => { for (;;) {} });\n" },
      ['jest'],
      1500,
    );
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
  });
});
