import { describe, expect, it } from 'vitest';
import { fileEngine, readText, snapshotFs, type Seed } from '../../../tests/support/file-tools.ts';
import type { Engine } from '../engine.ts';
import type { EngineSettings } from '../settings.ts';

const lines = (n: number) =>
  Array.from({ length: n }, (_, i) => `line number ${i + 1} of the original`).join('\n') + '\n';
const BIG = lines(30); // 30 lines, ~1 KB: protected by the truncation guard
const WIDE = `${'x'.repeat(1500)}\n`; // 1 line but 1.5 KB: protected too
const SMALL = 'a\nb\nc\n';

interface Row {
  name: string;
  seed?: Seed;
  /** Calls made first, e.g. a ws_read that makes an overwrite legal. */
  prepare?: (e: Engine) => Promise<unknown>;
  args: Record<string, unknown>;
  settings?: Partial<EngineSettings>;
  ok: boolean;
  equals?: string;
  includes?: string[];
  /** The file the call targets and its text afterwards (null = absent); omitted = the whole fs is unchanged. */
  file?: [string, string | null];
  noteKinds?: string[];
}

const readFirst = (path: string) => (e: Engine) => e.call('ws_read', { path });

const rows: Row[] = [
  {
    name: 'creates a new file',
    args: { path: 'src/new.ts', content: 'a\nb\n' },
    ok: true,
    equals: 'created src/new.ts (2 lines)',
    file: ['src/new.ts', 'a\nb\n'],
    noteKinds: ['checkpoint'],
  },
  ...(['contents', 'text', 'body'] as const).map((key): Row => ({
    name: `accepts ${key} as content`,
    args: { path: 'n.txt', [key]: 'hi' },
    ok: true,
    equals: 'created n.txt (1 line)',
    file: ['n.txt', 'hi'],
    noteKinds: ['alias', 'checkpoint'],
  })),
  {
    name: 'the canonical content wins over an alias',
    args: { path: 'n.txt', content: 'canon', text: 'alias' },
    ok: true,
    file: ['n.txt', 'canon'],
  },
  {
    name: 'refuses to overwrite a file not read in this session, spelling out the ws_edit recipe',
    seed: { 'a.ts': SMALL },
    args: { path: 'a.ts', content: 'x\n' },
    ok: false,
    includes: [
      'Write refused — a.ts already exists (3 lines) and has not been read in this session',
      'ws_read {"path":"a.ts"}',
      'ws_edit {"path":"a.ts","old_str":"<2-3 exact lines from the file>","new_str":"<those lines changed>"}',
    ],
  },
  {
    name: 'overwrites a file read in this session',
    seed: { 'a.ts': SMALL },
    prepare: readFirst('a.ts'),
    args: { path: 'a.ts', content: 'x\n' },
    ok: true,
    equals: 'wrote a.ts (1 line)',
    file: ['a.ts', 'x\n'],
  },
  {
    name: 'overwrites a file written in this session',
    prepare: (e) => e.call('ws_write', { path: 'a.ts', content: 'first\n' }),
    args: { path: 'a.ts', content: 'second\n' },
    ok: true,
    equals: 'wrote a.ts (1 line)',
    file: ['a.ts', 'second\n'],
  },
  {
    name: 'read_before_edit: false allows a blind overwrite',
    seed: { 'a.ts': SMALL },
    settings: { read_before_edit: false },
    args: { path: 'a.ts', content: 'x\n' },
    ok: true,
    file: ['a.ts', 'x\n'],
  },
  {
    name: 'the truncation guard refuses rewriting a 30-line file as one line',
    seed: { 'big.ts': BIG },
    prepare: readFirst('big.ts'),
    args: { path: 'big.ts', content: '// rest unchanged\n' },
    ok: false,
    includes: [
      'Write refused — this would shrink big.ts from 30 lines',
      'to 1 line (18 bytes)',
      'ws_edit {"path":"big.ts"',
      'repeat the call with "allow_shrink": true',
    ],
  },
  {
    name: 'the truncation guard protects a 1.5 KB one-line file too',
    seed: { 'w.txt': WIDE },
    prepare: readFirst('w.txt'),
    args: { path: 'w.txt', content: 'tiny\n' },
    ok: false,
    includes: ['from 1 line (1.5 KB) to 1 line (5 bytes)'],
  },
  {
    name: 'allow_shrink: true lets the shrink through',
    seed: { 'big.ts': BIG },
    prepare: readFirst('big.ts'),
    args: { path: 'big.ts', content: 'short\n', allow_shrink: true },
    ok: true,
    file: ['big.ts', 'short\n'],
  },
  {
    name: 'a rewrite keeping 25% of a large file is not a truncation',
    seed: { 'big.ts': BIG },
    prepare: readFirst('big.ts'),
    args: { path: 'big.ts', content: lines(8) },
    ok: true,
    file: ['big.ts', lines(8)],
  },
  {
    name: 'a small file may shrink freely',
    seed: { 's.txt': SMALL },
    prepare: readFirst('s.txt'),
    args: { path: 's.txt', content: 'a\n' },
    ok: true,
    file: ['s.txt', 'a\n'],
  },
  {
    name: 'empty content on a new file is refused with the spec text and the body keys',
    args: { path: 'new.ts', content: '' },
    ok: false,
    equals:
      'Write refused — content is empty, so this would create new.ts as a 0-byte file.\n' +
      'Put the file\'s complete text in "content" (also accepted: contents, text, body).\n' +
      'If an empty file really is the intent, repeat the call with "allow_shrink": true.',
  },
  {
    name: 'a body under an unknown key is named in the refusal',
    args: { path: 'new.ts', code: 'print(1)' },
    ok: false,
    includes: [
      'Write refused — content is empty, so this would create new.ts as a 0-byte file.',
      'unrecognized key "code"',
      'Send it as "content"',
    ],
  },
  {
    name: 'allow_shrink: true creates an intentionally empty file',
    args: { path: 'pkg/__init__.py', content: '', allow_shrink: true },
    ok: true,
    equals: 'created pkg/__init__.py (0 lines)',
    file: ['pkg/__init__.py', ''],
  },
  {
    name: 'emptying an existing file needs allow_shrink',
    seed: { 's.txt': SMALL },
    prepare: readFirst('s.txt'),
    args: { path: 's.txt', content: '' },
    ok: false,
    includes: ['Write refused — content is empty, so this would empty s.txt (now 3 lines).', 'allow_shrink'],
  },
  {
    name: 'emptying with allow_shrink works',
    seed: { 's.txt': SMALL },
    prepare: readFirst('s.txt'),
    args: { path: 's.txt', content: '', allow_shrink: true },
    ok: true,
    equals: 'wrote s.txt (0 lines)',
    file: ['s.txt', ''],
  },
  {
    name: 'a directory is refused with the ws_list pointer',
    seed: { 'src/a.ts': 'x' },
    args: { path: 'src', content: 'x' },
    ok: false,
    includes: ['Write refused — src is a directory, not a file.', 'ws_list'],
  },
  {
    name: 'a binary file is not overwritten with text',
    seed: { 'img.bin': new Uint8Array([0, 1, 2, 3]) },
    args: { path: 'img.bin', content: 'x' },
    ok: false,
    includes: ['Write refused — img.bin is a binary file (4 bytes)', 'would destroy it'],
  },
  {
    name: 'Windows device names are refused by the jail',
    args: { path: 'src/nul.txt', content: 'x' },
    ok: false,
    includes: ['reserved device name on Windows (NUL)'],
  },
  {
    name: 'the harness directory is refused with the spec text',
    args: { path: '.slmcode/hooks.json', content: '{}' },
    ok: false,
    includes: ['write refused — .slmcode/hooks.json is harness control state, not project source.'],
  },
  {
    name: 'identical content is a no-op without a change record',
    seed: { 's.txt': SMALL },
    prepare: readFirst('s.txt'),
    args: { path: 's.txt', content: SMALL },
    ok: true,
    equals: 'no change — s.txt already has exactly this content (3 lines).',
  },
  {
    name: 'a path through a file fails with the cause',
    seed: { 'a.txt': 'x' },
    args: { path: 'a.txt/b.txt', content: 'y' },
    ok: false,
    includes: ['a folder on its path is a file', 'ws_list'],
  },
  {
    name: 'no checkpoint note when file_checkpoints is off',
    settings: { file_checkpoints: false },
    args: { path: 'n.txt', content: 'x' },
    ok: true,
    file: ['n.txt', 'x'],
    noteKinds: [],
  },
];

