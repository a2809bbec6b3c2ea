import { describe, expect, it } from 'vitest';
import { fileEngine, readText, snapshotFs } from '../../../tests/support/file-tools.ts';
import { contentTag } from '../text.ts';
import { parseTag, spliceLines } from './ws_replace_lines.ts';

const FILE = 'one\ntwo\nthree\nfour\n';

describe('spliceLines', () => {
  it.each([
    ['replaces an inclusive range', FILE, 2, 3, 'TWO\nTHREE', 'one\nTWO\nTHREE\nfour\n'],
    ['replaces one line with several', FILE, 2, 2, 'a\nb\nc', 'one\na\nb\nc\nthree\nfour\n'],
    ['inserts before start when end = start - 1', FILE, 3, 2, 'new', 'one\ntwo\nnew\nthree\nfour\n'],
    ['inserts at the top', FILE, 1, 0, 'top', 'top\none\ntwo\nthree\nfour\n'],
    ['appends with start = N + 1', FILE, 5, 4, 'five', 'one\ntwo\nthree\nfour\nfive\n'],
    ['deletes with an empty new', FILE, 2, 3, '', 'one\nfour\n'],
    ['deletes every line', FILE, 1, 4, '', ''],
    ['a trailing newline in new adds no extra line', FILE, 2, 2, 'TWO\n', 'one\nTWO\nthree\nfour\n'],
    ['a lone newline in new is one blank line', FILE, 2, 2, '\n', 'one\n\nthree\nfour\n'],
    ['keeps CRLF endings, for new lines too', 'a\r\nb\r\nc\r\n', 2, 2, 'B\nB2', 'a\r\nB\r\nB2\r\nc\r\n'],
    ['normalizes CRLF in new to an LF file', 'a\nb\n', 1, 1, 'A\r\nA2', 'A\nA2\nb\n'],
    ['keeps a missing final newline when the last line is replaced', 'a\nb', 2, 2, 'B', 'a\nB'],
    ['keeps a missing final newline when appending', 'a\nb', 3, 2, 'c', 'a\nb\nc'],
    [
      'keeps each untouched line its own ending in a mixed file',
      'a\r\nb\nc\r\nd\r\n',
      2,
      2,
      'B',
      'a\r\nB\r\nc\r\nd\r\n',
    ],
    ['gives an empty file a final newline', '', 1, 0, 'x\ny', 'x\ny\n'],
  ])('%s', (_n, text, start, end, replacement, expected) => {
    expect(spliceLines(text, start, end, replacement)).toBe(expected);
  });
});

describe('parseTag', () => {
  it.each([
    ['a1b2', 'a1b2'],
    ['#A1B2', 'a1b2'],
    [' a1b2 ', 'a1b2'],
    ['[src/app.py#a1b2: lines 1-120 of 340]', 'a1b2'],
    ['a1b2c', null],
    ['zzzz', null],
    ['', null],
  ])('%j → %j', (raw, expected) => {
    expect(parseTag(raw)).toBe(expected);
  });
});

const TAG = contentTag(FILE);

interface Row {
  name: string;
  args: Record<string, unknown>;
  ok: boolean;
  includes: string[];
  /** The file afterwards; omitted = the whole fs is unchanged. */
  after?: string;
}

