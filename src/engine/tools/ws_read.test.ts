import { describe, expect, it } from 'vitest';
import { fileEngine, type Seed } from '../../../tests/support/file-tools.ts';
import type { EngineSettings } from '../settings.ts';
import { contentTag } from '../text.ts';

const numbered = (n: number, prefix = 'line') =>
  Array.from({ length: n }, (_, i) => `${prefix} ${i + 1}`).join('\n') + '\n';
const BAR = numbered(480);

interface Row {
  name: string;
  seed: Seed;
  args: Record<string, unknown>;
  settings?: Partial<EngineSettings>;
  ok: boolean;
  equals?: string;
  endsWith?: string;
  includes?: string[];
  excludes?: string[];
  /** The result must fit this many characters (and so never meet the engine's head/tail cut). */
  maxChars?: number;
}

const rows: Row[] = [
  {
    name: 'numbers lines as %6d| under a header with the content tag',
    seed: { 'a.js': 'const a = 1;\n  return a;\n' },
    args: { path: 'a.js' },
    ok: true,
    equals: `[a.js#${contentTag('const a = 1;\n  return a;\n')}: lines 1-2 of 2]\n     1|const a = 1;\n     2|  return a;`,
  },
  {
    name: 'a window of 120 lines ends with the spec footer',
    seed: { 'pkg/foo/bar.go': BAR },
    args: { path: 'pkg/foo/bar.go' },
    ok: true,
    includes: [`[pkg/foo/bar.go#${contentTag(BAR)}: lines 1-120 of 480]`, '   120|line 120'],
    excludes: ['line 121\n'],
    endsWith:
      '[showing lines 1–120 of 480 in pkg/foo/bar.go; use offset= to see more]\n' +
      'Next page: ws_read {"path":"pkg/foo/bar.go","offset":121,"limit":120}. To jump straight to a symbol use ws_grep first.',
  },
  {
    name: 'offset and limit pick the window and carry into the next-page call',
    seed: { 'b.txt': BAR },
    args: { path: 'b.txt', offset: 121, limit: 10 },
    ok: true,
    includes: [
      ': lines 121-130 of 480]',
      '   121|line 121',
      '   130|line 130',
      '[showing lines 121–130 of 480 in b.txt; use offset= to see more]',
    ],
    endsWith:
      'Next page: ws_read {"path":"b.txt","offset":131,"limit":10}. To jump straight to a symbol use ws_grep first.',
  },
  {
    name: 'the last window says it reaches the end instead of offering a next page',
    seed: { 'b.txt': BAR },
    args: { path: 'b.txt', offset: 400 },
    ok: true,
    includes: [': lines 400-480 of 480]', '[showing lines 400–480 of 480 in b.txt; use offset= to see more]'],
    endsWith: 'This window ends at the last line of the file.',
    excludes: ['Next page'],
  },
  {
    name: 'offset 0 reads from the top',
    seed: { 'c.txt': 'x\ny\n' },
    args: { path: 'c.txt', offset: 0 },
    ok: true,
    includes: [': lines 1-2 of 2]', '     1|x'],
  },
  {
    name: 'read_window_lines sets the default window',
    seed: { 'b.txt': BAR },
    args: { path: 'b.txt' },
    settings: { read_window_lines: 5 },
    ok: true,
    includes: [': lines 1-5 of 480]'],
    endsWith:
      'Next page: ws_read {"path":"b.txt","offset":6,"limit":5}. To jump straight to a symbol use ws_grep first.',
  },
  {
    name: 'the read ceiling (~15% of the context window) shrinks the window and says so',
    seed: { 'w.txt': numbered(200, 'a fairly long line of text so the ceiling bites early,') },
    args: { path: 'w.txt' },
    settings: { context_window_tokens: 4000 },
    ok: true,
    includes: ['of the 120 asked for: one read shows at most 2400 characters (~15% of the context window)]'],
    excludes: ['output truncated'],
    maxChars: 2400,
  },
  {
    name: 'the window never exceeds max_tool_chars, so the engine never cuts a read in the middle',
    seed: { 'w.txt': numbered(200, 'a fairly long line of text so the cap bites early,') },
    args: { path: 'w.txt' },
    settings: { max_tool_chars: 3000 },
    ok: true,
    includes: [
      'one read shows at most 3000 characters (max_tool_chars)]',
      'Next page: ws_read {"path":"w.txt","offset":',
    ],
    excludes: ['output truncated'],
    maxChars: 3000,
  },
  {
    name: 'a single line longer than the ceiling is cut and named',
    seed: { 'min.js': `${'x'.repeat(20000)}\nsecond\n` },
    args: { path: 'min.js' },
    ok: true,
    includes: [
      ': lines 1-1 of 2]',
      'line 1 is 20000 characters long and was cut',
      'ws_grep',
      'Next page: ws_read {"path":"min.js","offset":2,"limit":120}',
    ],
    excludes: ['output truncated'],
  },
  {
    name: 'CRLF files are shown without the carriage returns',
    seed: { 'crlf.txt': 'one\r\ntwo\r\n' },
    args: { path: 'crlf.txt' },
    ok: true,
    includes: ['     1|one\n     2|two'],
    excludes: ['\r'],
  },
  {
    name: 'an empty file gets an explicit message and its tag',
    seed: { 'empty.txt': '' },
    args: { path: 'empty.txt' },
    ok: true,
    equals: `[empty.txt#${contentTag('')}: empty file, 0 lines]\nempty.txt exists but is empty (0 bytes). Give it content with ws_write {"path":"empty.txt","content":"…"}.`,
  },
  {
    name: 'a missing path points at ws_glob and ws_list and names similar files',
    seed: { 'src/util.ts': 'x\n', 'lib/utils.js': 'y\n' },
    args: { path: 'src/utils.ts' },
    ok: false,
    includes: [
      'src/utils.ts does not exist.',
      'Similarly named: ',
      'src/util.ts',
      'lib/utils.js',
      'ws_glob {"pattern":"**/utils.ts"}',
      'ws_list {"path":"src"}',
    ],
  },
  {
    name: 'a missing path with nothing similar names no candidates and lists the nearest existing folder',
    seed: { 'src/app.ts': 'x\n' },
    args: { path: 'src/deep/zzzzqqq.py' },
    ok: false,
    includes: ['src/deep/zzzzqqq.py does not exist.', 'ws_list {"path":"src"}'],
    excludes: ['Similarly named'],
  },
  {
    name: 'a directory points at ws_list',
    seed: { 'src/a.ts': 'x\n' },
    args: { path: 'src' },
    ok: false,
    includes: ['src is a directory, not a file.', 'ws_list {"path":"src"}'],
  },
  {
    name: 'an offset past the end gives the valid range',
    seed: { 'b.txt': BAR },
    args: { path: 'b.txt', offset: 481 },
    ok: false,
    equals:
      'offset 481 is past the end of b.txt, which has 480 lines. Use an offset from 1 to 480, e.g. ws_read {"path":"b.txt","offset":361,"limit":120}.',
  },
  {
    name: 'a binary file is named as binary',
    seed: { 'logo.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 1, 2]) },
    args: { path: 'logo.png' },
    ok: false,
    includes: ['logo.png is a binary file (8 bytes); ws_read works on text files only.'],
  },
  {
    name: 'a jail refusal becomes the result',
    seed: {},
    args: { path: '../etc/passwd' },
    ok: false,
    includes: ['path refused', 'outside the project root'],
  },
  {
    name: 'file_path is accepted as path',
    seed: { 'a.txt': 'hello\n' },
    args: { file_path: 'a.txt' },
    ok: true,
    includes: ['     1|hello'],
  },
];

describe('ws_read', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_name, row) => {
    const { engine } = await fileEngine(row.seed, row.settings);
    const r = await engine.call('ws_read', row.args);
    expect(r.ok, r.text).toBe(row.ok);
    if (row.equals !== undefined) expect(r.text).toBe(row.equals);
    if (row.endsWith !== undefined) expect(r.text.endsWith(row.endsWith), r.text.slice(-400)).toBe(true);
    for (const s of row.includes ?? []) expect(r.text).toContain(s);
    for (const s of row.excludes ?? []) expect(r.text).not.toContain(s);
    if (row.maxChars !== undefined) expect(r.text.length).toBeLessThanOrEqual(row.maxChars);
  });

  it('marks a read file as seen (at its physical path, also through a symlinked folder)', async () => {
    const { engine } = await fileEngine({ 'src/a.ts': 'x\n', lnk: { link: 'src' } });
    const r = await engine.call('ws_read', { path: 'lnk/a.ts' });
    expect(r.text).toContain('[lnk/a.ts#');
    expect(engine.state.seen.get('src/a.ts')).toBe('x\n');
  });

  it.each([
    ['a missing file', { path: 'nope.txt' }],
    ['an offset past the end', { path: 'a.txt', offset: 9 }],
  ])('does not mark %s as seen', async (_n, args) => {
    const { engine } = await fileEngine({ 'a.txt': 'x\n' });
    const r = await engine.call('ws_read', args);
    expect(r.ok).toBe(false);
    expect(engine.state.seen.size).toBe(0);
  });

  it('notes a partial window and a shrunk window for the inspector', async () => {
    const { engine } = await fileEngine({ 'b.txt': BAR });
    const partial = await engine.call('ws_read', { path: 'b.txt', limit: 3 });
    expect(partial.notes.map((n) => n.kind)).toEqual(['read-window']);
    const { engine: small } = await fileEngine(
      { 'b.txt': numbered(300, 'padding padding padding padding') },
      { context_window_tokens: 2000 },
    );
    const shrunk = await small.call('ws_read', { path: 'b.txt' });
    expect(shrunk.notes.map((n) => n.kind).sort()).toEqual(['read-window', 'truncated']);
  });
});
