import { describe, expect, it } from 'vitest';
import { Engine } from '../engine.ts';
import type { EngineSettings } from '../settings.ts';
import { decodeText, encodeText } from '../text.ts';
import { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { wsEdit, GUTTER_NOTE, NO_OP_TEXT, OVER_EDIT_MIN_LINES } from './ws_edit.ts';
import { wsRead } from './ws_read.ts';

const PY = 'def foo():\n    x = 1\n    y = 2\n    return x + y\n\ndef bar():\n    x = 1\n    y = 2\n    return x * y\n';

async function setup(files: Record<string, string | Uint8Array>, settings: Partial<EngineSettings> = {}) {
  const ws = new MemoryWorkspace();
  for (const [p, t] of Object.entries(files)) await ws.writeFile(p, typeof t === 'string' ? encodeText(t) : t);
  const engine = new Engine({ workspace: ws, tools: [wsEdit, wsRead], settings: { loop_guard: false, ...settings } });
  const read = async (p: string) => decodeText(await ws.readFile(p));
  return { ws, engine, read };
}

describe('ws_edit: success text, one row per rung', () => {
  const rows: {
    name: string;
    file: string;
    args: Record<string, unknown>;
    text: string;
    rung?: string;
    after: string;
  }[] = [
    {
      name: 'exact',
      file: PY,
      args: { old_str: 'return x * y', new_str: 'return x ** y' },
      text: 'edited a.py (1 replacement(s))',
      after: PY.replace('x * y', 'x ** y'),
    },
    {
      name: 'trailing whitespace',
      file: PY,
      args: { old_str: 'def bar():  \n    x = 1 ', new_str: 'def baz():\n    x = 1' },
      text: 'edited a.py (1 replacement(s)) [matched ignoring trailing whitespace — your old_str had different line endings]',
      rung: 'trailing-ws',
      after: PY.replace('bar', 'baz'),
    },
    {
      name: 'indentation',
      file: PY,
      args: { old_str: 'x = 1\ny = 2\nreturn x * y', new_str: 'x = 1\ny = 3\nreturn x * y' },
      text: 'edited a.py (1 replacement(s)) [matched after normalizing indentation — your old_str was indented differently]',
      rung: 'indent',
      after: PY.replace('y = 2\n    return x * y', 'y = 3\n    return x * y'),
    },
    {
      name: 'blank lines',
      file: PY,
      args: { old_str: '    return x + y\ndef bar():', new_str: '    return x - y\n\ndef bar():' },
      text: 'edited a.py (1 replacement(s)) [matched ignoring blank lines — your old_str had different blank-line spacing]',
      rung: 'blank-lines',
      after: PY.replace('x + y', 'x - y'),
    },
    {
      name: 'quotes and dashes',
      file: 'print("a – b")\nprint("done")\n',
      args: { old_str: 'print(“a - b”)', new_str: 'print("a - c")' },
      text: 'edited a.py (1 replacement(s)) [matched ignoring quote and dash style — your old_str had curly quotes or long dashes where the file has plain ones, or the reverse]',
      rung: 'quotes-dashes',
      after: 'print("a - c")\nprint("done")\n',
    },
    {
      name: 'first+last line anchors',
      file: PY,
      args: { old_str: 'def bar():\n    x = 11\n    y = 2\n    return x * y', new_str: 'def bar():\n    return 2' },
      text: 'edited a.py (1 replacement(s)) [matched on first+last line anchors — the middle of your old_str did not match exactly; verify the result with ws_read]',
      rung: 'anchors',
      after: 'def foo():\n    x = 1\n    y = 2\n    return x + y\n\ndef bar():\n    return 2\n',
    },
    {
      name: 'read gutter on every line (stripped from new_str too)',
      file: PY,
      args: { old_str: '     6|def bar():\n     7|    x = 1', new_str: '     6|def bar():\n     7|    x = 5' },
      text: `edited a.py (1 replacement(s)) ${GUTTER_NOTE}`,
      after: PY.replace('def bar():\n    x = 1', 'def bar():\n    x = 5'),
    },
    {
      name: 'replace_all on an exact repeat',
      file: PY,
      args: { old_str: 'x = 1', new_str: 'x = 0', replace_all: true },
      text: 'edited a.py (2 replacement(s))',
      after: PY.replaceAll('x = 1', 'x = 0'),
    },
    {
      name: 'replace_all on an inexact repeat',
      file: PY,
      args: { old_str: 'x = 1\ny = 2', new_str: 'x = 1\ny = 4', replace_all: true },
      text: 'edited a.py (2 replacement(s)) [matched after normalizing indentation — your old_str was indented differently]',
      rung: 'indent',
      after: PY.replaceAll('y = 2', 'y = 4'),
    },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, r) => {
    const { engine, read } = await setup({ 'a.py': r.file });
    const res = await engine.call('ws_edit', { path: 'a.py', ...r.args });
    expect(res.text).toBe(r.text);
    expect(res.ok).toBe(true);
    expect(await read('a.py')).toBe(r.after);
    expect(res.changes).toEqual([{ path: 'a.py', before: r.file, after: r.after }]);
    expect(res.notes.find((n) => n.kind === 'rung')?.detail).toBe(r.rung);
    expect(engine.state.seen.get('a.py')).toBe(r.after);
  });
});

