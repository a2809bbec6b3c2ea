import { describe, expect, it } from 'vitest';
import { fileEngine, readText } from '../../tests/support/file-tools.ts';
import type { Engine } from './engine.ts';
import { contentTag } from './text.ts';
import { restoreCheckpoint } from './checkpoints.ts';

const ORIG = 'one\ntwo\n';

interface Row {
  name: string;
  /** Calls that create the checkpoint to restore (the last checkpoint is restored). */
  act: (e: Engine) => Promise<unknown>;
  path: string;
  /** The file's text just before the restore, and after it (null = absent). */
  current: string | null;
  restored: string | null;
  includes: string;
}

const rows: Row[] = [
  {
    name: 'an overwrite by ws_write',
    act: async (e) => {
      await e.call('ws_read', { path: 'a.txt' });
      await e.call('ws_write', { path: 'a.txt', content: 'new\n' });
    },
    path: 'a.txt',
    current: 'new\n',
    restored: ORIG,
    includes: 'restored a.txt to its text before ws_write (checkpoint #1).',
  },
  {
    name: 'a creation by ws_write (the file is removed)',
    act: (e) => e.call('ws_write', { path: 'b.txt', content: 'b\n' }),
    path: 'b.txt',
    current: 'b\n',
    restored: null,
    includes: 'removed b.txt, which did not exist before ws_write (checkpoint #1).',
  },
  {
    name: 'a deletion by ws_delete',
    act: (e) => e.call('ws_delete', { path: 'a.txt' }),
    path: 'a.txt',
    current: null,
    restored: ORIG,
    includes: 'restored a.txt to its text before ws_delete (checkpoint #1).',
  },
  {
    name: 'an edit by ws_replace_lines',
    act: (e) => e.call('ws_replace_lines', { path: 'a.txt', start: 1, end: 1, new: 'ONE', hash: contentTag(ORIG) }),
    path: 'a.txt',
    current: 'ONE\ntwo\n',
    restored: ORIG,
    includes: 'restored a.txt to its text before ws_replace_lines (checkpoint #1).',
  },
];

describe('restoreCheckpoint', () => {
  it.each(rows.map((r) => [r.name, r] as const))('undoes %s', async (_n, row) => {
    const { engine, ws } = await fileEngine({ 'a.txt': ORIG });
    await row.act(engine);
    const id = engine.state.checkpoints.at(-1)!.id;
    const r = await restoreCheckpoint(engine.ctx, id);
    expect(r.ok, r.text).toBe(true);
    expect(r.text).toContain(row.includes);
    expect(await readText(ws, row.path)).toBe(row.restored);
    expect(r.changes).toEqual([{ path: row.path, before: row.current, after: row.restored }]);
    // The model's last view no longer matches the disk: it must read again before overwriting.
    expect(engine.state.hasSeen(row.path)).toBe(false);
  });

  it('is itself undoable through the checkpoint it stores', async () => {
    const { engine, ws } = await fileEngine({ 'a.txt': ORIG });
    await engine.call('ws_read', { path: 'a.txt' });
    await engine.call('ws_write', { path: 'a.txt', content: 'new\n' });
    const r = await restoreCheckpoint(engine.ctx, 1);
    expect(r.text).toContain('The replaced state is kept in checkpoint #2.');
    expect(engine.state.checkpoints[1]).toEqual({ id: 2, tool: 'restore', path: 'a.txt', before: 'new\n' });
    await restoreCheckpoint(engine.ctx, 2);
    expect(await readText(ws, 'a.txt')).toBe('new\n');
  });

  it.each([
    [
      'an unknown id names the range',
      async (e: Engine) => void (await e.call('ws_delete', { path: 'a.txt' })),
      7,
      'No checkpoint #7 — this session has checkpoints #1–#1.',
    ],
    ['no checkpoints yet', async () => undefined, 1, 'No checkpoint #1 — this session has no checkpoints yet.'],
  ])('%s', async (_n, act, id, text) => {
    const { engine } = await fileEngine({ 'a.txt': ORIG });
    await act(engine);
    const r = await restoreCheckpoint(engine.ctx, id);
    expect(r).toMatchObject({ ok: false, text });
  });

  it('does nothing when the file already matches', async () => {
    const { engine } = await fileEngine({ 'a.txt': ORIG });
    await engine.call('ws_read', { path: 'a.txt' });
    await engine.call('ws_write', { path: 'a.txt', content: 'new\n' });
    await engine.call('ws_write', { path: 'a.txt', content: ORIG });
    const r = await restoreCheckpoint(engine.ctx, 1);
    expect(r).toMatchObject({ ok: true, changes: [] });
    expect(r.text).toContain('already matches checkpoint #1');
  });

  it('refuses to replace a directory now at the path', async () => {
    const { engine, ws } = await fileEngine({ 'a.txt': ORIG });
    await engine.call('ws_delete', { path: 'a.txt' });
    await ws.mkdir('a.txt');
    const r = await restoreCheckpoint(engine.ctx, 1);
    expect(r.ok).toBe(false);
    expect(r.text).toContain('a.txt is now a directory');
  });

  it("re-jails the path: a symlink put in the file's place is not written through", async () => {
    const { engine, ws } = await fileEngine({ 'a.txt': ORIG });
    await engine.call('ws_delete', { path: 'a.txt' });
    await ws.fs.mkdir('/outside', { recursive: true });
    await ws.symlink('/outside/x.txt', 'a.txt');
    const r = await restoreCheckpoint(engine.ctx, 1);
    expect(r.ok).toBe(false);
    expect(await ws.fs.exists('/outside/x.txt')).toBe(false);
  });

  it('stores no undo checkpoint when file checkpoints are off', async () => {
    const { engine } = await fileEngine({ 'a.txt': ORIG });
    engine.state.addCheckpoint('ws_write', 'a.txt', 'old\n');
    const off = { ...engine.ctx, settings: { ...engine.ctx.settings, file_checkpoints: false } };
    const r = await restoreCheckpoint(off, 1);
    expect(r.ok).toBe(true);
    expect(r.text).not.toContain('kept in checkpoint');
    expect(engine.state.checkpoints).toHaveLength(1);
  });
});
