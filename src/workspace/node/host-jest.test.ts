/**
 * The Jest-style runner on a Node host: `jest`/`vitest`/`mocha` in the CLI's memory workspace
 * (real node over a copy of the files, inside bubblewrap where it runs). The same table of
 * rules as the browser sandbox's runner (tests/support/jest-runner-rows.ts) — describe/it/test
 * with .skip/.only/.each, xtest, the hooks, Jest's matchers, resolves/rejects, a promise that
 * never settles — must give the same report lines, summary, exit code and tally here; then what
 * only the host does: `npm test` through package.json, bundler-style imports in an ES package,
 * a project's own runner from its node_modules, and the command's timeout.
 */
import { InMemoryFs } from 'just-bash';
import { describe, expect, it } from 'vitest';
import { singleCommand, type ExecResult } from '../../engine/workspace.ts';
import { parseTestTally } from '../../engine/tally.ts';
import { MemoryWorkspace } from '../memory/memory-workspace.ts';
import { NodeJsEngine } from '../memory/node-runner.ts';
import { ShellRunner } from '../memory/shell-runner.ts';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import { expectRow, JEST_RUNNER_ROWS } from '../../../tests/support/jest-runner-rows.ts';
import { probeHostSandbox, UNSANDBOXED } from './host-sandbox.ts';

useNodeWasm();

const probed = await probeHostSandbox();
// Where bubblewrap cannot run, the same runner runs directly on a temporary copy: the tests' own code only.
const sandbox = 'kind' in probed ? probed : UNSANDBOXED;
if (!('kind' in probed)) console.log(`host Jest runner tests run without bubblewrap: ${probed.why}`);

async function run(
  files: Readonly<Record<string, string>>,
  argv: readonly string[],
  timeoutMs = 30_000,
): Promise<ExecResult> {
  const ws = new MemoryWorkspace(new InMemoryFs(), '/ws', new ShellRunner(new NodeJsEngine(sandbox)));
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return ws.exec(singleCommand(argv), { timeoutMs, maxOutputBytes: 256 * 1024 });
}

describe('the Jest-style runner on a Node host', () => {
  it.each(JEST_RUNNER_ROWS)(
    '$what',
    async (row) => {
      const r = await run(row.files, row.argv ?? ['jest']);
      expectRow(r, row);
      expect(r.backendNote).toMatch(/ran as the Jest-style runner in Node v\d+/);
    },
    30_000,
  );

  it('npm test runs a Jest script over an ES package whose spec imports ./x without an extension', async () => {
    const r = await run(
      {
        'package.json': '{ "name": "p", "type": "module", "scripts": { "test": "jest ./*" } }',
        'lib/index.js': 'export const twice = (n) => n * 2;\n',
        'x.js':
          "export { twice } from './lib';\nexport const half = async (n) => { if (n % 2) throw new Error('odd'); return n / 2; };\n",
        'x.spec.js': `import { twice, half } from './x';
describe('x', () => {
  test('twice', () => expect(twice(2)).toBe(4));
  test('half', async () => {
    await expect(half(4)).resolves.toBe(2);
    await expect(half(3)).rejects.toThrow('odd');
  });
  xtest('skipped', () => expect(twice(1)).toBe(3));
});
`,
      },
      ['npm', 'test'],
    );
    expect(r.output).toContain('> jest ./*');
    expect(r.output).toContain('PASS x.spec.js');
    expect(r.output).toMatch(/^Tests: +1 skipped, 2 passed, 3 total$/m);
    expect(r.output).not.toMatch(/MODULE_TYPELESS_PACKAGE_JSON|file:\/\/|slm-file|host-jest/);
    expect(r.exitCode).toBe(0);
    expect(parseTestTally(r.output, 'ws_test')).toMatchObject({ passed: 2, failed: 0 });
  }, 30_000);

  it('module state is fresh for each spec file, as in Jest', async () => {
    const counter = 'export let n = 0;\nexport const bump = () => ++n;\n';
    const spec = "import { bump } from './counter';\ntest('first bump', () => expect(bump()).toBe(1));\n";
    const r = await run({ 'counter.js': counter, 'a.test.mjs': spec, 'b.test.mjs': spec }, ['jest']);
    expect(r.output).toMatch(/^Tests: +2 passed, 2 total$/m);
  }, 30_000);

  it("a project with its own runner in node_modules runs that runner, not the sandbox's", async () => {
    const r = await run(
      {
        'node_modules/jest/package.json': '{ "name": "jest", "bin": { "jest": "bin/jest.js" } }',
        'node_modules/jest/bin/jest.js': "console.log('own jest ran with', JSON.stringify(process.argv.slice(2)));\n",
        'a.test.js': "test('x', () => {});\n",
      },
      ['jest', '--ci'],
    );
    expect(r.output).toContain('own jest ran with ["--ci"]');
    expect(r.backendNote).toContain("jest ran as the project's own jest (node_modules/jest/bin/jest.js)");
    expect(r.exitCode).toBe(0);
  }, 30_000);

  it('says what it cannot run, as the sandbox does', async () => {
    const r = await run({ 'a.js': '' }, ['jest']);
    expect(r.exitCode).toBe(1);
    expect(r.output).toMatch(/^No tests found in \/ws: the runner looks for \*\.spec\.js/);
  });

  it('the whole run ends at the command timeout when a test blocks the thread', async () => {
    const r = await run(
      { 'a.test.js': "jest.setTimeout(60000);\ntest('spins', () => { for (;;) {} });\n" },
      ['jest'],
      3000,
    );
    expect(r.timedOut).toBe(true);
    expect(r.exitCode).toBeNull();
  }, 30_000);
});