describe('ws_edit: a note names every drift the match tolerated', () => {
  it.each([
    [
      'indentation shifted and a blank line added',
      {},
      '        x = 1\n\n        y = 2\n        return x + y',
      ['indent', 'blank-lines'],
      '[matched after normalizing indentation and ignoring blank lines — your old_str was indented differently and had different blank-line spacing]',
    ],
    [
      'indentation only, with the indent rung off',
      { disabled_rungs: ['indent'] },
      '  x = 1\n  y = 2\n  return x + y',
      ['indent'],
      '[matched after normalizing indentation — your old_str was indented differently]',
    ],
  ] as const)('%s', async (_n, settings, oldStr, drifts, note) => {
    const { engine } = await setup({ 'a.py': PY }, settings);
    const res = await engine.call('ws_edit', {
      path: 'a.py',
      old_str: oldStr,
      new_str: oldStr.replace('x + y', 'x - y'),
    });
    expect(res.ok).toBe(true);
    expect(res.text).toBe(`edited a.py (1 replacement(s)) ${note}`);
    expect(res.notes.filter((n) => n.kind === 'rung').map((n) => n.detail)).toEqual(drifts);
  });
});

describe('ws_edit: refusals, one row per message', () => {
  const rows: {
    name: string;
    files?: Record<string, string | Uint8Array>;
    args: Record<string, unknown>;
    settings?: Partial<EngineSettings>;
    says: (string | RegExp)[];
    rule?: string;
  }[] = [
    {
      name: 'empty old_str',
      args: { path: 'a.py', old_str: '', new_str: 'x' },
      says: ['old_str is empty', 'ws_write', 'last 2–3 lines', 'the anchor repeated'],
      rule: 'empty-old-str',
    },
    {
      name: 'whitespace-only old_str',
      args: { path: 'a.py', old_str: ' \n\t', new_str: 'x' },
      says: ['old_str is empty or only whitespace'],
      rule: 'empty-old-str',
    },
    {
      name: 'old_str equals new_str',
      args: { path: 'a.py', old_str: 'x = 1', new_str: 'x = 1' },
      says: [NO_OP_TEXT],
      rule: 'no-op',
    },
    {
      name: 'exact match found N times',
      args: { path: 'a.py', old_str: 'x = 1', new_str: 'x = 2' },
      says: [
        'old_str found 2 times in a.py (at lines 2, 7)',
        'pass replace_all:true, or include more surrounding context',
        'Do NOT use ws_write.',
      ],
      rule: 'found-n-times',
    },
    {
      name: 'a ladder rung matched N places',
      args: { path: 'a.py', old_str: 'x = 1\ny = 2', new_str: 'x = 1\ny = 3' },
      says: [
        'Ambiguous edit refused — the search text matches 2 places in a.py (lines 2–3, 7–8)',
        'indentation-normalized match',
        'replace_all:true',
      ],
      rule: 'ambiguous',
    },
    {
      name: 'gutter on some lines only',
      args: {
        path: 'a.py',
        old_str: 'def bar():\n     7|    x = 1\n     8|    y = 2',
        new_str: 'def bar():\n    x = 3',
      },
      says: ['gutter', '2 of its 3 non-blank lines', 'before: "     7|    x = 1"', 'after:  "    x = 1"'],
      rule: 'partial-gutter',
    },
    {
      name: 'not found, with the closest span',
      args: { path: 'a.py', old_str: 'def baz():\n    z = 1', new_str: 'q' },
      says: [
        'old_str not found in a.py',
        'The closest text is lines 6–7',
        'def bar():',
        'ws_read {"path":"a.py","offset":3,"limit":8}',
      ],
      rule: 'not-found',
    },
    {
      name: 'not found, nothing alike',
      args: { path: 'a.py', old_str: 'SELECT * FROM users;', new_str: 'q' },
      says: ['old_str not found in a.py', 'Nothing in the file resembles old_str', 'ws_read'],
      rule: 'not-found',
    },
    {
      name: 'over-edit guard',
      files: { 'big.py': Array.from({ length: OVER_EDIT_MIN_LINES }, (_, i) => `line_${i} = ${i}`).join('\n') },
      args: {
        path: 'big.py',
        old_str: Array.from({ length: OVER_EDIT_MIN_LINES }, (_, i) => `line_${i} = ${i}`).join('\n'),
        new_str: 'all = 0',
      },
      says: ['Over-edit refused', 'ws_write', 'ws_replace_lines'],
      rule: 'over-edit',
    },
    {
      name: 'missing file',
      args: { path: 'src/nope.py', old_str: 'a', new_str: 'b' },
      says: ['does not exist', 'ws_glob', 'ws_list'],
    },
    {
      name: 'a directory',
      files: { 'src/a.py': PY },
      args: { path: 'src', old_str: 'a', new_str: 'b' },
      says: ['is a directory', 'ws_list'],
    },
    {
      name: 'a binary file',
      files: { 'b.bin': new Uint8Array([0, 1, 2, 0]) },
      args: { path: 'b.bin', old_str: 'a', new_str: 'b' },
      says: ['binary'],
    },
    {
      name: 'the jail',
      args: { path: '.slmcode/hooks.json', old_str: 'a', new_str: 'b' },
      says: ['write refused — .slmcode/hooks.json is harness control state'],
    },
    {
      name: 'edit_tolerance off: byte-exact only',
      args: { path: 'a.py', old_str: 'def bar():  \n    x = 1', new_str: 'def baz():\n    x = 1' },
      settings: { edit_tolerance: false },
      says: ['edit_tolerance is off', 'byte for byte'],
      rule: 'not-found',
    },
    {
      name: 'edit_tolerance off: a read gutter is named, not stripped',
      args: { path: 'a.py', old_str: '     6|def bar():\n     7|    x = 1', new_str: 'def bar():\n    x = 5' },
      settings: { edit_tolerance: false },
      says: ['line numbers on every line', 'edit_tolerance is off', 'remove them'],
      rule: 'not-found',
    },
    {
      name: 'gutter_strip off: a read gutter is named, not stripped; the ladder still runs',
      args: { path: 'a.py', old_str: '     6|def bar():\n     7|    x = 1', new_str: 'def bar():\n    x = 5' },
      settings: { gutter_strip: false },
      says: ['line numbers on every line', 'gutter_strip is off', 'remove them', 'ignoring trailing whitespace'],
      rule: 'not-found',
    },
    {
      name: 'disabled_rungs: the indentation rungs switched off',
      args: { path: 'a.py', old_str: 'def bar():\nx = 1', new_str: 'def bar():\nx = 2' },
      settings: { disabled_rungs: ['indent', 'blank-lines', 'quotes-dashes', 'anchors'] },
      says: ['old_str not found'],
      rule: 'not-found',
    },
  ];
  it.each(rows.map((r) => [r.name, r] as const))('%s', async (_n, r) => {
    const files = r.files ?? { 'a.py': PY };
    const { ws, engine } = await setup(files, r.settings);
    const res = await engine.call('ws_edit', r.args);
    expect(res.ok).toBe(false);
    for (const s of r.says) {
      if (typeof s === 'string') expect(res.text).toContain(s);
      else expect(res.text).toMatch(s);
    }
    if (r.rule) expect(res.notes.find((n) => n.kind === 'refusal')?.detail).toBe(r.rule);
    expect(res.changes).toEqual([]);
    for (const [p, t] of Object.entries(files)) {
      const now = await ws.readFile(p);
      expect(typeof t === 'string' ? decodeText(now) : now).toEqual(t);
    }
  });
});

