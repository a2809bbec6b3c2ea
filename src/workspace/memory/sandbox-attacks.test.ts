/**
 * Attacks on the tab's sandboxes from an outside review, each stating the safe property it once
 * broke (a look-alike .git kept by the write-back, a spec forging the Jest-style tally).
 * They run the browser's runtime in a worker_threads thread (tests/support/sandbox-thread.ts):
 * the code at fault is plain JavaScript in one realm, so Chromium runs it the same way.
 */
import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { singleCommand } from '../../engine/workspace.ts';
import { distrust, parseTestTally } from '../../engine/tally.ts';
import { protectedArea } from '../../engine/jail.ts';
import { isProtectedState } from '../protected-state.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { ShellRunner } from './shell-runner.ts';
import { SandboxJsEngine } from './js-sandbox.ts';
import { threadWorker } from '../../../tests/support/sandbox-thread.ts';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';

useNodeWasm();

describe("the sandbox's Jest-style runner: the tally is the runner's", () => {
  // Gap: node-shims/jest.js counts and prints with the live Array.prototype (filter, iteration),
  // which the spec shares; js-sandbox-runtime.js captures its built-ins, the runner does not.
  // A spec that patches them reports its failing test as passed, with exit code 0.
  // Fix: node-shims/jest.js (capture filter/join/iteration at load as the runtime does, or
  // count with plain index loops over arrays the spec never receives).
  it('a spec that patches Array.prototype cannot turn a failing test into a pass', async () => {
    const ws = new MemoryWorkspace(new InMemoryFs(), '/ws', new ShellRunner(new SandboxJsEngine(threadWorker)));
    const spec = `const filter = Array.prototype.filter, iter = Array.prototype[Symbol.iterator];
Array.prototype.filter = function (f, t) { const r = filter.call(this, f, t); return r.some((o) => o && o.status === 'failed') ? [] : r; };
Array.prototype[Symbol.iterator] = function () { const it = iter.call(this); return { next: () => { const n = it.next(); if (!n.done && n.value && n.value.status === 'failed') n.value = { ...n.value, status: 'passed' }; return n; }, [Symbol.iterator]() { return this; } }; };
test('fails', () => { expect(1).toBe(2); });
`;
    await ws.writeFile('a.test.js', new TextEncoder().encode(spec));
    const r = await ws.exec(singleCommand(['jest']), { timeoutMs: 20_000, maxOutputBytes: 64 * 1024 });
    const tally = parseTestTally(r.output, 'ws_test');
    expect(tally).not.toBeNull();
    expect(tally!.failed === 0 && distrust(tally!, r.exitCode, r.timedOut) === null).toBe(false);
  }, 60_000);
});

describe('what commands may not change: one boundary for the file tools and for commands', () => {
  // Gap: the jail (file tools) refuses `.GIT/config` and other case or look-alike spellings of
  // `.git` and `.slmcode`; protected-state.ts matches the exact names only, so Pyodide's
  // write-back (py-sandbox-files.ts applyWrites) keeps a `.GIT/config` a Python program wrote,
  // and the memory workspace's hold does not undo one a command wrote — a `.git/config` on any
  // case-insensitive disk the files reach. Fix: protected-state.ts isProtectedState (reuse the
  // jail's protectedArea).
  it.each(['.GIT/config', 'sub/.Git/hooks/pre-commit', '.SLMCODE/hooks.json'])(
    '%s is protected for commands as it is for the file tools',
    (rel) => {
      expect(protectedArea(rel.split('/'))).not.toBeNull();
      expect(isProtectedState(rel)).toBe(true);
    },
  );
});
