/**
 * The JavaScript sandbox end to end in Node: the job built from the in-memory files, the very
 * runtime and shims the browser loads (in a worker_threads thread instead of an opaque-origin
 * worker; tests/support/sandbox-thread.ts), the host's bounding and killing. Where real Node
 * can say what is right, the sandbox's output is compared with it.
 */
import { describe, expect, it } from 'vitest';
import { InMemoryFs } from 'just-bash';
import { singleCommand, type ExecResult } from '../../engine/workspace.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { ShellRunner } from './shell-runner.ts';
import { SandboxJsEngine, type SandboxWorker } from './js-sandbox.ts';
import { NodeJsEngine } from './node-runner.ts';
import type { JsEngine } from './node-commands.ts';
import { STARTER_TEMPLATE } from '../templates/index.ts';
import { threadWorker } from '../../../tests/support/sandbox-thread.ts';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';

// npm reads package.json scripts with the shell policy, which parses with tree-sitter-bash.
useNodeWasm();

const LIMITS = { timeoutMs: 20_000, maxOutputBytes: 256 * 1024 };

async function workspace(
  files: Readonly<Record<string, string>>,
  engine: JsEngine = new SandboxJsEngine(threadWorker),
): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace(new InMemoryFs(), '/ws', new ShellRunner(engine));
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, new TextEncoder().encode(t));
  return ws;
}

async function run(
  files: Readonly<Record<string, string>>,
  argv: readonly string[],
  limits = LIMITS,
): Promise<ExecResult> {
  return (await workspace(files)).exec(singleCommand(argv), limits);
}

