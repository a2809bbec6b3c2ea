/**
 * The post-edit check for `.py` by CPython's own compile(), in the workspaces that run Python:
 * the Node workspace (this machine's python3 inside bubblewrap) and the CLI's memory workspace
 * (the same interpreter over a copy). One row per rule of the revert hook; then texts the hand
 * rules (tree-sitter) accept and CPython rejects, which only the real compiler catches.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../engine/create.ts';
import {
  BEFORE_PYTHON,
  compileVerdict,
  CPYTHON_CHECKER,
  createPythonCompileCheck,
} from '../engine/syntax/python-compile.ts';
import type { JsEngine } from './memory/node-commands.ts';
import { MemoryWorkspace } from './memory/memory-workspace.ts';
import { NodeJsEngine, NodePyEngine } from './memory/node-runner.ts';
import { ShellRunner } from './memory/shell-runner.ts';
import { probeHostSandbox } from './node/host-sandbox.ts';
import { hostPython } from './node/host-python.ts';
import { NodeWorkspace } from './node/node-workspace.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';

useNodeWasm();

const probed = await probeHostSandbox();
const sandbox = 'kind' in probed ? probed : undefined;
const python = hostPython();
if (!sandbox || !python)
  console.log(`CPython compile() check tests skipped: ${python ? 'bubblewrap cannot run here' : 'no python3 here'}`);

const GOOD = 'def mean(values):\n    return sum(values) / len(values)\n';
const dirs: string[] = [];
afterAll(async () => Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true }))));

const backends = [
  {
    name: 'node workspace',
    open: async () => {
      const dir = await mkdtemp(join(tmpdir(), 'slm-pycheck-'));
      dirs.push(dir);
      await writeFile(join(dir, 'calc.py'), GOOD);
      return NodeWorkspace.open(dir, { sandbox });
    },
  },
  {
    name: 'memory workspace on a Node host',
    open: async () => {
      const ws = new MemoryWorkspace(
        undefined,
        undefined,
        new ShellRunner(new NodeJsEngine(sandbox), new NodePyEngine(sandbox)),
      );
      await ws.writeFile('calc.py', new TextEncoder().encode(GOOD));
      return ws;
    },
  },
];

describe.skipIf(!sandbox || !python).each(backends)('CPython compile() in the $name', ({ open }) => {
  it('reverts an edit that breaks a file that compiled, naming CPython and its message', async () => {
    const ws = await open();
    const engine = createEngine(ws);
    await engine.call('ws_read', { path: 'calc.py' });
    const r = await engine.call('ws_edit', {
      path: 'calc.py',
      old_str: 'def mean(values):',
      new_str: 'def mean(values)',
    });
    expect(r.text).toMatch(
      /^EDIT REVERTED — calc\.py parsed correctly before your change and does NOT parse after it \(CPython compile\(\)\): 1:17 SyntaxError: expected ':'/,
    );
    expect(new TextDecoder().decode(await ws.readFile('calc.py'))).toBe(GOOD);
  });

  it('keeps a good edit without a note', async () => {
    const ws = await open();
    const engine = createEngine(ws);
    await engine.call('ws_read', { path: 'calc.py' });
    const r = await engine.call('ws_edit', { path: 'calc.py', old_str: 'sum(values)', new_str: 'float(sum(values))' });
    expect(r.ok, r.text).toBe(true);
    expect(r.text).not.toContain('syntax');
  });

  // Texts tree-sitter parses (no ERROR node) that CPython's compiler refuses: a new file is kept, with the compiler's error.
  it.each([
    { what: "'break' outside a loop", text: 'x = 1\nbreak\n', error: "2:1 SyntaxError: 'break' outside loop" },
    { what: "'return' outside a function", text: 'return 3\n', error: "1:1 SyntaxError: 'return' outside function" },
    {
      what: 'a nonlocal at module level',
      text: 'nonlocal x\n',
      error: '1:1 SyntaxError: nonlocal declaration not allowed at module level',
    },
    { what: 'assignment to a literal', text: '1 = x\n', error: '1:1 SyntaxError: cannot assign to literal' },
  ])('finds $what, which only the compiler knows', async ({ text, error }) => {
    const ws = await open();
    const r = await createEngine(ws).call('ws_write', { path: 'new.py', content: text });
    expect(r.text).toContain(`[syntax: new.py does not parse (${CPYTHON_CHECKER}): ${error}`);
  });

  it('judges with -I: a json.py in the workspace does not replace the standard library', async () => {
    const ws = await open();
    await ws.writeFile('json.py', new TextEncoder().encode('raise SystemExit("shadowed")\n'));
    const engine = createEngine(ws);
    await engine.call('ws_read', { path: 'calc.py' });
    const r = await engine.call('ws_edit', { path: 'calc.py', old_str: '    return', new_str: 'return' });
    expect(r.text).toContain('(CPython compile()): 2:1 IndentationError: expected an indented block');
  });
});

describe('compile() verdicts', () => {
  it.each([
    { what: 'ok', out: '@@compile {"ok": true, "ms": 0.2}', status: 'ok', message: undefined },
    {
      what: 'an error',
      out: 'noise\n@@compile {"ok": false, "type": "SyntaxError", "msg": "invalid syntax", "line": 3, "col": 5, "ms": 1}',
      status: 'error',
      message: '3:5 SyntaxError: invalid syntax',
    },
    {
      what: 'over the budget',
      out: '@@compile {"ok": true, "ms": 2500}',
      status: 'skipped',
      message: 'the check took 2500 ms, over its 2000 ms budget; not judged',
    },
    {
      what: 'nesting too deep',
      out: '@@compile {"skip": "RecursionError", "ms": 3}',
      status: 'skipped',
      message: 'the compiler gave up (RecursionError: nesting too deep); not judged',
    },
  ])('$what', ({ out, status, message }) => {
    const v = compileVerdict(out, 2000);
    expect(v?.status).toBe(status);
    expect(v?.message).toBe(message);
  });

  it('no answer is no verdict (the fallback judges)', () => {
    expect(compileVerdict('python3: command not found\n', 2000)).toBeNull();
  });

  it('waits for a worker already starting Python before its own bound starts', async () => {
    const events: string[] = [];
    let warmed = () => {};
    const starting: JsEngine = {
      state: () => 'ready',
      warm: () => new Promise<void>((resolve) => (warmed = () => (events.push('warm'), resolve()))),
      run: async () => {
        events.push('run');
        const output = '@@compile {"ok": true, "ms": 1}\n';
        return { exitCode: 0, output, totalBytes: output.length, truncated: false, timedOut: false };
      },
    };
    const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine(), starting));
    const verdict = createPythonCompileCheck(ws, async () => null)('calc.py', GOOD);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(events).toEqual([]);
    warmed();
    expect((await verdict)?.checker).toBe(CPYTHON_CHECKER);
    expect(events).toEqual(['warm', 'run']);
  });

  it('before Python is loaded, the hand rules judge and the verdict says so', async () => {
    const notLoaded: JsEngine = {
      state: () => 'not-loaded',
      run: () => Promise.reject(new Error('nothing may run before Python is loaded')),
    };
    const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine(), notLoaded));
    await ws.writeFile('calc.py', new TextEncoder().encode(GOOD));
    const engine = createEngine(ws);
    await engine.call('ws_read', { path: 'calc.py' });
    const r = await engine.call('ws_edit', {
      path: 'calc.py',
      old_str: 'def mean(values):',
      new_str: 'def mean(values)',
    });
    expect(r.text).toContain(`(tree-sitter-python; ${BEFORE_PYTHON}):`);
  });
});
