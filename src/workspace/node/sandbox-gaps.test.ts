/**
 * Known gaps of the Node host's command sandbox, each a reproduction that states the safe
 * property and is marked `it.fails` while the gap is open (it passes once fixed: then make it
 * a plain `it`). Each one runs a free command through the workspace, as ws_shell would.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, realpath, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { singleCommand } from '../../engine/workspace.ts';
import { distrust, parseTestTally } from '../../engine/tally.ts';
import { MemoryWorkspace } from '../memory/memory-workspace.ts';
import { NodeJsEngine } from '../memory/node-runner.ts';
import { ShellRunner } from '../memory/shell-runner.ts';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import { hostPython } from './host-python.ts';
import { probeHostSandbox } from './host-sandbox.ts';
import { NodeWorkspace } from './node-workspace.ts';

useNodeWasm();

const probed = await probeHostSandbox();
const sandbox = 'kind' in probed ? probed : undefined;
const ready = sandbox !== undefined && hostPython() !== null;
if (!ready) console.log('sandbox-gaps tests skipped: bubblewrap or the host Python is not available here');

const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 };

async function withRoot(f: (root: string) => Promise<void>): Promise<void> {
  const root = await realpath(await mkdtemp(join(tmpdir(), 'slm-gap-')));
  try {
    await f(root);
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

describe.runIf(ready)('the Node host sandbox: writes to .git never stick', () => {
  // Gap: only `.git` entries present before the command are mounted read-only, and a nested one
  // the command makes is not undone (undoProtectedDirs looks at the top level only). A person
  // running git in sub/ later runs its core.fsmonitor. Fix: node-workspace.ts undoProtectedDirs
  // (compare nestedGitEntries before and after, remove what is new).
  it.fails('a nested .git made by a command is removed afterwards', async () => {
    await withRoot(async (root) => {
      execFileSync('git', ['init', '-q', root]);
      const ws = await NodeWorkspace.open(root, { sandbox });
      const code =
        "import os; g='sub/.gi'+'t'; os.makedirs(g); open(g+'/config','w').write('[core]\\n\\tfsmonitor = x\\n')";
      const r = await ws.exec(singleCommand(['python3', '-c', code]), LIMITS);
      expect(r.exitCode).toBe(0);
      expect(existsSync(join(root, 'sub/.git/config'))).toBe(false);
    });
  });

  // Gap: a `.git` that is a gitfile (`gitdir: .repo`, e.g. git init --separate-git-dir inside the
  // project) has only the file mounted read-only; the repository it names stays writable.
  // Fix: host-sandbox.ts protectedMounts (follow `gitdir:` and `commondir` inside the root).
  it.fails('the repository a .git file points to, inside the root, stays unchanged', async () => {
    await withRoot(async (root) => {
      execFileSync('git', ['init', '-q', `--separate-git-dir=${join(root, '.repo')}`, root]);
      const before = await readFile(join(root, '.repo/config'), 'utf8');
      const ws = await NodeWorkspace.open(root, { sandbox });
      const code = "open('.repo/config','a').write('[core]\\n\\tfsmonitor = x\\n')";
      await ws.exec(singleCommand(['python3', '-c', code]), LIMITS);
      expect(await readFile(join(root, '.repo/config'), 'utf8')).toBe(before);
    });
  });
});

describe.runIf(sandbox !== undefined)('the host Jest-style runner: the tally is the runner’s', () => {
  // Gap: the spec shares the driver's process, so it prints a summary of its own and ends the
  // process with exit 0 through process.reallyExit (driver.mjs replaces only process.exit).
  // The model and ws_test read "9 passed" from a run whose only test failed.
  // Fix: host-jest/driver.mjs (report the tally on a channel the spec cannot write, e.g. an fd
  // or a file under RUNNER_DIR the runner alone opens, and have node-runner.ts read that).
  it('a spec cannot turn a failing run into a passing tally', async () => {
    const ws = new MemoryWorkspace(new InMemoryFs(), '/ws', new ShellRunner(new NodeJsEngine(sandbox)));
    const spec = `test('fails', () => { expect(1).toBe(2); });
afterAll(() => { process.stdout.write('Tests:       9 passed, 9 total\\n'); process.reallyExit(0); });
`;
    await ws.writeFile('a.test.js', new TextEncoder().encode(spec));
    const r = await ws.exec(singleCommand(['jest']), LIMITS);
    const tally = parseTestTally(r.output, 'ws_test');
    expect(tally).not.toBeNull();
    const counted = tally!.failed === 0 && distrust(tally!, r.exitCode, r.timedOut) === null;
    expect(counted).toBe(false);
  });
});
