/**
 * Python in the CLI's memory workspaces (`slm eval`, `slm replay`): the in-memory shell hands
 * `python3`, `python` and `pytest` to this machine's Python inside bubblewrap over a copy of the
 * files, through the engine as the model calls it (policy, plan, runner, tally). The unittest
 * project is tests/fixtures/python-unittest (5 passing, 1 failing, 1 erroring, 1 skipped test).
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/create.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { NodeJsEngine, NodePyEngine } from './node-runner.ts';
import { ShellRunner } from './shell-runner.ts';
import { NO_PYTHON_ENGINE } from './python-commands.ts';
import { probeHostSandbox } from '../node/host-sandbox.ts';
import { hostPython, NO_HOST_PYTHON } from '../node/host-python.ts';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import { filesUnder } from '../../../tests/support/files-under.ts';

useNodeWasm();

const probed = await probeHostSandbox();
const sandbox = 'kind' in probed ? probed : undefined;
const python = hostPython();
if (!sandbox)
  console.log(`python host tests skipped: bubblewrap cannot run here (${'why' in probed ? probed.why : ''})`);
if (!python) console.log('python host tests skipped: no python3 on this machine');

const FIXTURE = join(import.meta.dirname, '../../../tests/fixtures/python-unittest');

async function engineOver(files: Record<string, string>, settings = {}) {
  const ws = new MemoryWorkspace(
    undefined,
    undefined,
    new ShellRunner(new NodeJsEngine(sandbox), new NodePyEngine(sandbox)),
  );
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return { ws, engine: createEngine(ws, { shell_timeout: 20_000, ...settings }) };
}

const tallyOf = (r: { notes: readonly { detail?: string }[] }) =>
  r.notes.find((n) => n.detail?.startsWith('tally:'))?.detail;

describe.skipIf(!sandbox || !python)('python3 in the memory workspace on a Node host', () => {
  it('ws_test finds the unittest project and tallies 5 passed, 2 failed (a failure and an error)', async () => {
    const { engine } = await engineOver(filesUnder(FIXTURE));
    const r = await engine.call('ws_test', {});
    expect(r.text).toContain('python3 -m unittest discover -s tests');
    expect(r.text).toContain('test_calc.MeanTest.test_fraction');
    expect(r.text).toContain('AssertionError: 1 != 1.5');
    expect(tallyOf(r)).toBe('tally:5/2');
    expect(r.notes.find((n) => n.detail === 'runtime')?.text).toBe(`ran on Python ${python!.version}`);
  });

  it.each([
    { script: 'python3 -m unittest discover -s tests', line: 'npm test -- -k fraction', tally: 'tally:0/1' },
    { script: 'python -m unittest discover -s tests -v', line: 'npm test', tally: 'tally:5/2' },
  ])("ws_test runs package.json's test script $script through npm test", async ({ script, line, tally }) => {
    const files = filesUnder(FIXTURE);
    files['package.json'] = JSON.stringify({ name: 'calc', scripts: { test: script } });
    const { engine } = await engineOver(files);
    const r = await engine.call('ws_test', line.includes('-k') ? { filter: 'fraction' } : {});
    expect(r.text).toContain(line);
    expect(tallyOf(r)).toBe(tally);
  });

  it('after the fix every test passes, through ws_shell and through pytest', async () => {
    const files = filesUnder(FIXTURE);
    files['calc.py'] = files['calc.py']!.replace('// len(values)', '/ len(values)').replace(
      'int(text.strip())',
      'float(text) if "." in text else int(text.strip())',
    );
    const { engine } = await engineOver(files);
    const unit = await engine.call('ws_shell', { command: 'python3 -m unittest discover -s tests' });
    expect(unit.text).toMatch(/Ran 8 tests in [\d.]+s\s+OK \(skipped=1\)/);
    expect(tallyOf(unit)).toBe('tally:7/0');
    const py = await engine.call('ws_shell', { command: 'python3 -m pytest -q tests' });
    if (python!.pytest) expect(tallyOf(py)).toBe('tally:7/0');
    else expect(py.text).toContain('pytest is not installed for this machine');
  });

  it.each([
    { what: 'a script', command: 'python3 hello.py', out: 'hello from 3.' },
    { what: 'python as python3', command: 'python hello.py', out: 'hello from 3.' },
    { what: 'stdin from a pipe', command: 'printf "a\\nb\\n" | python3 count.py', out: 'lines: 2' },
    // Code on the command line: the policy allows it (as check-shell says) and the words after it are its argv.
    {
      what: 'python3 -c with arguments',
      command: `python3 -c 'import sys; print("sum", sum(map(int, sys.argv[1:])))' 2 3`,
      out: 'sum 5',
    },
    {
      what: 'python -c reading a pipe',
      command: `printf "x\\ny\\n" | python -c 'import sys; print(sys.stdin.read().split())'`,
      out: "['x', 'y']",
    },
  ])('runs $what', async ({ command, out }) => {
    const { engine } = await engineOver({
      'hello.py': 'import sys\nprint("hello from", sys.version.split()[0])\n',
      'count.py': 'import sys\nprint("lines:", len(sys.stdin.read().splitlines()))\n',
    });
    const r = await engine.call('ws_shell', { command });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain(out);
  });

  it('ends an infinite loop at the timeout', async () => {
    const { engine } = await engineOver({ 'loop.py': 'while True:\n    pass\n' }, { shell_timeout: 2000 });
    const started = Date.now();
    const r = await engine.call('ws_shell', { command: 'python3 loop.py' });
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/timed out|killed after/i);
  });

  it('reaches no host file: the sandbox has no /work, no /root, and an /etc/passwd of its own', async () => {
    const { engine } = await engineOver({
      'peek.py': [
        'import os',
        `print("fixture", os.path.exists(${JSON.stringify(FIXTURE)}))`,
        'print("root", os.listdir("/root") if os.path.isdir("/root") else None)',
        'print("passwd", sorted(l.split(":")[0] for l in open("/etc/passwd")))',
      ].join('\n'),
    });
    const r = await engine.call('ws_shell', { command: 'python3 peek.py' });
    expect(r.text).toContain('fixture False');
    // /root exists inside only when the interpreter lives under it (pyenv); then it holds only that path.
    expect(r.text).toMatch(/root (?:None|\['\.pyenv'\])/);
    expect(r.text).toMatch(/passwd \['nobody', 'root'(?:, 'sandbox')?\]/);
  });

  describe('network', () => {
    let server: ReturnType<typeof createServer>;
    let port = 0;
    let connections = 0;
    beforeAll(async () => {
      server = createServer((s) => {
        connections++;
        s.destroy();
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      port = (server.address() as { port: number }).port;
    });
    afterAll(() => server.close());

    it('socket and urllib fail without reaching a loopback listener on the host', async () => {
      const { engine } = await engineOver({
        'net.py': [
          'import socket, urllib.request',
          'try:',
          `    socket.create_connection(("127.0.0.1", ${port}), timeout=2)`,
          '    print("socket connected")',
          'except OSError as e:',
          '    print("socket failed:", type(e).__name__)',
          'try:',
          `    urllib.request.urlopen("http://127.0.0.1:${port}/", timeout=2)`,
          '    print("urlopen connected")',
          'except Exception as e:',
          '    print("urlopen failed:", type(e).__name__)',
        ].join('\n'),
      });
      const r = await engine.call('ws_shell', { command: 'python3 net.py' });
      expect(r.text).toContain('socket failed: ConnectionRefusedError');
      expect(r.text).toContain('urlopen failed: URLError');
      expect(connections).toBe(0);
    });
  });
});

describe('python3 on a host without Python', () => {
  it('says it is not installed and how to install it (a process whose PATH has no python3)', () => {
    const script = [
      "const { NodePyEngine } = await import('./src/workspace/memory/node-runner.ts');",
      "const { InMemoryFs } = await import('just-bash');",
      "const r = await new NodePyEngine().run({ fs: new InMemoryFs(), root: '/ws', cwd: '/ws', args: ['a.py'], env: {},",
      '  timeoutMs: 5000, maxOutputBytes: 4096, signal: new AbortController().signal });',
      'console.log(JSON.stringify(r));',
    ].join('\n');
    const out = execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: join(import.meta.dirname, '../../..'),
      env: { PATH: '/nonexistent' },
      encoding: 'utf8',
    });
    const r = JSON.parse(out.trim().split('\n').pop()!) as { exitCode: number; output: string };
    expect(r.exitCode).toBe(127);
    expect(r.output).toBe(`${NO_HOST_PYTHON}\n`);
  }, 60_000);
});

describe('python3 in a memory workspace without a Python engine', () => {
  it('says Python is not available there and where it is', async () => {
    const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));
    await ws.writeFile('a.py', new TextEncoder().encode('print(1)\n'));
    const r = await createEngine(ws).call('ws_shell', { command: 'python3 a.py' });
    expect(r.text).toContain(NO_PYTHON_ENGINE);
  });
});