describe("the host runner's tally is the runner's own, whatever a spec prints or how it ends the process", () => {
  const FAILS = "test('fails', () => { expect(1).toBe(2); });\n";
  it.each([
    {
      what: "a summary of its own, printed after the runner's (as the process exits)",
      spec: `${FAILS}process.on('exit', () => { process.stdout.write('Tests:       9 passed, 9 total\\n'); });`,
      exit: 1,
      tally: { passed: 0, failed: 1 },
      says: "does not end with the runner's count",
    },
    {
      what: 'process.reallyExit(0) with a summary of its own',
      spec: `${FAILS}afterAll(() => { process.stdout.write('Tests:       9 passed, 9 total\\n'); process.reallyExit(0); });`,
      exit: 1,
      tally: { passed: 9, failed: 0 },
      says: 'did not finish',
    },
    {
      what: 'process.kill of its own process',
      spec: `${FAILS}afterAll(() => { process.kill(process.pid, 'SIGKILL'); });`,
      exit: null,
      tally: null,
      says: 'did not finish',
    },
    {
      what: 'process.reallyExit replaced to exit 0 when the runner exits',
      spec: `${FAILS}const real = process.reallyExit; process.reallyExit = () => real.call(process, 0);`,
      exit: 1,
      tally: { passed: 0, failed: 1 },
      says: null,
    },
    {
      what: 'nothing of the kind (a passing spec)',
      spec: "test('passes', () => { expect(1).toBe(1); });\n",
      exit: 0,
      tally: { passed: 1, failed: 0 },
      says: null,
    },
  ])(
    '$what',
    async ({ spec, exit, tally, says }) => {
      const r = await run({ 'a.test.js': spec }, ['jest']);
      if (exit !== null) expect(r.exitCode).toBe(exit);
      else expect(r.exitCode).not.toBe(0);
      const read = parseTestTally(r.output, 'ws_test');
      expect(read && { passed: read.passed, failed: read.failed }).toEqual(tally);
      if (says) expect(r.output).toContain(says);
      else expect(r.output).not.toMatch(/did not finish|the runner's count/);
    },
    30_000,
  );
});
