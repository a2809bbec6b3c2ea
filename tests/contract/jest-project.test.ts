/**
 * The JavaScript project with Jest-style specs (tests/fixtures/jest-project) in the memory
 * workspace as the browser runs it: the engine's ws_test and ws_shell `npm test`, the package's
 * `test` script ("jest ./*") read through the execution plan, and the sandbox's Jest-style
 * runner in its worker (a worker_threads thread here, with the same runtime and shims). Then one
 * row per rule of the script table: what runs, and what is refused with why.
 */
import { describe, expect, it } from 'vitest';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryFs } from 'just-bash';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';
import { SandboxJsEngine } from '../../src/workspace/memory/js-sandbox.ts';
import { tallyFromNotes } from '../../src/engine/tally.ts';
import { threadWorker } from '../support/sandbox-thread.ts';
import { shellEngine } from '../support/shell-backends.ts';

const FIXTURE = join(import.meta.dirname, '../fixtures/jest-project');

/** The fixture's files, path → text. */
function fixtureFiles(dir = FIXTURE, base = ''): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) Object.assign(out, fixtureFiles(path, `${base}${name}/`));
    else out[`${base}${name}`] = readFileSync(path, 'utf8');
  }
  return out;
}

async function engineOver(files: Readonly<Record<string, string>>) {
  const ws = new MemoryWorkspace(new InMemoryFs(), '/ws', new ShellRunner(new SandboxJsEngine(threadWorker)));
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return shellEngine(ws);
}

/** The fixture's expected outcome: 7 passed (one of them three .each rows), 1 failed, 1 xtest skipped. */
const TALLY = { passed: 7, failed: 1, source: 'ws_test' };

describe('the Jest-style fixture project in the memory workspace', () => {
  it('ws_test runs its "jest ./*" script and reads the tally from Jest\'s summary', async () => {
    const engine = await engineOver(fixtureFiles());
    const r = await engine.call('ws_test', {});
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/^npm test: 7 passed, 1 failed \(exit code 1\)/);
    expect(r.text).toContain('Stack › is last in, first out');
    expect(r.text).toContain('Tests:       1 failed, 1 skipped, 7 passed, 9 total');
    expect(tallyFromNotes(r.notes, 'ws_test')).toEqual(TALLY);
  });

  it('ws_test with a filter passes it to jest as -t', async () => {
    const engine = await engineOver(fixtureFiles());
    const r = await engine.call('ws_test', { filter: 'perimeter' });
    expect(r.ok).toBe(true);
    expect(r.text).toMatch(/^npm test -- -t perimeter: 3 passed, 0 failed \(exit code 0\)/);
  });

  it('ws_shell npm test shows the script line and every spec file', async () => {
    const engine = await engineOver(fixtureFiles());
    const r = await engine.call('ws_shell', { command: 'npm test' });
    expect(r.text).toContain('> shapes@1.0.0 test\n> jest ./*\n');
    expect(r.text).toContain('PASS test/rect.spec.js');
    expect(r.text).toContain('FAIL test/stack.test.js');
    expect(r.text).toContain('○ skipped a square helper');
  });

  it('after the fix the whole suite passes', async () => {
    const files = fixtureFiles();
    const engine = await engineOver({
      ...files,
      'test/stack.test.js': files['test/stack.test.js']!.replace(
        'expect(stack.pop()).toBe(1)',
        'expect(stack.pop()).toBe(2)',
      ),
    });
    const r = await engine.call('ws_test', {});
    expect(r.ok).toBe(true);
    expect(tallyFromNotes(r.notes, 'ws_test')).toEqual({ passed: 8, failed: 0, source: 'ws_test' });
  });
});

/** One row per rule of the script table (script-commands.ts): the script, and what npm test says. */
const SCRIPTS: readonly { script: string; shows: RegExp; exit: number }[] = [
  { script: 'jest', shows: /Tests: +1 passed, 1 total/, exit: 0 },
  { script: 'npx jest --ci', shows: /Tests: +1 passed, 1 total/, exit: 0 },
  { script: 'vitest run', shows: /Tests: +1 passed, 1 total/, exit: 0 },
  { script: 'vitest', shows: /Tests: +1 passed, 1 total/, exit: 0 },
  { script: 'NODE_ENV=test jest', shows: /Tests: +1 passed, 1 total/, exit: 0 },
  { script: 'node --test', shows: /# pass 1\n/, exit: 0 },
  { script: 'mocha spec', shows: /Tests: +1 passed, 1 total/, exit: 0 },
  // The script runs Python's command, which says where Python runs when this workspace has none.
  { script: 'pytest -q', shows: /> pytest -q\n\npython3 is not available in this workspace/, exit: 127 },
  {
    script: 'python -m unittest',
    shows: /> python -m unittest\n\npython3 is not available in this workspace/,
    exit: 127,
  },
  {
    script: 'playwright test',
    shows:
      /"playwright" is not a command the memory workspace has for scripts \(it runs node, jest, vitest, mocha, pytest, python, python3\)/,
    exit: 1,
  },
  { script: 'karma start', shows: /the shell policy refuses it: .*"karma" is not a command ws_shell knows/, exit: 1 },
  { script: 'jest && eslint .', shows: /the shell policy refuses it: .*"&&" chains a second command/, exit: 1 },
  {
    script: 'jest | tee out.txt',
    shows: /could not run in the memory workspace: (?:it is a pipeline|the shell policy)/,
    exit: 1,
  },
  { script: 'jest $(cat args)', shows: /the shell policy refuses it/, exit: 1 },
  { script: 'jest > /dev/null', shows: /it sends output to \/dev\/null/, exit: 1 },
];

describe('npm test runs the script through the execution plan', () => {
  it.each(SCRIPTS)('$script', async ({ script, shows, exit }) => {
    const engine = await engineOver({
      'package.json': JSON.stringify({ name: 'p', scripts: { test: script } }),
      'spec/a.spec.js': "test('a', () => expect(1).toBe(1));\n",
      'test/b.mjs': "import test from 'node:test';\ntest('b', () => {});\n",
    });
    const r = await engine.call('ws_shell', { command: 'npm test' });
    expect(r.text, r.text).toMatch(shows);
    expect(r.ok).toBe(exit === 0);
  });
});
