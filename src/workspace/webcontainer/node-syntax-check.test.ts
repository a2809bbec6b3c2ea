/**
 * The optional `node --check` checker against a workspace with a real node (the Node backend,
 * which runs exactly what WebContainer would be asked to run) and one without (the memory
 * backend with no process runner), where it must fall back to the in-process checker.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { encodeText } from '../../engine/text.ts';
import type { ExecResult } from '../../engine/workspace.ts';
import { MemoryWorkspace } from '../memory/memory-workspace.ts';
import { NodeWorkspace } from '../node/node-workspace.ts';
import { createNodeSyntaxCheck, NODE_CHECKER, verdictOf } from './node-syntax-check.ts';

let dir: string;
let ws: NodeWorkspace;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'slm-node-check-'));
  ws = await NodeWorkspace.open(dir);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('node --check on a workspace with node', () => {
  it.each([
    [
      'valid CommonJS',
      'ok.js',
      'const a = require("x");\nmodule.exports = a;\n',
      { status: 'ok', checker: NODE_CHECKER },
    ],
    [
      'valid ES module syntax in .mjs',
      'ok.mjs',
      'import x from "y";\nexport const z = x;\n',
      { status: 'ok', checker: NODE_CHECKER },
    ],
    [
      'an unclosed call: end of input',
      'eof.js',
      'const a = 1;\nfoo(a,\n',
      { status: 'error', checker: NODE_CHECKER, message: '3:1 Unexpected end of input' },
    ],
    [
      'a stray comma: the caret column',
      'comma.js',
      'let x = {\n  a: 1,,\n};\n',
      { status: 'error', checker: NODE_CHECKER, message: "2:8 Unexpected token ','" },
    ],
    [
      'import in a .cjs file',
      'esm.cjs',
      'import x from "y";\n',
      { status: 'error', checker: NODE_CHECKER, message: '1:1 Cannot use import statement outside a module' },
    ],
    ['a file named like an option', '-x.js', 'ok();\n', { status: 'ok', checker: NODE_CHECKER }],
  ] as const)('%s', async (_label, path, text, verdict) => {
    await ws.writeFile(path, encodeText(text));
    expect(await createNodeSyntaxCheck(ws)(path, text)).toEqual(verdict);
  });

  it('a text that is not what the file holds (an edit\'s "before") goes to the in-process checker', async () => {
    await ws.writeFile('before.js', encodeText('const ok = 1;\n'));
    expect(await createNodeSyntaxCheck(ws)('before.js', 'const = ;\n')).toMatchObject({
      status: 'error',
      checker: 'acorn',
    });
    expect(await createNodeSyntaxCheck(ws)('missing.js', 'fine();\n')).toEqual({ status: 'ok', checker: 'acorn' });
  });

  it('other file types go to the in-process checker', async () => {
    await ws.writeFile('data.json', encodeText('{"a": 1,}'));
    expect(await createNodeSyntaxCheck(ws)('data.json', '{"a": 1,}')).toMatchObject({
      status: 'error',
      checker: 'json',
    });
    expect(await createNodeSyntaxCheck(ws)('notes.md', '# hi')).toBeNull();
  });

  it('a check past its timeout gives no verdict', async () => {
    await ws.writeFile('slow.js', encodeText('ok();\n'));
    expect(await createNodeSyntaxCheck(ws, { timeoutMs: 1 })('slow.js', 'ok();\n')).toEqual({
      status: 'skipped',
      checker: NODE_CHECKER,
      message: 'node --check took longer than 1 ms; not judged',
    });
  });
});

describe('without node', () => {
  it('falls back to the in-process checker when the command cannot run', async () => {
    const mem = new MemoryWorkspace();
    await mem.writeFile('a.js', encodeText('foo(\n'));
    expect(await createNodeSyntaxCheck(mem)('a.js', 'foo(\n')).toMatchObject({ status: 'error', checker: 'acorn' });
  });
});

describe("verdictOf: reading node's answer", () => {
  const run = (exitCode: number | null, output: string): ExecResult => ({
    exitCode,
    output,
    totalBytes: output.length,
    truncated: false,
    timedOut: false,
  });
  it.each([
    ['exit 0', run(0, ''), { status: 'ok', checker: NODE_CHECKER }],
    [
      'a terminal answer with CRLF and colour',
      run(
        1,
        "/home/p/a.js:2\r\n  a: 1,,\r\n       ^\r\n\r\n\x1b[31mSyntaxError\x1b[39m: Unexpected token ','\r\n    at wrapSafe\r\n",
      ),
      { status: 'error', checker: NODE_CHECKER, message: "2:8 Unexpected token ','" },
    ],
    [
      'no caret line',
      run(1, '/home/p/a.js:3\n\n\n\nSyntaxError: Unexpected end of input\n'),
      { status: 'error', checker: NODE_CHECKER, message: '3:1 Unexpected end of input' },
    ],
    ['command not found', run(127, 'jsh: command not found: node\n'), null],
    ['killed', run(null, ''), null],
    [
      'an error that is not a syntax error',
      run(1, 'node:internal/modules/cjs/loader:1080\n  throw err;\n\nError: Cannot find module\n'),
      null,
    ],
  ] as const)('%s', (_label, r, verdict) => {
    expect(verdictOf(r, 1000)).toEqual(verdict);
  });
});
