/**
 * The worker protocol end to end, in one process (in-process.ts): the real host on one end of
 * a MessageChannel, the real client on the other, a real Engine over a MemoryWorkspace seeded
 * with the starter. Two small tools defined here keep the tests independent of the tool set.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineTool } from '../engine/tool.ts';
import { ok } from '../engine/result.ts';
import { encodeText } from '../engine/text.ts';
import { Engine } from '../engine/engine.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { STARTER_TEMPLATE, seedTemplate } from '../workspace/templates/index.ts';
import { toolInfo, type EngineSession, type SessionFactory } from './engine-host.ts';
import { EngineCrashedError, EngineRequestError, type EngineClient, type EngineStatus } from './client.ts';
import { connectInProcess, type PortWorker } from './in-process.ts';
import { createTemplateSession } from './starter-session.ts';

const echo = defineTool({
  name: 't_echo',
  summary: 'Echo a message',
  writes: false,
  schema: z.object({ message: z.string(), times: z.number().int().optional() }),
  aliases: { msg: 'message' },
  run: async ({ message, times }) => ok(message.repeat(times ?? 1)),
});

const write = defineTool({
  name: 't_write',
  summary: 'Write a file',
  writes: true,
  schema: z.object({ path: z.string(), content: z.string() }),
  run: async ({ path, content }, ctx) => {
    const jailed = await ctx.resolve(path, 'write');
    if (!jailed.ok)
      return { ok: false, text: jailed.text, notes: [{ kind: 'refusal', text: jailed.rule }], changes: [] };
    await ctx.ws.writeFile(jailed.path, encodeText(content));
    return ok(`wrote ${path}`, [], [{ path, before: null, after: content }]);
  },
});

async function testSession(): Promise<EngineSession> {
  const workspace = new MemoryWorkspace();
  await seedTemplate(workspace, STARTER_TEMPLATE);
  const base = await createTemplateSession();
  return { engine: new Engine({ workspace, tools: [echo, write] }), info: base.info };
}

const open: EngineClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

/** A client and host joined by a MessageChannel; disposed after each test. */
function connect(factory: SessionFactory = testSession): { client: EngineClient; workers: PortWorker[] } {
  const joined = connectInProcess(factory);
  open.push(joined.client);
  return joined;
}

function nextStatus(client: EngineClient, state: EngineStatus['state']): Promise<EngineStatus> {
  if (client.status.state === state) return Promise.resolve(client.status);
  return new Promise((resolve) => {
    const off = client.onStatus((s) => {
      if (s.state === state) {
        off();
        resolve(s);
      }
    });
  });
}

