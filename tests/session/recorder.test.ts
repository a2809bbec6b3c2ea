/**
 * Recording: what a Session record holds after a real run — the starting workspace (a template
 * by id + hash when it is one, else the files, with what could not be carried named), the
 * settings and model, and per step the raw output with the result and workspace hashes.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { createEngine } from '../../src/engine/create.ts';
import { encodeText } from '../../src/engine/text.ts';
import { shortHash } from '../../src/session/hash.ts';
import { sessionSchema } from '../../src/session/record.ts';
import { recordRun } from '../../src/session/recorder.ts';
import { describeStart, seedStart } from '../../src/session/start.ts';
import { workspaceHash } from '../../src/session/tree.ts';
import { engineVersion } from '../../src/session/version.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { seedTemplate, STARTER_TEMPLATE } from '../../src/workspace/templates/index.ts';
import { copy, FIX_OUTPUTS, MATH, recordScript, workspaceWith } from './support.ts';
import { decodeShare, encodeSession } from '../../src/session/share-codec.ts';
import type { JsEngine } from '../../src/workspace/memory/node-commands.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';

beforeAll(() => useNodeWasm());

describe('the starting workspace', () => {
  it('is the bundled template by id and short content hash when the files are exactly the template', async () => {
    const ws = new MemoryWorkspace();
    await seedTemplate(ws, STARTER_TEMPLATE);
    const start = await describeStart(ws);
    expect(start).toEqual({
      ref: { template: { id: 'starter', hash: STARTER_TEMPLATE.hash.slice('sha256:'.length, 'sha256:'.length + 12) } },
      unrecorded: [],
    });
  });

  it('is the files otherwise, naming each entry a record cannot carry and why', async () => {
    const ws = await workspaceWith({
      'src/math.js': MATH,
      '.slmcode/hooks.json': '{}',
      '.slmcode/scratch/n.txt': 'ok',
    });
    await ws.writeFile('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1]));
    await ws.mkdir('empty');
    await ws.writeFile('node_modules/x/index.js', encodeText('module.exports = 1;\n'));
    await ws.symlink('src/math.js', 'link.js');
    const start = await describeStart(ws);
    expect(start.ref).toEqual({ files: { '.slmcode/scratch/n.txt': 'ok', 'src/math.js': MATH } });
    expect(start.unrecorded).toEqual([
      '.slmcode/hooks.json (a path the workspace refuses to write, e.g. harness state under .slmcode/)',
      'empty/ (an empty directory)',
      'link.js (a symlink)',
      'logo.png (a binary file)',
      'node_modules/ (skipped, as the search tools skip it)',
    ]);
  });

  it('seeds back into a fresh workspace with the same tree hash', async () => {
    const ws = await workspaceWith({ 'src/math.js': MATH, 'README.md': '# m\n' });
    const fresh = new MemoryWorkspace();
    expect(await seedStart(fresh, (await describeStart(ws)).ref)).toEqual({ ok: true });
    expect(await workspaceHash(fresh)).toBe(await workspaceHash(ws));
  });
});

describe('a recorded run', () => {
  it('holds the version, settings, model, task and every step with its hashes', async () => {
    const s = await recordScript();
    expect(sessionSchema.safeParse(s).success).toBe(true);
    expect(s).toMatchObject({
      v: 1,
      engineVersion: await engineVersion(),
      createdAt: '2025-01-01T00:00:00.000Z',
      settings: {
        engine: { max_tool_chars: 8000, edit_tolerance: true },
        agent: { maxSteps: 25, contextTokens: 4096, jsonMode: true },
      },
      model: { id: 'scripted:3-outputs', kind: 'scripted', params: { family: 'scripted' }, seed: 0, temperature: 0 },
      task: 'Make add add.',
      workspace: { files: { 'src/math.js': MATH } },
    });
    expect(s.steps.map((st) => st.raw)).toEqual(FIX_OUTPUTS);
    expect(s.steps[0]!.call).toEqual({ tool: 'ws_read', args: { path: 'src/math.js' } });
    for (const st of s.steps) expect(st.resultHash).toBe(await shortHash(st.resultText!));
    // The read changes nothing, the edit changes the tree.
    const fixed = await workspaceWith({ 'src/math.js': MATH.replace('a - b', 'a + b') });
    expect(s.steps[0]!.workspaceHash).toBe(await workspaceHash(await workspaceWith({ 'src/math.js': MATH })));
    expect(s.steps[1]!.workspaceHash).toBe(await workspaceHash(fixed));
    // Only a step that ran a command carries backend-dependent output.
    expect(s.steps.slice(0, 2).every((st) => st.backend === undefined && st.shellOutput === undefined)).toBe(true);
  });

  it('hashes each step before the next one runs, so every hash is the tree right after its step', async () => {
    const ws = await workspaceWith({ 'a.txt': 'x\n' });
    const outputs = [
      '{"tool": "ws_write", "args": {"path": "b.txt", "content": "1\\n"}}',
      '{"tool": "ws_write", "args": {"path": "c.txt", "content": "2\\n"}}',
      '{"tool": "ws_delete", "args": {"path": "b.txt"}}',
    ];
    const seen: string[] = [];
    const { session } = await recordRun({
      engine: createEngine(ws),
      model: new ScriptedModel(outputs),
      task: 't',
      maxSteps: 3,
      onRecord: (record) => void seen.push(record.workspaceHash),
    });
    const trees: Record<string, string>[] = [
      { 'a.txt': 'x\n', 'b.txt': '1\n' },
      { 'a.txt': 'x\n', 'b.txt': '1\n', 'c.txt': '2\n' },
      { 'a.txt': 'x\n', 'c.txt': '2\n' },
    ];
    const expected = await Promise.all(trees.map(async (t) => workspaceHash(await workspaceWith(t))));
    expect(session.steps.map((st) => st.workspaceHash)).toEqual(expected);
    expect(seen).toEqual(expected);
  });

  it('a tree hash changes with content, with paths, and with bytes moved between files', async () => {
    const hashOf = async (files: Record<string, string>) => workspaceHash(await workspaceWith(files));
    const base = await hashOf({ 'a.txt': 'ab', 'b.txt': 'c' });
    expect(await hashOf({ 'a.txt': 'ab', 'b.txt': 'c' })).toBe(base);
    expect(await hashOf({ 'a.txt': 'ab', 'b.txt': 'd' })).not.toBe(base);
    expect(await hashOf({ 'a.txt': 'a', 'b.txt': 'bc' })).not.toBe(base);
    expect(await hashOf({ 'a.txt': 'ab', 'c.txt': 'c' })).not.toBe(base);
    const withDir = await workspaceWith({ 'a.txt': 'ab', 'b.txt': 'c' });
    await withDir.mkdir('d');
    expect(await workspaceHash(withDir)).not.toBe(base);
  });
});

describe("a shell step's runtime", () => {
  /** An engine that answers every program with `output`, and says `runtime` in its result when given one. */
  const engine = (output: string, runtime?: string, own?: string): JsEngine => ({
    ...(own !== undefined && { runtime: own }),
    state: () => 'ready',
    run: async () => ({
      exitCode: 0,
      output,
      totalBytes: output.length,
      truncated: false,
      timedOut: false,
      ...(runtime !== undefined && { runtime }),
    }),
  });
  const shell = (command: string) => JSON.stringify({ tool: 'ws_shell', args: { command } });

  it("is the workspace's for node, and Python's for a step that ran python3; a link and the file form keep it", async () => {
    const ws = new MemoryWorkspace(
      undefined,
      undefined,
      new ShellRunner(
        engine('js ran\n', undefined, 'a stand-in JavaScript engine'),
        engine('py ran\n', 'Python 9.9.9 (a stand-in engine)'),
      ),
    );
    await ws.writeFile('a.js', encodeText('1;\n'));
    await ws.writeFile('a.py', encodeText('1\n'));
    const s = await recordScript({
      outputs: [
        shell('node a.js'),
        shell('python3 a.py'),
        shell('echo hi'),
        shell('node a.js | python3 a.py'),
        '{"tool": "done", "args": {"summary": "ran"}}',
      ],
      workspace: ws,
    });
    expect(sessionSchema.safeParse(s).success).toBe(true);
    expect(s.steps.slice(0, 4).map((st) => st.runtime)).toEqual([
      'a stand-in JavaScript engine',
      'Python 9.9.9 (a stand-in engine)',
      'a stand-in JavaScript engine',
      'Python 9.9.9 (a stand-in engine)',
    ]);
    const back = await decodeShare(await encodeSession(s));
    expect('session' in back && back.session.steps.slice(0, 4).map((st) => st.runtime)).toEqual(
      s.steps.slice(0, 4).map((st) => st.runtime),
    );
  });

  it('a record made before steps said their own runtime still parses, with the runtime it has', async () => {
    const s = await recordScript({ outputs: [shell('echo hi'), '{"tool": "done", "args": {"summary": "ran"}}'] });
    const old = copy(s);
    old.steps[0] = { ...old.steps[0]!, runtime: 'Node v18.0.0' };
    expect(sessionSchema.parse(old).steps[0]!.runtime).toBe('Node v18.0.0');
  });
});