const rows: Row[] = [
  {
    name: 'replaces a range and reports the new tag, the shift and the edited region',
    args: { path: 'f.txt', start: 2, end: 3, new: 'TWO', hash: TAG },
    ok: true,
    after: 'one\nTWO\nfour\n',
    includes: [
      `replaced lines 2-3 of f.txt with 1 line. The file now has 3 lines; its tag is now #${contentTag('one\nTWO\nfour\n')}.`,
      'Old lines 4-4 are now 3-3.',
      `[f.txt#${contentTag('one\nTWO\nfour\n')}: lines 1-3 of 3]`,
      '     2|TWO',
    ],
  },
  {
    name: 'inserts with end = start - 1',
    args: { path: 'f.txt', start: 1, end: 0, new: 'zero', hash: TAG },
    ok: true,
    after: 'zero\none\ntwo\nthree\nfour\n',
    includes: ['inserted 1 line before line 1 of f.txt.', 'Old lines 1-4 are now 2-5.'],
  },
  {
    name: 'deletes with an empty new',
    args: { path: 'f.txt', start: 4, end: 4, new: '', hash: TAG },
    ok: true,
    after: 'one\ntwo\nthree\n',
    includes: ['deleted lines 4-4 of f.txt. The file now has 3 lines'],
  },
  {
    name: 'accepts #tag',
    args: { path: 'f.txt', start: 1, end: 1, new: 'ONE', hash: `#${TAG}` },
    ok: true,
    after: 'ONE\ntwo\nthree\nfour\n',
    includes: ['replaced lines 1-1'],
  },
  {
    name: 'accepts new_str, start_line, end_line and tag as aliases',
    args: { path: 'f.txt', start_line: 1, end_line: 1, new_str: 'ONE', tag: TAG },
    ok: true,
    after: 'ONE\ntwo\nthree\nfour\n',
    includes: ['replaced lines 1-1'],
  },
  {
    name: 'a stale hash is refused with "read it again"',
    args: { path: 'f.txt', start: 1, end: 1, new: 'x', hash: 'beef' === TAG ? 'cafe' : 'beef' },
    ok: false,
    includes: [
      `has changed since the read that showed #`,
      `(its tag is now #${TAG})`,
      'Nothing was changed.',
      'Read it again with ws_read {"path":"f.txt"}',
    ],
  },
  {
    name: 'a hash that is not a tag is refused with an example',
    args: { path: 'f.txt', start: 1, end: 1, new: 'x', hash: 'latest' },
    ok: false,
    includes: ['hash "latest" is not a content tag', 'e.g. "a1b2" from [f.txt#a1b2: lines 1-120 of 340]'],
  },
  ...(
    [
      [0, 0],
      [6, 5],
      [2, 5],
      [3, 1],
    ] as const
  ).map(([start, end]): Row => ({
    name: `lines ${start}-${end} are out of range and the valid range is given`,
    args: { path: 'f.txt', start, end, new: 'x', hash: TAG },
    ok: false,
    includes: [
      `lines ${start}-${end} are out of range: f.txt has 4 lines. Use 1 <= start <= 5 and start - 1 <= end <= 4`,
      'start = 5, end = 4 appends',
      'Nothing was changed.',
    ],
  })),
  {
    name: 'a missing file points at ws_glob and ws_list',
    args: { path: 'g.txt', start: 1, end: 1, new: 'x', hash: TAG },
    ok: false,
    includes: ['g.txt does not exist.', 'Similarly named: f.txt.', 'ws_glob', 'ws_list'],
  },
  {
    name: 'the jail refuses the harness directory',
    args: { path: '.slmcode/config.yaml', start: 1, end: 1, new: 'x', hash: TAG },
    ok: false,
    includes: ['harness control state'],
  },
  {
    name: 'an unchanged range is reported as no change',
    args: { path: 'f.txt', start: 2, end: 2, new: 'two', hash: TAG },
    ok: true,
    includes: ['no change — lines 2-2 of f.txt already read exactly like this'],
  },
];

describe('ws_replace_lines', () => {
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, row) => {
    const { engine, ws } = await fileEngine({ 'f.txt': FILE });
    const before = await snapshotFs(ws);
    const r = await engine.call('ws_replace_lines', row.args);
    expect(r.ok, r.text).toBe(row.ok);
    for (const s of row.includes) expect(r.text).toContain(s);
    if (row.after !== undefined) expect(await readText(ws, 'f.txt')).toBe(row.after);
    else expect(await snapshotFs(ws)).toEqual(before);
  });

  it('chains: the tag in the result is accepted by the next call without a re-read', async () => {
    const { engine, ws } = await fileEngine({ 'f.txt': FILE });
    const first = await engine.call('ws_replace_lines', { path: 'f.txt', start: 1, end: 1, new: 'ONE', hash: TAG });
    const tag = /its tag is now #([0-9a-f]{4})/.exec(first.text)?.[1];
    expect(tag).toBeDefined();
    const second = await engine.call('ws_replace_lines', { path: 'f.txt', start: 4, end: 4, new: 'FOUR', hash: tag });
    expect(second.ok, second.text).toBe(true);
    expect(await readText(ws, 'f.txt')).toBe('ONE\ntwo\nthree\nFOUR\n');
  });

  it('inserts into an empty file with its tag', async () => {
    const { engine, ws } = await fileEngine({ 'e.txt': '' });
    const r = await engine.call('ws_replace_lines', {
      path: 'e.txt',
      start: 1,
      end: 0,
      new: 'hello',
      hash: contentTag(''),
    });
    expect(r.ok, r.text).toBe(true);
    expect(await readText(ws, 'e.txt')).toBe('hello\n');
  });

  it('records the change and a checkpoint, and marks the new text seen', async () => {
    const { engine } = await fileEngine({ 'f.txt': FILE });
    const r = await engine.call('ws_replace_lines', { path: 'f.txt', start: 2, end: 2, new: 'TWO', hash: TAG });
    const after = 'one\nTWO\nthree\nfour\n';
    expect(r.changes).toEqual([{ path: 'f.txt', before: FILE, after }]);
    expect(engine.state.checkpoints).toEqual([{ id: 1, tool: 'ws_replace_lines', path: 'f.txt', before: FILE }]);
    expect(engine.state.seen.get('f.txt')).toBe(after);
  });

  it('uses the numbers and the tag ws_read printed', async () => {
    const { engine, ws } = await fileEngine({ 'f.txt': FILE });
    const read = await engine.call('ws_read', { path: 'f.txt' });
    const tag = /^\[f\.txt#([0-9a-f]{4}):/.exec(read.text)?.[1];
    const line3 = read.text.split('\n').find((l) => l.endsWith('|three'));
    const n = Number(line3?.split('|')[0]);
    const r = await engine.call('ws_replace_lines', { path: 'f.txt', start: n, end: n, new: 'THREE', hash: tag });
    expect(r.ok, r.text).toBe(true);
    expect(await readText(ws, 'f.txt')).toBe('one\ntwo\nTHREE\nfour\n');
  });
});
