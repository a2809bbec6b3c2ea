/**
 * The tab's Python engine (Pyodide) through the engine as the model calls it: policy, plan,
 * runner, the Python runtime and driver the browser loads, in a worker_threads thread
 * (tests/support/sandbox-thread.ts) with Pyodide from node_modules instead of the job's bytes.
 * The unittest project is tests/fixtures/python-unittest (5 passing, 1 failing, 1 erroring, 1
 * skipped test), as python-host.test.ts runs it on this machine's CPython. e2e/python-project.spec.ts
 * runs the same in Chromium's sandbox frame.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/create.ts';
import { onLoad, type LoadTiming } from '../../engine/lazy-load.ts';
import { singleCommand } from '../../engine/workspace.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { SandboxJsEngine } from './js-sandbox.ts';
import { PyodideEngine } from './py-sandbox.ts';
import { PYODIDE_PYTHON, PyodideHost, PYTHON_LOAD, PYTHON_RUNTIME } from './py-sandbox-host.ts';
import { ShellRunner } from './shell-runner.ts';
import { pythonThreadWorker, threadWorker } from '../../../tests/support/sandbox-thread.ts';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { standInPytest, STAND_IN_WHEEL } from '../../../tests/support/stand-in-wheel.ts';
import { WheelCache } from './py-wheels.ts';
import { filesUnder } from '../../../tests/support/files-under.ts';

useNodeWasm();

const FIXTURE = join(import.meta.dirname, '../../../tests/fixtures/python-unittest');
/** Starting Pyodide takes seconds (tens on a loaded machine); every run gets this long. */
const TIMEOUT = 120_000;

// One host for the file, as the tab has one: the first run loads, later ones find a worker started ahead.
const loads: LoadTiming[] = [];
const stopListening = onLoad((l) => loads.push(l));
const host = new PyodideHost(async () => null, pythonThreadWorker);

async function engineOver(files: Record<string, string>, wheels?: WheelCache) {
  const ws = new MemoryWorkspace(
    undefined,
    undefined,
    new ShellRunner(new SandboxJsEngine(threadWorker), new PyodideEngine(host, wheels)),
  );
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return { ws, engine: createEngine(ws, { shell_timeout: TIMEOUT }) };
}

const tallyOf = (r: { notes: readonly { detail?: string }[] }) =>
  r.notes.find((n) => n.detail?.startsWith('tally:'))?.detail;
const noteText = (r: { notes: readonly { text: string }[] }) => r.notes.map((n) => n.text).join('\n');