describe('ws_edit: arguments, settings and state', () => {
  it.each([
    ['old_string/new_string', { old_string: 'x * y', new_string: 'x ** y' }],
    ['search/replace', { search: 'x * y', replace: 'x ** y' }],
    ['old/new', { old: 'x * y', new: 'x ** y' }],
    ['canonical wins over an alias', { old_str: 'x * y', old: 'nothing here', new_str: 'x ** y' }],
  ])('accepts %s', async (_n, args) => {
    const { engine, read } = await setup({ 'a.py': PY });
    const res = await engine.call('ws_edit', { path: 'a.py', ...args });
    expect(res.text).toBe('edited a.py (1 replacement(s))');
    expect(await read('a.py')).toBe(PY.replace('x * y', 'x ** y'));
  });

  it('over_edit_guard off lets a whole-file old_str through', async () => {
    const big = Array.from({ length: OVER_EDIT_MIN_LINES }, (_, i) => `v${i} = ${i}`).join('\n');
    const { engine, read } = await setup({ 'big.py': big }, { over_edit_guard: false });
    expect((await engine.call('ws_edit', { path: 'big.py', old_str: big, new_str: 'v = 0' })).ok).toBe(true);
    expect(await read('big.py')).toBe('v = 0');
  });

  it('keeps a checkpoint of the text it replaced, unless file_checkpoints is off', async () => {
    const on = await setup({ 'a.py': PY });
    const res = await on.engine.call('ws_edit', { path: 'a.py', old_str: 'x * y', new_str: 'x - y' });
    expect(on.engine.state.checkpoints).toMatchObject([{ tool: 'ws_edit', path: 'a.py', before: PY }]);
    expect(res.notes.some((n) => n.kind === 'checkpoint')).toBe(true);
    const off = await setup({ 'a.py': PY }, { file_checkpoints: false });
    await off.engine.call('ws_edit', { path: 'a.py', old_str: 'x * y', new_str: 'x - y' });
    expect(off.engine.state.checkpoints).toEqual([]);
  });

  it('points at ws_read + ws_replace_lines from the second miss in a row on a file, and forgets after a success', async () => {
    const { engine } = await setup({ 'a.py': PY });
    const miss = { path: 'a.py', old_str: 'nothing like it', new_str: 'q' };
    const first = await engine.call('ws_edit', miss);
    expect(first.text).not.toContain('ws_replace_lines');
    const second = await engine.call('ws_edit', { ...miss, old_str: 'still nothing' });
    expect(second.text).toContain('miss #2 in a row on a.py');
    expect(second.text).toContain('ws_replace_lines {path, start, end, new, hash}');
    expect(second.text).toContain('[a.py#TAG: lines a-b of n]');
    expect(second.notes.find((n) => n.detail === 'replace-lines')).toBeDefined();
    await engine.call('ws_edit', { path: 'a.py', old_str: 'x * y', new_str: 'x / y' });
    expect((await engine.call('ws_edit', miss)).text).not.toContain('ws_replace_lines');
  });

  it('keeps a CRLF file CRLF, also for an exact match with LF new_str', async () => {
    const { engine, read } = await setup({ 'w.txt': 'one\r\ntwo\r\n' });
    await engine.call('ws_edit', { path: 'w.txt', old_str: 'two', new_str: 'two\nthree' });
    expect(await read('w.txt')).toBe('one\r\ntwo\r\nthree\r\n');
  });

  it('refuses an edit that, fitted to the file, changes nothing', async () => {
    const { engine, read } = await setup({ 'a.py': PY });
    const res = await engine.call('ws_edit', {
      path: 'a.py',
      old_str: 'def bar():  \n    x = 1',
      new_str: 'def bar():\n    x = 1',
    });
    expect(res.ok).toBe(false);
    expect(res.text).toContain(NO_OP_TEXT);
    expect(await read('a.py')).toBe(PY);
  });
});
