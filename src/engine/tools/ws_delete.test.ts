import { describe, expect, it } from 'vitest';
import { fileEngine, snapshotFs, type Seed } from '../../../tests/support/file-tools.ts';
import type { EngineSettings } from '../settings.ts';

const SEED: Seed = {
  'a.txt': 'one\ntwo\n',
  'src/util.ts': 'x\n',
  'img.png': new Uint8Array([0x89, 0, 1, 2]),
  'docs/': '',
  lnk: { link: 'a.txt' },
};

interface Row {
  name: string;
  args: Record<string, unknown>;
  settings?: Partial<EngineSettings>;
  ok: boolean;
  includes: string[];
  /** True when the call must remove `args.path`; otherwise the whole fs is unchanged. */
  deletes?: string;
}

const rows: Row[] = [
  {
    name: 'deletes a file and says it can be restored',
    args: { path: 'a.txt' },
    ok: true,
    includes: ['deleted a.txt (2 lines). Its text is kept in checkpoint #1, so it can be restored.'],
    deletes: 'a.txt',
  },
  {
    name: 'accepts file_path as path',
    args: { file_path: 'src/util.ts' },
    ok: true,
    includes: ['deleted src/util.ts (1 line).'],
    deletes: 'src/util.ts',
  },
  {
    name: 'says plainly when checkpoints are off',
    args: { path: 'a.txt' },
    settings: { file_checkpoints: false },
    ok: true,
    includes: ['deleted a.txt (2 lines). File checkpoints are off, so this cannot be undone.'],
    deletes: 'a.txt',
  },
  {
    name: 'refuses a directory',
    args: { path: 'docs' },
    ok: false,
    includes: ['Delete refused — docs is a directory; ws_delete deletes files only.', 'ws_list {"path":"docs"}'],
  },
  {
    name: 'refuses a binary file, which a checkpoint cannot keep',
    args: { path: 'img.png' },
    ok: false,
    includes: ['img.png is a binary file (4 bytes)', 'could not be undone'],
  },
  {
    name: 'a missing file points at ws_glob and ws_list',
    args: { path: 'src/utils.ts' },
    ok: false,
    includes: ['src/utils.ts does not exist.', 'Similarly named: src/util.ts.'],
  },
  {
    name: 'the jail refuses the harness directory',
    args: { path: '.slmcode/config.yaml' },
    ok: false,
    includes: ['harness control state'],
  },
  { name: 'the jail refuses the root', args: { path: '.' }, ok: false, includes: ['project root itself'] },
  {
    name: 'a symlink is refused by name, its target is kept',
    args: { path: 'lnk' },
    ok: false,
    includes: ['is a symlink'],
  },
];

describe('ws_delete', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { engine, ws } = await fileEngine(SEED, row.settings);
    const before = await snapshotFs(ws);
    const r = await engine.call('ws_delete', row.args);
    expect(r.ok, r.text).toBe(row.ok);
    for (const s of row.includes) expect(r.text).toContain(s);
    if (row.deletes) {
      expect(await ws.lstat(row.deletes)).toBeNull();
      const rest = await snapshotFs(ws);
      before.delete(`/ws/${row.deletes}`);
      expect(rest).toEqual(before);
    } else expect(await snapshotFs(ws)).toEqual(before);
  });

  it('keeps the text in a checkpoint, records the change and forgets the file', async () => {
    const { engine } = await fileEngine(SEED);
    await engine.call('ws_read', { path: 'a.txt' });
    const r = await engine.call('ws_delete', { path: 'a.txt' });
    expect(engine.state.checkpoints).toEqual([{ id: 1, tool: 'ws_delete', path: 'a.txt', before: 'one\ntwo\n' }]);
    expect(r.changes).toEqual([{ path: 'a.txt', before: 'one\ntwo\n', after: null }]);
    expect(r.notes.map((n) => n.kind)).toEqual(['checkpoint']);
    expect(engine.state.hasSeen('a.txt')).toBe(false);
  });
});