describe('engine worker protocol', () => {
  it('says ready with the template it seeded', async () => {
    const { client } = connect();
    const s = await nextStatus(client, 'ready');
    expect(s).toEqual({
      state: 'ready',
      info: {
        workspaceKind: 'memory',
        template: {
          id: 'starter',
          title: STARTER_TEMPLATE.title,
          hash: STARTER_TEMPLATE.hash,
          task: STARTER_TEMPLATE.task,
        },
      },
    });
  });

  it('lists tools with their contract and input JSON schema', async () => {
    const { client } = connect();
    const tools = await client.listTools();
    expect(tools.map((t) => [t.name, t.summary, t.writes])).toEqual([
      ['t_echo', 'Echo a message', false],
      ['t_write', 'Write a file', true],
    ]);
    expect(tools[0]!.aliases).toEqual({ msg: 'message' });
    expect(tools[0]!.inputSchema).toMatchObject({
      type: 'object',
      properties: { message: { type: 'string' }, times: { type: 'integer' } },
      required: ['message'],
    });
  });

  it.each([
    ['a good call', 't_echo', { message: 'ab', times: 2 }, true, /^abab$/],
    ['an alias', 't_echo', { msg: 'hi' }, true, /^hi$/],
    [
      'bad arguments (a result, not an error)',
      't_echo',
      { times: 'x' },
      false,
      /t_echo was not run — its arguments do not match the schema/,
    ],
    ['an unknown tool', 'nope', {}, false, /^Unknown tool "nope"/],
  ])('call-tool: %s', async (_label, name, args, okay, text) => {
    const { client } = connect();
    const r = await client.callTool(name, args);
    expect(r.ok).toBe(okay);
    expect(r.text).toMatch(text);
  });

  it('carries notes and changes across the boundary', async () => {
    const { client } = connect();
    const r = await client.callTool('t_echo', { msg: 'x' });
    expect(r.notes).toEqual([{ kind: 'alias', text: 'msg accepted as message', detail: 'msg' }]);
    const w = await client.callTool('t_write', { path: 'new.txt', content: 'n' });
    expect(w.changes).toEqual([{ path: 'new.txt', before: null, after: 'n' }]);
  });

  it('snapshots the tree with sizes, depth-first and sorted', async () => {
    const { client } = connect();
    const snap = await client.fileTree();
    expect(snap.truncated).toBe(false);
    expect(snap.entries.map((e) => e.path)).toEqual([
      'README.md',
      'package.json',
      'src',
      'src/index.js',
      'src/numbers.js',
      'src/strings.js',
      'test',
      'test/numbers.test.js',
      'test/strings.test.js',
    ]);
    const strings = snap.entries.find((e) => e.path === 'src/strings.js')!;
    expect(strings).toEqual({
      path: 'src/strings.js',
      type: 'file',
      size: encodeText(STARTER_TEMPLATE.files['src/strings.js']!).length,
    });
    expect(snap.entries.find((e) => e.path === 'src')).toEqual({ path: 'src', type: 'dir', size: 0 });
  });

  it('reports symlinks with their target', async () => {
    const { client } = connect(async () => {
      const s = await testSession();
      await (s.engine.workspace as MemoryWorkspace).symlink('src/index.js', 'main.js');
      return s;
    });
    const snap = await client.fileTree();
    expect(snap.entries.find((e) => e.path === 'main.js')).toEqual({
      path: 'main.js',
      type: 'symlink',
      size: 12,
      target: 'src/index.js',
    });
  });

  it('reads a file for the viewer', async () => {
    const { client } = connect();
    expect(await client.readFile('package.json')).toEqual({
      path: 'package.json',
      size: encodeText(STARTER_TEMPLATE.files['package.json']!).length,
      text: STARTER_TEMPLATE.files['package.json'],
      truncated: false,
    });
  });

  it.each([
    ['outside the jail', '../etc/passwd', /\.\./],
    ['a directory', 'src', /^src is a directory; pick a file in the tree\.$/],
    ['a missing file', 'gone.js', /.+/],
  ])('read-file of %s is an error sent as data', async (_label, path, message) => {
    const { client } = connect();
    const err = await client.readFile(path).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(EngineRequestError);
    expect((err as Error).message).toMatch(message);
    // The worker is still fine after an error.
    expect((await client.callTool('t_echo', { message: 'ok' })).text).toBe('ok');
  });

  it('reset brings back the template and a fresh session', async () => {
    const { client } = connect();
    await client.callTool('t_write', { path: 'extra.js', content: 'x' });
    expect((await client.fileTree()).entries.some((e) => e.path === 'extra.js')).toBe(true);
    const snap = await client.reset();
    expect(snap.entries.some((e) => e.path === 'extra.js')).toBe(false);
    expect(snap.entries).toHaveLength(9);
  });

  it('handles requests one at a time, in order', async () => {
    const { client } = connect();
    const write = client.callTool('t_write', { path: 'a.txt', content: 'a' });
    const before = client.fileTree();
    const reset = client.reset();
    const after = client.fileTree();
    await write;
    expect((await before).entries.some((e) => e.path === 'a.txt')).toBe(true);
    await reset;
    expect((await after).entries.some((e) => e.path === 'a.txt')).toBe(false);
  });

  it("takes the sandbox frame's port at once, while a queued call waits (a replay's node waits for that port)", async () => {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    const hold = defineTool({
      name: 't_hold',
      summary: 'waits until released',
      writes: false,
      schema: z.object({}),
      run: async () => (await released, ok('released')),
    });
    const { client } = connect(async () => ({
      ...(await testSession()),
      engine: new Engine({ workspace: new MemoryWorkspace(), tools: [hold] }),
    }));
    const held = client.callTool('t_hold', {});
    const { port1 } = new MessageChannel();
    const order: string[] = [];
    const attached = client.attachSandbox(port1).then(() => order.push('attached'));
    const later = client.fileTree().then(() => order.push('later call'));
    await attached;
    expect(order).toEqual(['attached']);
    release();
    expect((await held).text).toBe('released');
    await later;
    expect(order).toEqual(['attached', 'later call']);
    port1.close();
  });

  it("takes the sandbox frame's port while the session is still being made", async () => {
    const { client } = connect(() => new Promise<EngineSession>(() => {}));
    const { port1 } = new MessageChannel();
    await expect(client.attachSandbox(port1)).resolves.toBeUndefined();
    port1.close();
  });
});

