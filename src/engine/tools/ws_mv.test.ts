import { describe, expect, it } from 'vitest';
import { fileEngine, readText, snapshotFs, type Seed } from '../../../tests/support/file-tools.ts';

const SEED: Seed = {
  'a.txt': 'alpha\n',
  'src/util.ts': 'export {};\n',
  'src/deep/x.ts': 'x\n',
  'lib/': '',
  lnk: { link: 'a.txt' },
};

interface Row {
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
  includes: string[];
  /** path → text afterwards (null = absent); omitted = the whole fs is unchanged. */
  after?: Record<string, string | null>;
}

const rows: Row[] = [
  {
    name: 'moves a file, creating the target folder',
    args: { from: 'a.txt', to: 'docs/notes/a.txt' },
    ok: true,
    includes: ['moved file a.txt to docs/notes/a.txt'],
    after: { 'a.txt': null, 'docs/notes/a.txt': 'alpha\n' },
  },
  ...(
    [
      ['source', 'dest'],
      ['src', 'destination'],
      ['old_path', 'new_path'],
    ] as const
  ).map(([f, t]): Row => ({
    name: `accepts ${f}/${t} as from/to`,
    args: { [f]: 'a.txt', [t]: 'b.txt' },
    ok: true,
    includes: ['moved file a.txt to b.txt'],
    after: { 'a.txt': null, 'b.txt': 'alpha\n' },
  })),
  {
    name: 'moves a directory with its files',
    args: { from: 'src', to: 'lib/src' },
    ok: true,
    includes: ['moved directory src to lib/src'],
    after: { 'src/util.ts': null, 'lib/src/util.ts': 'export {};\n', 'lib/src/deep/x.ts': 'x\n' },
  },
  {
    name: 'never overwrites an existing file',
    args: { from: 'a.txt', to: 'src/util.ts' },
    ok: false,
    includes: [
      'Move refused — src/util.ts already exists and ws_mv never overwrites.',
      'ws_delete {"path":"src/util.ts"}',
    ],
  },
  {
    name: 'an existing directory as target asks for the full path',
    args: { from: 'a.txt', to: 'lib' },
    ok: false,
    includes: ['lib already exists', 'give the full new path, e.g. {"from":"a.txt","to":"lib/a.txt"}'],
  },
  {
    name: 'a missing source points at ws_glob/ws_list and names similar files',
    args: { from: 'src/utils.ts', to: 'lib/u.ts' },
    ok: false,
    includes: ['src/utils.ts does not exist.', 'Similarly named: src/util.ts.', 'ws_glob'],
  },
  {
    name: 'the same path on both sides is nothing to move',
    args: { from: 'a.txt', to: './a.txt' },
    ok: false,
    includes: ['Nothing to move'],
  },
  {
    name: 'a directory cannot move into itself',
    args: { from: 'src', to: 'src/deep/src' },
    ok: false,
    includes: ['a directory cannot be moved into itself'],
  },
  {
    name: 'the target is jailed (harness directory)',
    args: { from: 'a.txt', to: '.slmcode/hooks.json' },
    ok: false,
    includes: ['write refused — .slmcode/hooks.json is harness control state'],
  },
  {
    name: 'the target is jailed (escape)',
    args: { from: 'a.txt', to: '../a.txt' },
    ok: false,
    includes: ['outside the project root'],
  },
  {
    name: 'the source is jailed (absolute)',
    args: { from: '/etc/passwd', to: 'p.txt' },
    ok: false,
    includes: ['is an absolute path'],
  },
  { name: 'a symlink is not moved through', args: { from: 'lnk', to: 'lnk2' }, ok: false, includes: ['is a symlink'] },
];

describe('ws_mv', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { engine, ws } = await fileEngine(SEED);
    const before = await snapshotFs(ws);
    const r = await engine.call('ws_mv', row.args);
    expect(r.ok, r.text).toBe(row.ok);
    for (const s of row.includes) expect(r.text).toContain(s);
    if (row.after) for (const [p, text] of Object.entries(row.after)) expect(await readText(ws, p), p).toBe(text);
    else expect(await snapshotFs(ws)).toEqual(before);
  });

  it('moves what the session has seen, so the file can be rewritten at its new path', async () => {
    const { engine, ws } = await fileEngine(SEED);
    await engine.call('ws_read', { path: 'src/deep/x.ts' });
    await engine.call('ws_mv', { from: 'src', to: 'pkg' });
    expect([...engine.state.seen.keys()]).toEqual(['pkg/deep/x.ts']);
    const w = await engine.call('ws_write', { path: 'pkg/deep/x.ts', content: 'y\n' });
    expect(w.ok, w.text).toBe(true);
    expect(await readText(ws, 'pkg/deep/x.ts')).toBe('y\n');
  });

  it('records the move as a removal and a creation', async () => {
    const { engine } = await fileEngine(SEED);
    const r = await engine.call('ws_mv', { from: 'a.txt', to: 'b.txt' });
    expect(r.changes).toEqual([
      { path: 'a.txt', before: 'alpha\n', after: null },
      { path: 'b.txt', before: null, after: 'alpha\n' },
    ]);
  });
});
