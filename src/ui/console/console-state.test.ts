/**
 * The console's state against the real engine: ConsoleState drives an EngineClient joined to
 * the real worker host over a MessageChannel, with the starter session and the registered
 * coding tools, exactly as the page does minus the DOM.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import type { EngineClient } from '../../worker/client.ts';
import { ConsoleState } from './console-state.svelte.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

/** Polls `cond` until it holds; the engine answers asynchronously, and polling says what is awaited. */
async function until(what: string, cond: () => boolean, timeoutMs = 5000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function started(): Promise<{ con: ConsoleState; client: EngineClient; crash: () => void }> {
  const { client, workers } = connectInProcess(() => createTemplateSession());
  const con = new ConsoleState(client);
  const stop = con.start();
  cleanups.push(stop, () => client.dispose());
  await until('tools and files', () => con.snapshot !== null && con.selected !== null && !con.busy);
  return { con, client, crash: () => workers[workers.length - 1]!.crash('boom') };
}

function fill(con: ConsoleState, tool: string, values: Record<string, string | boolean>): void {
  con.select(tool);
  for (const [k, v] of Object.entries(values)) con.setValue(k, v);
}

describe('ConsoleState', () => {
  it('loads the tools, selects the first and lists the starter files', async () => {
    const { con } = await started();
    expect(con.tools.map((t) => t.name)).toContain('ws_read');
    expect(con.selectedName).toBe(con.tools[0]!.name);
    expect(con.snapshot!.entries.map((e) => e.path)).toContain('src/strings.js');
    expect(con.status.state).toBe('ready');
  });

  it('calls a tool with the form arguments and records the exact result', async () => {
    const { con } = await started();
    fill(con, 'ws_read', { path: 'src/strings.js' });
    expect(con.pending).toEqual({ ok: true, args: { path: 'src/strings.js' } });
    await con.call();
    expect(con.last).toMatchObject({ seq: 1, tool: 'ws_read', args: { path: 'src/strings.js' }, result: { ok: true } });
    expect(con.last!.result.text).toMatch(/^\[src\/strings\.js#[0-9a-f]{4}: lines 1-32 of 32\]\n {5}1\|\/\*\*\n/);
  });

  it('keeps each tool’s values while switching, and Call does nothing while a field is invalid', async () => {
    const { con } = await started();
    fill(con, 'ws_read', { path: 'a.js', offset: 'ten' });
    fill(con, 'ws_write', { path: 'b.js' });
    con.select('ws_read');
    expect(con.formValues).toMatchObject({ path: 'a.js', offset: 'ten' });
    expect(con.pending).toMatchObject({ ok: false, fieldErrors: { offset: '"ten" is not a number' } });
    await con.call();
    expect(con.last).toBeNull();
  });

  it('carries the form into raw JSON, and sends raw JSON as typed (aliases included)', async () => {
    const { con } = await started();
    fill(con, 'ws_read', { path: 'src/strings.js' });
    con.setMode('json');
    expect(JSON.parse(con.rawArgs)).toEqual({ path: 'src/strings.js' });
    con.rawArgs = '{"file_path": "README.md"}';
    await con.call();
    expect(con.last!.result.text).toContain('# tiny-utils');
    expect(con.last!.result.notes.map((n) => n.kind)).toContain('alias');
    con.rawArgs = '{"path": ';
    expect(con.pending).toMatchObject({ ok: false, error: expect.stringMatching(/^The arguments are not valid JSON/) });
  });

  it('refreshes the tree and the open file after a call, and says when the file is gone', async () => {
    const { con } = await started();
    await con.openFile('README.md');
    expect(con.viewer).toMatchObject({ path: 'README.md', error: null });
    fill(con, 'ws_delete', { path: 'README.md' });
    await con.call();
    expect(con.last!.result.ok).toBe(true);
    expect(con.snapshot!.entries.some((e) => e.path === 'README.md')).toBe(false);
    expect(con.viewer).toMatchObject({ path: 'README.md', view: null, error: expect.any(String) });
    expect(con.error).toBeNull();
  });

  it('usePath fills the path field of the selected tool', async () => {
    const { con } = await started();
    con.select('ws_read');
    con.usePath('test/numbers.test.js');
    expect(con.formValues.path).toBe('test/numbers.test.js');
  });

  it('reset brings the starter back and clears the last result and viewer', async () => {
    const { con } = await started();
    fill(con, 'ws_write', { path: 'new.txt', content: 'x\n' });
    await con.call();
    await con.openFile('new.txt');
    await con.reset();
    expect(con.snapshot!.entries.some((e) => e.path === 'new.txt')).toBe(false);
    expect(con.last).toBeNull();
    expect(con.viewer).toBeNull();
    expect(con.notice).toMatch(/^Workspace reset/);
  });

  it('a crashed engine is reported, and restart brings a fresh one', async () => {
    const { con, crash } = await started();
    crash();
    expect(con.status).toEqual({ state: 'crashed', reason: 'it threw an uncaught error (boom)' });
    fill(con, 'ws_read', { path: 'README.md' });
    con.restart();
    await until('a fresh engine', () => con.status.state === 'ready' && con.snapshot !== null && !con.busy);
    await con.call();
    expect(con.last!.result.ok).toBe(true);
  });
});