describe('ws_write', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { engine, ws } = await fileEngine(row.seed ?? {}, row.settings);
    if (row.prepare) await row.prepare(engine);
    const before = await snapshotFs(ws);
    const r = await engine.call('ws_write', row.args);
    expect(r.ok, r.text).toBe(row.ok);
    if (row.equals !== undefined) expect(r.text).toBe(row.equals);
    for (const s of row.includes ?? []) expect(r.text).toContain(s);
    if (row.file) expect(await readText(ws, row.file[0])).toBe(row.file[1]);
    else expect(await snapshotFs(ws)).toEqual(before);
    if (row.noteKinds) expect(r.notes.map((n) => n.kind)).toEqual(row.noteKinds);
  });

  it('records the change and a checkpoint of what it replaced, and marks the new text seen', async () => {
    const { engine } = await fileEngine({ 'a.ts': SMALL });
    await engine.call('ws_read', { path: 'a.ts' });
    const r = await engine.call('ws_write', { path: 'a.ts', content: 'new\n' });
    expect(r.changes).toEqual([{ path: 'a.ts', before: SMALL, after: 'new\n' }]);
    expect(engine.state.checkpoints.at(-1)).toMatchObject({ tool: 'ws_write', path: 'a.ts', before: SMALL });
    expect(engine.state.seen.get('a.ts')).toBe('new\n');
  });

  it('records a creation with before: null', async () => {
    const { engine } = await fileEngine();
    const r = await engine.call('ws_write', { path: 'n.ts', content: 'x' });
    expect(r.changes).toEqual([{ path: 'n.ts', before: null, after: 'x' }]);
    expect(engine.state.checkpoints).toEqual([{ id: 1, tool: 'ws_write', path: 'n.ts', before: null }]);
  });
});