describe('a dead worker', () => {
  it('rejects pending and later calls with a clear error, and restart recovers', async () => {
    const { client, workers } = connect();
    await nextStatus(client, 'ready');
    const pending = client.callTool('t_echo', { message: 'x' });
    workers[0]!.crash('out of memory');
    await expect(pending).rejects.toThrow(EngineCrashedError);
    await expect(pending).rejects.toThrow(
      'The engine worker stopped: it threw an uncaught error (out of memory). Restart the engine to get a fresh workspace (files in the old one are lost).',
    );
    expect(client.status).toEqual({ state: 'crashed', reason: 'it threw an uncaught error (out of memory)' });
    expect(workers[0]!.terminated).toBe(true);
    await expect(client.listTools()).rejects.toThrow(EngineCrashedError);

    client.restart();
    expect(client.status.state).toBe('starting');
    await nextStatus(client, 'ready');
    expect((await client.callTool('t_echo', { message: 'back' })).text).toBe('back');
    expect(workers).toHaveLength(2);
  });

  it('a worker that cannot start reports why', async () => {
    const { client } = connect(() => Promise.reject(new Error('seed failed')));
    const s = await nextStatus(client, 'crashed');
    expect(s).toEqual({ state: 'crashed', reason: 'it could not start (Error: seed failed)' });
  });

  it('a script that fails to load (an error event without a message) is named as such', async () => {
    const { client, workers } = connect();
    workers[0]!.dispatchEvent(new Event('error'));
    expect(client.status).toEqual({ state: 'crashed', reason: 'its script failed to load or threw at start-up' });
  });

  it('ignores events from a worker that was replaced', async () => {
    const { client, workers } = connect();
    client.restart();
    workers[0]!.crash('late');
    expect(client.status.state).toBe('starting');
    await nextStatus(client, 'ready');
  });
});

describe('the starter session', () => {
  it('seeds a memory workspace with the starter', async () => {
    const s = await createTemplateSession();
    expect(s.info.workspaceKind).toBe('memory');
    // A bundled template starts as a git repository with the template committed.
    expect((await s.engine.workspace.readdir('')).map((e) => e.name)).toEqual([
      '.git',
      'README.md',
      'package.json',
      'src',
      'test',
    ]);
    expect((await s.engine.call('git_status', {})).text).toMatch(/clean/i);
  });

  it('every registered coding tool has a JSON schema the console can build a form from', async () => {
    const s = await createTemplateSession();
    const infos = [...s.engine.tools.values()].map(toolInfo);
    console.info(`registered coding tools: ${infos.map((t) => t.name).join(', ') || '(none yet)'}`);
    for (const t of infos) expect(t.inputSchema, t.name).toMatchObject({ type: 'object' });
  });
});
