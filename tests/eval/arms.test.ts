/**
 * The arms: each is existing engine settings (valid wherever settings are checked), and the
 * `off` arm's engine answers file tools as the naive ACI-off harness does while writing what it
 * writes to the workspace — where the `on` arm's engine steers.
 */
import { describe, expect, it } from 'vitest';
import { checkSettings } from '../../src/cli/settings-arg.ts';
import { ARMS, chooseArms, OFF_SETTINGS } from '../../src/eval/arms.ts';
import { armEngine } from '../../src/eval/arm-engine.ts';
import { NaiveEngine } from '../../src/session/naive-engine.ts';
import { decodeText, encodeText } from '../../src/engine/text.ts';
import { sessionSchema } from '../../src/session/record.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

useNodeWasm();
const base = { context_window_tokens: 4096 };
const arm = (id: string) => ARMS.find((a) => a.id === id)!;

async function workspace(files: Record<string, string>): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, encodeText(t));
  return ws;
}
const read = async (ws: MemoryWorkspace, p: string) => decodeText(await ws.readFile(p));

describe('the arms', () => {
  it.each(ARMS.map((a) => [a.id, a] as const))(
    '%s is engine settings that --settings and the session record accept',
    async (_id, a) => {
      expect(checkSettings(a.settings)).toMatchObject({ ok: true });
      const engine = armEngine(new MemoryWorkspace(), a, base);
      const header = {
        v: 1,
        engineVersion: 'x',
        createdAt: 'now',
        model: { id: 'm', kind: 'scripted', params: {}, seed: 0, temperature: 0 },
        task: 't',
        workspace: { files: {} },
        steps: [],
      };
      const settings = {
        engine: { ...engine.settings, disabled_rungs: [...engine.settings.disabled_rungs] },
        agent: {
          maxSteps: 1,
          contextTokens: 4096,
          outputTokens: 1,
          jsonMode: true,
          stallSteps: 1,
          maxParseFailures: 1,
        },
      };
      expect(sessionSchema.safeParse({ ...header, settings }).success).toBe(true);
    },
  );

  it('are chosen by a comma-separated list, in its order', () => {
    expect(chooseArms('off, on,loop-guard-off')).toMatchObject({
      ok: true,
      arms: [arm('off'), arm('on'), arm('loop-guard-off')],
    });
  });

  it.each([
    ['on,of', /unknown arm "of"; the arms are on, off, /],
    ['on,on', /arm "on" is named twice/],
    [' , ', /name at least one arm/],
  ])('refuses %j', (list, message) => {
    const chosen = chooseArms(list);
    expect(chosen.ok).toBe(false);
    if (!chosen.ok) expect(chosen.text).toMatch(message);
  });

  it('off runs the naive harness with every guard off; the others run the engine itself', () => {
    const ws = new MemoryWorkspace();
    const off = armEngine(ws, arm('off'), base);
    expect(off).toBeInstanceOf(NaiveEngine);
    expect(off.settings).toMatchObject({ ...OFF_SETTINGS, context_window_tokens: 4096 });
    expect(armEngine(ws, arm('ladder-off'), base)).not.toBeInstanceOf(NaiveEngine);
    expect(armEngine(ws, arm('ladder-off'), base).settings.disabled_rungs).toEqual([
      'trailing-ws',
      'indent',
      'blank-lines',
      'quotes-dashes',
      'anchors',
    ]);
  });
});

describe('the off arm against the on arm, on the same calls', () => {
  const drifted = { 'src/a.js': 'export function f() {  \n  return 1;  \n}\n' };
  const edit = {
    path: 'src/a.js',
    old_str: 'export function f() {\n  return 1;',
    new_str: 'export function f() {\n  return 2;',
  };

  it('a recalled old_str without its trailing spaces: the ladder places it, the naive exact match does not', async () => {
    const onWs = await workspace(drifted);
    const on = armEngine(onWs, arm('on'), base);
    await on.call('ws_read', { path: 'src/a.js' });
    expect((await on.call('ws_edit', edit)).ok).toBe(true);
    expect(await read(onWs, 'src/a.js')).toContain('return 2;');

    const offWs = await workspace(drifted);
    const off = armEngine(offWs, arm('off'), base);
    const r = await off.call('ws_edit', edit);
    expect(r).toMatchObject({ ok: false, text: 'Error: old_str not found in src/a.js.' });
    expect(await read(offWs, 'src/a.js')).toBe(drifted['src/a.js']);
  });

  it('a write over a file never read: refused on, written off', async () => {
    const onWs = await workspace(drifted);
    expect((await armEngine(onWs, arm('on'), base).call('ws_write', { path: 'src/a.js', content: 'x\n' })).ok).toBe(
      false,
    );
    const offWs = await workspace(drifted);
    const r = await armEngine(offWs, arm('off'), base).call('ws_write', { path: 'src/a.js', content: 'x\n' });
    expect(r).toMatchObject({
      ok: true,
      text: 'wrote src/a.js',
      changes: [{ path: 'src/a.js', before: drifted['src/a.js'], after: 'x\n' }],
    });
    expect(await read(offWs, 'src/a.js')).toBe('x\n');
  });

  it('a long file: a window on, the whole file off', async () => {
    const long = { 'big.txt': Array.from({ length: 400 }, (_, i) => `line ${i + 1}`).join('\n') + '\n' };
    const on = await armEngine(await workspace(long), arm('on'), base).call('ws_read', { path: 'big.txt' });
    expect(on.text).not.toContain('line 400');
    const off = await armEngine(await workspace(long), arm('off'), base).call('ws_read', { path: 'big.txt' });
    expect(off.text.split('\n')).toHaveLength(400);
    expect(off.text).toContain('line 400');
  });

  it('a delete and a move reach the workspace', async () => {
    const ws = await workspace({ 'a.js': '1\n', 'b.js': '2\n' });
    const off = armEngine(ws, arm('off'), base);
    expect((await off.call('ws_delete', { path: 'a.js' })).ok).toBe(true);
    expect((await off.call('ws_mv', { from: 'b.js', to: 'lib/c.js' })).ok).toBe(true);
    expect(await ws.lstat('a.js')).toBeNull();
    expect(await ws.lstat('b.js')).toBeNull();
    expect(await read(ws, 'lib/c.js')).toBe('2\n');
  });

  it('a path outside the project is only reported, never written', async () => {
    const ws = await workspace({ 'a.js': '1\n' });
    const r = await armEngine(ws, arm('off'), base).call('ws_write', { path: '../escape.js', content: 'x' });
    expect(r.changes).toEqual([]);
    expect(await ws.fs.exists('/escape.js')).toBe(false);
  });
});