describe('python3 in Pyodide, in the sandbox worker', { timeout: 4 * TIMEOUT }, () => {
  it('before the first run Python is not loaded; the first run is timed once as a first-use load', async () => {
    const { ws, engine } = await engineOver({
      'hello.py': 'import sys\nprint("hello from", sys.version.split()[0])\n',
    });
    expect(ws.pythonState()).toBe('not-loaded');
    const r = await engine.call('ws_shell', { command: 'python3 hello.py' });
    expect(r.text).toContain(`hello from ${PYODIDE_PYTHON}`);
    expect(noteText(r)).toContain(`ran on ${PYTHON_RUNTIME}`);
    expect(ws.pythonState()).toBe('ready');
    expect(noteText(r)).toContain('python3 ran in Pyodide 314.0.8');
    stopListening();
    expect(loads.filter((l) => l.what === PYTHON_LOAD)).toHaveLength(1);
  });

  it('ws_test finds the unittest project and tallies 5 passed, 2 failed (a failure and an error)', async () => {
    const { engine } = await engineOver(filesUnder(FIXTURE));
    const r = await engine.call('ws_test', {});
    expect(r.text).toContain('python3 -m unittest discover -s tests');
    expect(r.text).toContain('AssertionError: 1 != 1.5');
    expect(r.text).toMatch(/Ran 8 tests\s+FAILED \(failures=1, errors=1, skipped=1\)/);
    expect(tallyOf(r)).toBe('tally:5/2');
  });

  it("npm test runs package.json's unittest script", async () => {
    const files = filesUnder(FIXTURE);
    files['package.json'] = JSON.stringify({ name: 'calc', scripts: { test: 'python -m unittest discover -s tests' } });
    const { engine } = await engineOver(files);
    const r = await engine.call('ws_shell', { command: 'npm test' });
    expect(r.text).toContain('> python -m unittest discover -s tests');
    expect(tallyOf(r)).toBe('tally:5/2');
  });

  it.each([
    { what: 'stdin from a pipe', command: 'printf "a\\nb\\n" | python3 count.py', out: 'lines: 2', exit: 0 },
    { what: 'sys.exit with a code', command: 'python3 exit3.py', out: 'leaving', exit: 3 },
    { what: 'an uncaught exception', command: 'python3 boom.py', out: 'ValueError: boom', exit: 1 },
    { what: 'a missing script', command: 'python3 nothere.py', out: "can't open file '/ws/nothere.py'", exit: 2 },
    { what: 'pytest, which needs the network', command: 'pytest', out: 'python3 -m unittest works offline', exit: 1 },
  ])('$what', async ({ command, out, exit }) => {
    const { engine } = await engineOver({
      'count.py': 'import sys\nprint("lines:", len(sys.stdin.read().splitlines()))\n',
      'exit3.py': 'import sys\nprint("leaving")\nsys.exit(3)\n',
      'boom.py': 'def f():\n    raise ValueError("boom")\nf()\n',
    });
    await host.warm();
    const r = await engine.call('ws_shell', { command });
    expect(r.text).toContain(out);
    expect(r.text).toContain(`[exit code ${exit}]`);
    // The driver's own frames are not the program's: a traceback starts at the script.
    expect(r.text).not.toContain('python3-main.py');
  });

  it('runs -c with arguments and stdin at the runner, as the compile check calls it', async () => {
    const { ws } = await engineOver({});
    const plan = singleCommand(['python3', '-I', '-c', 'import sys; print(sys.argv[1:], sys.stdin.read())', 'a', 'b']);
    const r = await ws.exec(
      { stages: [{ ...plan.stages[0]!, stdin: new TextEncoder().encode('piped') }] },
      { cwd: '', timeoutMs: TIMEOUT, maxOutputBytes: 4096 },
    );
    expect(r.output).toContain("['a', 'b'] piped");
    expect(r.exitCode).toBe(0);
  });

  it('keeps what the program writes, refuses .git/, and cannot open files outside the workspace', async () => {
    const { ws, engine } = await engineOver({
      'write.py': [
        'import os',
        'open("out.txt", "w").write("made by python")',
        'os.makedirs(".git/hooks", exist_ok=True)',
        'open(".git/hooks/pre-commit", "w").write("evil")',
        'os.remove("gone.txt")',
        'try:',
        '    open("../../etc/passwd").read()',
        '    print("passwd: read")',
        'except OSError as e:',
        '    print("passwd:", type(e).__name__)',
      ].join('\n'),
      'gone.txt': 'bye',
    });
    const r = await engine.call('ws_shell', { command: 'python3 write.py' });
    expect(r.text).toContain('passwd: FileNotFoundError');
    expect(new TextDecoder().decode(await ws.readFile('out.txt'))).toBe('made by python');
    expect(await ws.lstat('gone.txt')).toBeNull();
    expect(await ws.lstat('.git/hooks/pre-commit')).toBeNull();
    expect(noteText(r)).toContain('it wrote .git/hooks/pre-commit; not kept');
  });

  it('the .py post-edit check is CPython compile() once Python is loaded', async () => {
    const good = 'def mean(values):\n    return sum(values) / len(values)\n';
    const { ws, engine } = await engineOver({ 'calc.py': good });
    expect(ws.pythonState()).toBe('ready');
    await host.warm();
    await engine.call('ws_read', { path: 'calc.py' });
    const r = await engine.call('ws_edit', {
      path: 'calc.py',
      old_str: 'def mean(values):',
      new_str: 'def mean(values)',
    });
    expect(r.text).toMatch(
      /^EDIT REVERTED — calc\.py parsed correctly before your change and does NOT parse after it \(CPython compile\(\)\): 1:17 SyntaxError: expected ':'/,
    );
    expect(new TextDecoder().decode(await ws.readFile('calc.py'))).toBe(good);
  });

  it('ends an infinite loop at the timeout, as node is ended', async () => {
    const { engine } = await engineOver({ 'loop.py': 'while True:\n    pass\n' });
    const r = await engine.call('ws_shell', { command: 'python3 loop.py', timeout_ms: 8000 });
    expect(r.ok).toBe(false);
    expect(noteText(r)).toContain('killed after');
    expect(noteText(r)).toContain('(the sandbox worker was terminated)');
  });

  describe("pytest with wheels from a package index (a test stand-in for pytest's wheel)", () => {
    const INDEX = 'http://index.test/';
    const project = {
      'calc.py': 'def add(a, b):\n    return a + b\n',
      'tests/test_calc.py':
        'from calc import add\n\ndef test_add():\n    assert add(1, 2) == 3\n\ndef test_zero():\n    assert add(0, 0) == 0\n\ndef test_wrong():\n    assert add(2, 2) == 5\n',
    };
    /** A cache over a fake index serving `served` as the stand-in's wheel; counts the requests. */
    function index(served: Uint8Array | null) {
      const standIn = standInPytest();
      const asked: string[] = [];
      const fetchFn = (async (u: RequestInfo | URL) => {
        asked.push(String(u));
        if (!served) throw new TypeError('Failed to fetch');
        return String(u) === `${INDEX}${STAND_IN_WHEEL}`
          ? new Response(served.slice())
          : new Response('', { status: 404 });
      }) as typeof fetch;
      return { cache: new WheelCache(() => ({ baseUrl: INDEX, lock: standIn.lock }), fetchFn), asked, standIn };
    }

    it('fetches, verifies and installs the wheel once; pytest runs and its summary is tallied', async () => {
      const { cache, asked, standIn } = index(standInPytest().bytes);
      const heard: LoadTiming[] = [];
      const stop = onLoad((l) => heard.push(l));
      const { engine } = await engineOver(project, cache);
      const r = await engine.call('ws_shell', { command: 'pytest tests' });
      stop();
      expect(r.text).toContain('pytest test stand-in');
      expect(r.text).toContain('FAILED tests/test_calc.py::test_wrong - AssertionError');
      expect(r.text).toMatch(/==== 1 failed, 2 passed in [\d.]+s ====/);
      expect(tallyOf(r)).toBe('tally:2/1');
      expect(noteText(r)).toContain("pytest from Pyodide's package index (1 wheel, each checked against its lock)");
      const mb = (standIn.bytes.length / 1e6).toFixed(1);
      expect(heard.map((l) => l.what)).toContain(
        `1 wheel (${mb} MB) for pytest from ${INDEX}, each matching pyodide-lock.json's sha256`,
      );
      const again = await engine.call('ws_shell', { command: 'python3 -m pytest tests/test_calc.py' });
      expect(tallyOf(again)).toBe('tally:2/1');
      expect(asked).toEqual([`${INDEX}${STAND_IN_WHEEL}`]);
    });

    it('refuses a wheel that does not match the lock, and runs nothing', async () => {
      const tampered = standInPytest().bytes;
      tampered.set([tampered.at(-30)! ^ 1], tampered.length - 30);
      const { cache } = index(tampered);
      const { engine } = await engineOver(project, cache);
      const r = await engine.call('ws_shell', { command: 'pytest' });
      expect(r.text).toContain(`${STAND_IN_WHEEL} was refused: the download did not match the lock`);
      expect(r.text).not.toContain('stand-in');
      expect(r.text).toContain('[exit code 1]');
    });

    it('a fetch that never answers ends at the timeout, as any command does', async () => {
      const hung = new WheelCache(
        () => ({ baseUrl: INDEX, lock: standInPytest().lock }),
        (() => new Promise<Response>(() => {})) as typeof fetch,
      );
      const { ws } = await engineOver(project);
      const timeout = AbortSignal.timeout(1500);
      const signal = new AbortController();
      // The shell aborts with a TimeoutError when its timeout fires; the engine itself must return then.
      timeout.addEventListener('abort', () => signal.abort(new DOMException('timed out', 'TimeoutError')));
      const r = await new PyodideEngine(host, hung).run({
        program: 'python3',
        fs: ws.fs,
        root: ws.root,
        cwd: ws.root,
        args: ['-m', 'pytest'],
        env: {},
        timeoutMs: 1500,
        maxOutputBytes: 4096,
        signal: signal.signal,
      });
      expect(r.timedOut).toBe(true);
      expect(r.exitCode).toBeNull();
    });

    it('offline: says pytest needs a connection and that unittest works offline', async () => {
      const { cache } = index(null);
      const { engine } = await engineOver(project, cache);
      const r = await engine.call('ws_shell', { command: 'pytest' });
      expect(r.text).toContain('pytest needs a connection');
      expect(r.text).toContain('python3 -m unittest works offline');
      expect(noteText(r)).toContain("pytest's wheels could not be fetched from Pyodide's package index");
    });
  });
});