/** TAP result lines without their numbers, and the tally lines without the duration. */
function tapShape(output: string): string[] {
  return output
    .split('\n')
    .filter((l) => /^\s*(?:not )?ok \d+ - |^# (?:tests|suites|pass|fail|cancelled|skipped|todo) \d+$/.test(l))
    .map((l) => l.replace(/ok \d+ - /, 'ok - '));
}

const NESTED = {
  't/a.test.mjs': `import { test, describe, it } from 'node:test';
import assert from 'node:assert';
describe('suite A', () => {
  it('inner ok', () => {});
  it('inner fail', () => { assert.strictEqual(1, 2); });
  it.skip('skipped', () => {});
  it.todo('todo one');
});
test('parent', async (t) => {
  await t.test('child ok', () => {});
  await t.test('child fail', () => { throw new Error('boom'); });
});
test('deep', () => { assert.deepStrictEqual({ a: [1, 2] }, { a: [1, 3] }); });
test('plain throws', () => { assert.throws(() => {}, RangeError); });
test('with done', (t, done) => { setTimeout(done, 5); });
console.log('hello from file');
`,
  't/b.test.mjs': 'throw new Error("bad import");\n',
};

describe('node --test in the sandbox', () => {
  it('runs the starter template: TAP as node prints it, the failing assertion, # pass 8 / # fail 1, exit 1', async () => {
    const r = await run(STARTER_TEMPLATE.files, ['npm', 'test']);
    expect(r.exitCode).toBe(1);
    expect(r.output).toMatch(
      /^\n> tiny-utils@1\.0\.0 test\n> node --test\n\nTAP version 13\n# Subtest: clamp keeps a value within its bounds\nok 1 - clamp/,
    );
    expect(r.output).toContain('not ok 8 - truncate never returns more than max characters\n  ---\n  duration_ms: ');
    expect(r.output).toContain(
      "  error: |-\n    Expected values to be strictly equal:\n    + actual - expected\n    \n    + 'hello wo…'\n    - 'hello w…'\n  code: 'ERR_ASSERTION'\n  name: 'AssertionError'\n  expected: 'hello w…'\n  actual: 'hello wo…'\n  operator: 'strictEqual'\n  stack: '/ws/test/strings.test.js:21:10'\n",
    );
    expect(r.output).toMatch(
      /\n1\.\.9\n# tests 9\n# suites 0\n# pass 8\n# fail 1\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms [\d.]+\n$/,
    );
    expect(r.backendNote).toMatch(/node ran in the browser sandbox/);
  });

  it('reports suites, subtests, skip, todo, done callbacks and a file that fails to load as Node does', async () => {
    const sandbox = await run(NESTED, ['node', '--test', 't/']);
    const node = await (
      await workspace(NESTED, new NodeJsEngine())
    ).exec(singleCommand(['node', '--test', 't/']), LIMITS);
    expect(tapShape(sandbox.output)).toEqual(tapShape(node.output));
    expect(tapShape(sandbox.output).slice(-7)).toEqual([
      '# tests 11',
      '# suites 1',
      '# pass 3',
      '# fail 6',
      '# cancelled 0',
      '# skipped 1',
      '# todo 1',
    ]);
    expect(sandbox.exitCode).toBe(node.exitCode);
    expect(sandbox.output).toContain('# hello from file\n');
    expect(sandbox.output).toContain(
      '# Error: bad import\n#     at /ws/t/b.test.mjs:1:7\n# Subtest: /ws/t/b.test.mjs\nnot ok 6 - /ws/t/b.test.mjs\n',
    );
  });

  it('runs only tests whose name matches --test-name-pattern; the rest are skipped', async () => {
    const r = await run(STARTER_TEMPLATE.files, ['node', '--test', '--test-name-pattern=sum|average', 'test/']);
    expect(r.exitCode).toBe(0);
    expect(tapShape(r.output).filter((l) => !l.includes('# SKIP'))).toEqual([
      'ok - sum adds a list, and an empty list sums to 0',
      'ok - average is the arithmetic mean',
      '# tests 9',
      '# suites 0',
      '# pass 2',
      '# fail 0',
      '# cancelled 0',
      '# skipped 7',
      '# todo 0',
    ]);
  });

  it('runs hooks in order around each test', async () => {
    const file = `import { describe, it, before, after, beforeEach, afterEach } from 'node:test';
const log = [];
describe('s', () => {
  before(() => log.push('before'));
  beforeEach(() => log.push('each'));
  afterEach(() => log.push('after-each'));
  after(() => console.log(log.join(',')));
  it('one', () => log.push('one'));
  it('two', () => log.push('two'));
});
`;
    const r = await run({ 'h.test.mjs': file }, ['node', '--test']);
    expect(r.output).toContain('# before,each,one,after-each,each,two,after-each\n');
    expect(r.exitCode).toBe(0);
  });

  it("runs a test context's hooks around its subtests", async () => {
    const file = `import { test } from 'node:test';
const log = [];
test('parent', async (t) => {
  t.before(async () => { await new Promise((r) => setTimeout(r, 5)); log.push('before'); });
  t.after(() => console.log(log.concat('after').join(',')));
  t.beforeEach(() => log.push('each'));
  await t.test('a', () => log.push('a'));
  await t.test('b', () => log.push('b'));
});
`;
    const r = await run({ 'c.test.mjs': file }, ['node', '--test']);
    expect(r.output).toContain('# before,each,a,each,b,after\n');
    expect(tapShape(r.output).slice(0, 3)).toEqual(['    ok - a', '    ok - b', 'ok - parent']);
  });

  it.each([
    {
      what: 'strictEqual on numbers',
      code: 'assert.strictEqual(1, 2)',
      error: ['Expected values to be strictly equal:', '', '1 !== 2'],
    },
    {
      what: 'deepStrictEqual',
      code: 'assert.deepStrictEqual([1, 2], [1, 3])',
      error: ['Expected values to be strictly deep-equal:', '+ actual - expected', '', '+ [ 1, 2 ]', '- [ 1, 3 ]'],
    },
    {
      what: 'throws without a throw',
      code: 'assert.throws(() => {}, TypeError)',
      error: ['Missing expected exception (TypeError).'],
    },
    {
      what: 'throws with the wrong class',
      code: "assert.throws(() => { throw new RangeError('r'); }, TypeError)",
      error: [
        'The error is expected to be an instance of "TypeError". Received "RangeError"',
        '',
        'Error message:',
        '',
        'r',
      ],
    },
    {
      what: 'match',
      code: "assert.match('abc', /x/)",
      error: ['The input did not match the regular expression /x/. Input:', '', "'abc'"],
    },
    { what: 'rejects', code: 'await assert.rejects(Promise.resolve(1))', error: ['Missing expected rejection.'] },
    { what: 'ok', code: 'assert.ok(0)', error: ['The expression evaluated to a falsy value: 0'] },
    { what: 'a custom message', code: "assert.equal(1, 2, 'one is not two')", error: ['one is not two'] },
    {
      what: 'loose equal in node:assert',
      code: "assert.deepEqual({ a: 1 }, { a: '1' }); throw new Error('passed')",
      error: ['passed'],
    },
  ])('assert: $what', async ({ code, error }) => {
    const file = `import { test } from 'node:test';\nimport assert from 'node:assert';\ntest('t', async () => { ${code}; });\n`;
    const r = await run({ 'x.test.mjs': file }, ['node', '--test']);
    const block = /  error: (?:\|-\n((?: {4}.*\n|\n)+?)|'(.*)'\n)  code:/.exec(r.output);
    const lines =
      block?.[1] !== undefined
        ? block[1]
            .replace(/\n$/, '')
            .split('\n')
            .map((l) => l.slice(4))
        : [block?.[2]];
    expect(lines).toEqual(error);
  });
});

describe('node FILE in the sandbox', () => {
  it.each<{ what: string; files: Record<string, string>; argv: string[]; exit: number; output: string | RegExp }>([
    {
      what: 'argv, node:path, console formatting, timers and process.exitCode',
      files: {
        'main.js':
          "import path from 'node:path';\nconsole.log('hi', path.join('a', '..', 'b'), { a: 1, b: [1, 2] }, process.argv.slice(2));\nsetTimeout(() => { console.log('later'); process.exitCode = 3; }, 20);\n",
        'package.json': '{"type":"module"}',
      },
      argv: ['node', 'main.js', 'x', 'y'],
      exit: 3,
      output: "hi b { a: 1, b: [ 1, 2 ] } [ 'x', 'y' ]\nlater\n",
    },
    {
      what: 'process.exit stops the program at once',
      files: { 'e.mjs': "console.log('before'); process.exit(4); console.log('after');\n" },
      argv: ['node', 'e.mjs'],
      exit: 4,
      output: 'before\n',
    },
    {
      what: 'CommonJS: require of files, JSON and a built-in, module.exports',
      files: {
        'c/x.js':
          "const { add } = require('./y');\nconst data = require('./d.json');\nconst assert = require('node:assert');\nassert.strictEqual(add(2, 3), 5);\nconsole.log(add(2, 3), data.k);\n",
        'c/y.js': 'exports.add = (a, b) => a + b;\n',
        'c/d.json': '{"k": "v"}',
      },
      argv: ['node', 'c/x.js'],
      exit: 0,
      output: '5 v\n',
    },
    {
      what: 'an ES module imports CommonJS names and JSON',
      files: {
        'm.mjs':
          "import lib, { twice } from './lib.cjs';\nimport data from './d.json' with { type: 'json' };\nconsole.log(twice(2), lib.twice(3), data.n);\n",
        'lib.cjs': 'module.exports = { twice: (n) => n * 2 };\n',
        'd.json': '{"n": 7}',
      },
      argv: ['node', 'm.mjs'],
      exit: 0,
      output: '4 6 7\n',
    },
    {
      what: 'an uncaught error: its message and the program frame, exit 1',
      files: { 'u.mjs': "\nthrow new TypeError('nope');\n" },
      argv: ['node', 'u.mjs'],
      exit: 1,
      output: /^TypeError: nope\n {4}at \/ws\/u\.mjs:2:7\n$/,
    },
    {
      what: 'a package import fails as in Node, before the importer runs',
      files: { 'p.mjs': "console.log('ran');\nimport x from 'lodash';\n" },
      argv: ['node', 'p.mjs'],
      exit: 1,
      output:
        "Error [ERR_MODULE_NOT_FOUND]: Cannot find package 'lodash' imported from /ws/p.mjs: the offline sandbox loads only the workspace's own files and node:test, node:assert, node:assert/strict, node:path and node:util (no node_modules, no network)\n",
    },
    {
      what: 'a built-in the sandbox lacks is named, with where to run it instead',
      files: { 'f.mjs': "import { readFileSync } from 'node:fs';\n" },
      argv: ['node', 'f.mjs'],
      exit: 1,
      output:
        /^Error \[ERR_UNKNOWN_BUILTIN_MODULE\]: node:fs is not available in the offline sandbox .*run the program on the Node backend/,
    },
    {
      what: 'a missing extension resolves as bundlers resolve it',
      files: { 'a.mjs': "import { b } from './b';\nconsole.log(b);\n", 'b.js': 'export const b = 1;\n' },
      argv: ['node', 'a.mjs'],
      exit: 0,
      output: '1\n',
    },
    {
      what: 'a failed dynamic import can be caught',
      files: { 'd.mjs': "try { await import('./nope.mjs'); } catch (e) { console.log('caught', e.code); }\n" },
      argv: ['node', 'd.mjs'],
      exit: 0,
      output: 'caught ERR_MODULE_NOT_FOUND\n',
    },
    {
      what: 'a circular import is named',
      files: { 'x.mjs': "import './y.mjs';\n", 'y.mjs': "import './x.mjs';\n" },
      argv: ['node', 'x.mjs'],
      exit: 1,
      output:
        /^Error \[ERR_SANDBOX_CYCLE\]: circular import \/ws\/x\.mjs -> \/ws\/y\.mjs -> \/ws\/x\.mjs is not supported by the offline sandbox; run it on the Node backend\n$/,
    },
    {
      what: "node:assert/strict: node:assert's API with equal/deepEqual strict, its default the strict assert",
      files: {
        's.mjs':
          "import assert, { equal, deepEqual, ok, strict } from 'node:assert/strict';\nimport loose from 'node:assert';\n" +
          "loose.equal(1, '1');\nconst threw = (f) => { try { f(); return false; } catch { return true; } };\n" +
          "console.log(threw(() => equal(1, '1')), threw(() => deepEqual({ a: 1 }, { a: '1' })), threw(() => assert.equal(1, '1')), assert === strict, typeof ok);\n",
      },
      argv: ['node', 's.mjs'],
      exit: 0,
      output: 'true true true true function\n',
    },
    {
      what: "storage globals and the channel between jobs are gone (the network is the frame policy's: e2e/sandbox-network.spec.ts)",
      files: { 'g.mjs': 'console.log(typeof indexedDB, typeof caches, typeof navigator, typeof BroadcastChannel);\n' },
      argv: ['node', 'g.mjs'],
      exit: 0,
      output: 'undefined undefined undefined undefined\n',
    },
  ])('$what', async ({ files, argv, exit, output }) => {
    const r = await run(files, argv);
    if (typeof output === 'string') expect(r.output).toBe(output);
    else expect(r.output).toMatch(output);
    expect(r.exitCode).toBe(exit);
  });

  it('ends a for(;;){} at the timeout by terminating its worker', async () => {
    const started = Date.now();
    const r = await run({ 'spin.mjs': "console.log('spinning');\nfor (;;) {}\n" }, ['node', 'spin.mjs'], {
      ...LIMITS,
      timeoutMs: 2000,
    });
    expect(Date.now() - started).toBeLessThan(6000);
    expect(r).toMatchObject({ exitCode: null, timedOut: true, output: 'spinning\n' });
    expect(r.backendNote).toMatch(/killed after \d+ ms \(the sandbox worker was terminated\)/);
  });

  it('bounds 100 MB of output while it runs: head and tail kept, every byte counted, memory bounded', async () => {
    const files = {
      'flood.mjs':
        "const chunk = 'x'.repeat(1 << 20);\nconsole.log('FIRST');\nfor (let i = 0; i < 100; i++) process.stdout.write(chunk);\nconsole.log('LAST');\n",
    };
    const before = process.memoryUsage().rss;
    const r = await run(files, ['node', 'flood.mjs'], { timeoutMs: 60_000, maxOutputBytes: 64 * 1024 });
    const grown = process.memoryUsage().rss - before;
    expect(r.exitCode).toBe(0);
    expect(r.truncated).toBe(true);
    expect(r.totalBytes).toBeGreaterThanOrEqual(100 * 2 ** 20 + 11);
    expect(r.totalBytes).toBeLessThan(100 * 2 ** 20 + 200);
    expect(r.output.startsWith('FIRST\nxxx')).toBe(true);
    expect(r.output.endsWith('xxxLAST\n')).toBe(true);
    expect(r.output.length).toBeLessThan(64 * 1024 + 200);
    console.log(`sandbox 100 MB flood: rss grew ${(grown / 2 ** 20).toFixed(1)} MB`);
    expect(grown).toBeLessThan(64 * 2 ** 20);
  });

  it.each([
    { what: 'node --version', argv: ['node', '--version'], exit: 0, output: /^v20\.0\.0 \(slmcode offline sandbox/ },
    {
      what: 'an unknown option',
      argv: ['node', '--inspect', 'a.js'],
      exit: 9,
      output: /^node: bad option: --inspect\nThe offline sandbox runs `node FILE\.js \[args\]` and `node --test/,
    },
    {
      what: 'code on the command line',
      argv: ['node', '-e', 'console.log(1)'],
      exit: 9,
      output:
        /^node: -e \(code on the command line\) does not run in the offline sandbox, which runs only the workspace's files\. Write the code to a file with ws_write and run node FILE\.js/,
    },
    {
      what: 'a missing script',
      argv: ['node', 'missing.js'],
      exit: 1,
      output: /Error: Cannot find module '\/ws\/missing\.js'/,
    },
    { what: 'no test files', argv: ['node', '--test'], exit: 1, output: /^Could not find any test files in \/ws/ },
    {
      what: 'no script at all',
      argv: ['node'],
      exit: 9,
      output: /^node: no script given; a REPL or a script on stdin cannot run in the offline sandbox/,
    },
  ])('answers $what without starting a worker', async ({ argv, exit, output }) => {
    const spawned: string[] = [];
    const ws = await workspace(
      { 'a.js': '' },
      new SandboxJsEngine((src, limits) => (spawned.push(src), threadWorker(src, limits))),
    );
    const r = await ws.exec(singleCommand(argv), LIMITS);
    expect(r.output).toMatch(output);
    expect(r.exitCode).toBe(exit);
    expect(spawned).toEqual([]);
  });
});

describe('the host treats the worker as untrusted', () => {
  /** A worker that answers a job with the given messages. */
  const scripted = (messages: unknown[]) => (): SandboxWorker => {
    let handler: (d: unknown) => void = () => {};
    return {
      postMessage: () => queueMicrotask(() => messages.forEach((m) => handler(m))),
      onMessage: (h) => (handler = h),
      onError: () => {},
      onMemory: () => {},
      terminate: () => {},
    };
  };

  it.each([
    {
      what: 'head beyond its share is dropped',
      messages: [
        { type: 'head', text: 'h'.repeat(5000) },
        { type: 'exit', code: 0 },
      ],
      output: 'h'.repeat(512),
      exit: 0,
    },
    {
      what: 'malformed messages are ignored',
      messages: [
        null,
        7,
        { type: 'head', text: 42 },
        { type: 'nope' },
        { type: 'head', text: 'ok' },
        { type: 'exit', code: 0 },
      ],
      output: 'ok',
      exit: 0,
    },
    { what: 'an exit code out of range becomes 1', messages: [{ type: 'exit', code: 1e9 }], output: '', exit: 1 },
    {
      what: 'nothing after exit counts',
      messages: [
        { type: 'exit', code: 2 },
        { type: 'head', text: 'late' },
      ],
      output: '',
      exit: 2,
    },
  ])('$what', async ({ messages, output, exit }) => {
    const ws = await workspace({ 'a.js': '' }, new SandboxJsEngine(scripted(messages)));
    const r = await ws.exec(singleCommand(['node', 'a.js']), { timeoutMs: 5000, maxOutputBytes: 1024 });
    expect(r.output).toBe(output);
    expect(r.exitCode).toBe(exit);
  });

  it('a worker that cannot be created is an exit 126 with the reason', async () => {
    const ws = await workspace(
      { 'a.js': '' },
      new SandboxJsEngine(() => {
        throw new Error('Worker is not defined');
      }),
    );
    const r = await ws.exec(singleCommand(['node', 'a.js']), LIMITS);
    expect(r).toMatchObject({
      exitCode: 126,
      output: 'node: the JavaScript sandbox could not start: Worker is not defined\n',
    });
  });
});

describe('a program cannot forge its result', () => {
  /** One passing and one failing test (a plain throw), with `attack` tried before them, or in a last test of its own once they have run. */
  const hostile = (attack: string, last = false) => `import { test } from 'node:test';
${last ? '' : attack}
test('real pass', () => {});
test('real fail', () => { throw new Error('really failed'); });
${last ? `test('patches', () => {\n${attack}\n});` : ''}
`;
  const FAKE_TALLY = "'1..9\\n# tests 9\\n# pass 9\\n# fail 0\\n'";

  it.each([
    {
      what: 'messages on a port of its own, as the runtime would write them',
      attack: `const { port1 } = new MessageChannel();
port1.postMessage({ type: 'head', text: ${FAKE_TALLY} });
port1.postMessage({ type: 'exit', code: 0 });`,
    },
    {
      what: 'MessagePort.prototype.postMessage rewritten to send a passing tally',
      attack: `const real = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (m) {
  return real.call(this, m && m.type === 'exit' ? { type: 'exit', code: 0 } : { type: 'head', text: ${FAKE_TALLY} });
};`,
    },
    {
      what: 'the built-ins the runtime and the tally use, patched once the tests have run',
      last: true,
      attack: `  const forged = ${FAKE_TALLY};
  Function.prototype.call = function () { return undefined; };
  Function.prototype.apply = function () { return undefined; };
  Function.prototype.bind = function () { return () => undefined; };
  String.prototype.slice = function () { return forged; };
  String.prototype.indexOf = function () { return -1; };
  String.prototype.split = function () { return [forged]; };
  Array.prototype[Symbol.iterator] = function* () { yield forged; };
  Number.prototype.toFixed = function () { return '0\\n# pass 9\\n# fail 0'; };
  Object.entries = () => [['pass', 9], ['fail', 0]];
  Date.now = () => 0;`,
    },
    {
      what: 'a tally printed as output, then process.exit(0) before the real one',
      attack: `console.log('pass 9\\nfail 0');
setTimeout(() => process.exit(0), 0);`,
    },
    {
      what: "node:test's runtime hooks, looked for",
      attack: `import * as t from 'node:test';
const hooks = globalThis[Symbol.for('slm.sandbox.test-hooks')];
console.log('exports', Object.keys(t).filter((k) => k.startsWith('__')).length, 'hooks', typeof hooks);
if (typeof hooks === 'function') hooks({ finish: () => ({ failed: 0 }) });`,
    },
  ])('$what: the tally and the exit code are the real ones', async ({ attack, last }) => {
    const r = await run({ 'test/hostile.test.mjs': hostile(attack, last) }, ['node', '--test']);
    // The test that patches passes (it threw nothing): the runner walks its tests with captured built-ins. The tally says so, last.
    const passed = last ? 2 : 1;
    const tally = tapShape(r.output).filter((l) => /^# (pass|fail) /.test(l));
    expect(tally.slice(-2)).toEqual([`# pass ${passed}`, '# fail 1']);
    expect(r.output).toMatch(
      new RegExp(
        `\\n1\\.\\.${passed + 1}\\n# tests ${passed + 1}\\n# suites 0\\n# pass ${passed}\\n# fail 1\\n# cancelled 0\\n# skipped 0\\n# todo 0\\n# duration_ms [\\d.]+\\n$`,
      ),
    );
    expect(r.exitCode).toBe(1);
  });

  it('failures thrown as values whose fields throw when read (code, message, a Proxy) are counted: # fail 3, exit 1', async () => {
    const file = `import { test } from 'node:test';
const sneaky = (msg) => { const e = new Error(msg); Object.defineProperty(e, 'code', { get() { throw 0; } }); return e; };
test('adds', () => {});
test('broken by its code', () => { throw sneaky('1 + 1 is not 3'); });
test('broken by its message', () => { throw { get message() { throw 1; } }; });
test('broken by a proxy', () => { throw new Proxy({}, { get() { throw 2; }, getPrototypeOf() { throw 3; } }); });
`;
    const r = await run({ 'test/spoof.test.mjs': file }, ['node', '--test']);
    expect(tapShape(r.output).filter((l) => /^# (tests|pass|fail) /.test(l))).toEqual([
      '# tests 4',
      '# pass 1',
      '# fail 3',
    ]);
    expect(r.output).toContain("error: 'the thrown value could not be read (reading it threw)'");
    expect(r.exitCode).toBe(1);
  });

  it('an uncaught value whose fields throw when read still ends the program with exit 1', async () => {
    const r = await run(
      {
        'a.mjs':
          'setTimeout(() => { throw new Proxy({}, { get() { throw 1; }, getPrototypeOf() { throw 2; } }); }, 0);\n',
      },
      ['node', 'a.mjs'],
    );
    expect(r.exitCode).toBe(1);
  });

  it('process.exit in a test file fails that file, and the tally still comes last', async () => {
    const r = await run(
      {
        'test/a.test.mjs': "import { test } from 'node:test';\ntest('ok', () => {});\nprocess.exit(0);\n",
        'test/b.test.mjs': "import { test } from 'node:test';\ntest('never runs', () => {});\n",
      },
      ['node', '--test'],
    );
    expect(r.output).toContain(
      "# process.exit(0) was called while this file's tests ran: the file counts as failed, and no test after it ran\n",
    );
    expect(r.output).not.toContain('never runs');
    expect(r.output).toMatch(/\n# fail 1\n# cancelled 0\n# skipped 0\n# todo 0\n# duration_ms [\d.]+\n$/);
    expect(r.exitCode).toBe(1);
  });

  it('node:test exports no runtime hooks, and the hand-off global is gone before the program runs', async () => {
    const r = await run(
      {
        'h.mjs':
          "import * as t from 'node:test';\nconsole.log(Object.keys(t).filter((k) => k.startsWith('__')), typeof globalThis[Symbol.for('slm.sandbox.test-hooks')]);\n",
      },
      ['node', 'h.mjs'],
    );
    expect(r.output).toBe('[] undefined\n');
  });
});

describe('the memory cap', () => {
  it('stops a program that grows past it and says so', async () => {
    const engine = new SandboxJsEngine(threadWorker, { memoryCapBytes: 64 * 2 ** 20 });
    const ws = await workspace(
      {
        'grow.mjs':
          "console.log('growing');\nconst keep = [];\nfor (;;) keep.push(new Array(1e5).fill(keep.length + 0.5));\n",
      },
      engine,
    );
    const r = await ws.exec(singleCommand(['node', 'grow.mjs']), LIMITS);
    expect(r.exitCode).toBe(137);
    expect(r.timedOut).toBe(false);
    expect(r.output).toMatch(
      /^growing\nsandbox: stopped: the program used \d+ MiB, more than the sandbox's 64 MiB; make it use less memory, or run it on the Node backend\n$/,
    );
    expect(r.backendNote).toContain('stopped for memory: it passed the 64 MiB cap (the sandbox worker was terminated)');
  });
});
