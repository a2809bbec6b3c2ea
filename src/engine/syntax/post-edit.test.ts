/**
 * The post-edit hook through a real engine (memory workspace, the file tools, ws_edit): one
 * row per outcome and per checker, then the cases a table cannot express (several changes
 * in one call, a failing undo).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../../tests/support/node-wasm.ts';
import { Engine } from '../engine.ts';
import type { EngineSettings } from '../settings.ts';
import type { ToolResult } from '../result.ts';
import { decodeText, encodeText } from '../text.ts';
import { wsEdit } from '../tools/ws_edit.ts';
import { FILE_TOOLS, readText, seedWorkspace } from '../../../tests/support/file-tools.ts';
import { createSyntaxPostEdit, revertText, syntaxPostEdit, type SyntaxChecker } from './post-edit.ts';

const TOOLS = [...FILE_TOOLS, wsEdit];

async function engineWith(
  seed: Record<string, string>,
  opts: { settings?: Partial<EngineSettings>; budgetMs?: number } = {},
) {
  const ws = await seedWorkspace(seed);
  const postEdit = opts.budgetMs === undefined ? syntaxPostEdit : createSyntaxPostEdit({ budgetMs: opts.budgetMs });
  const engine = new Engine({
    workspace: ws,
    tools: TOOLS,
    postEdit,
    settings: { loop_guard: false, ...opts.settings },
  });
  return { engine, ws };
}

const REVERT_TAIL = [
  'The file is unchanged on disk. Fix the syntax in your replacement text and retry:',
  '• check brackets/parens/quotes are balanced in new_str',
  '• check indentation matches the surrounding block',
  'Do NOT retry the identical edit — it will be reverted again.',
].join('\n');

type Outcome =
  /** The call's own result, untouched by the hook. */
  | { kind: 'unchanged' }
  /** Undone: this exact text, the file byte-identical to the seed. */
  | { kind: 'reverted'; text: string }
  /** Kept, with this line appended to the tool's own text. */
  | { kind: 'appended'; line: string }
  /** Kept unjudged, with a line matching this appended: the check hit a bound. */
  | { kind: 'skipped'; line: RegExp };

interface Row {
  name: string;
  seed: Record<string, string>;
  tool: string;
  args: Record<string, unknown>;
  settings?: Partial<EngineSettings>;
  budgetMs?: number;
  /** The file the call changes. */
  path: string;
  outcome: Outcome;
}

const PY = 'def f(x):\n    return x + 1\n';
const GO = 'package main\n\nfunc main() {\n\tprintln("hi")\n}\n';
const JS = 'function f(a) {\n  return a + 1;\n}\n';
const JSON_TEXT = '{\n  "name": "x",\n  "version": "1.0.0"\n}\n';
/** Top-level declarations, 1.2 MB: over the check's size limit. */
const BIG_JS =
  Array.from({ length: 50_000 }, (_, i) => `let v${i} = ${i};`)
    .join('\n')
    .padEnd(1_199_000, ' ') + '\n';

const rows: Row[] = [
  // One row per outcome.
  {
    name: 'a valid edit is left alone',
    seed: { 'a.js': JS },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'a + 1', new_str: 'a + 2' },
    path: 'a.js',
    outcome: { kind: 'unchanged' },
  },
  {
    name: 'ok → broken is reverted (ws_edit)',
    seed: { 'a.js': JS },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: '  return a + 1;\n}', new_str: '  return (a + 1;\n}' },
    path: 'a.js',
    outcome: {
      kind: 'reverted',
      text: `EDIT REVERTED — a.js parsed correctly before your change and does NOT parse after it (acorn): 2:16 Unexpected token ";"\n${REVERT_TAIL}`,
    },
  },
  {
    name: 'broken → still broken is kept, the error appended',
    seed: { 'a.js': 'function f(a) {\n  return a +;\n}\n' },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'function f(a) {', new_str: 'function g(a) {' },
    path: 'a.js',
    outcome: {
      kind: 'appended',
      line: '[syntax: a.js still does not parse (acorn): 2:13 Unexpected token ";" — it did not parse before this call either; fix it next with ws_edit]',
    },
  },
  {
    name: 'broken → fixed is left alone',
    seed: { 'a.js': 'const x = ;\n' },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'const x = ;', new_str: 'const x = 1;' },
    path: 'a.js',
    outcome: { kind: 'unchanged' },
  },
  {
    name: 'a new file that does not parse is kept, the error appended',
    seed: {},
    tool: 'ws_write',
    args: { path: 'src/new.py', content: 'def f(:\n    pass\n' },
    path: 'src/new.py',
    outcome: {
      kind: 'appended',
      line: '[syntax: src/new.py does not parse (tree-sitter-python): 1:7 missing ")" — the new file was kept as written; fix it next with ws_edit]',
    },
  },
  {
    name: 'ok → broken through a ws_write overwrite is reverted',
    seed: { 'data.json': JSON_TEXT },
    tool: 'ws_write',
    args: { path: 'data.json', content: '{\n  "name": "x",\n}\n' },
    path: 'data.json',
    outcome: {
      kind: 'reverted',
      text: `EDIT REVERTED — data.json parsed correctly before your change and does NOT parse after it (json): 2:14 trailing comma — JSON allows none; remove the ',' before the closing bracket\n${REVERT_TAIL}`,
    },
  },
  {
    name: 'a moved broken file counts as broken before, not as new',
    seed: { 'a.js': 'const x = ;\n' },
    tool: 'ws_mv',
    args: { from: 'a.js', to: 'b.js' },
    path: 'b.js',
    outcome: {
      kind: 'appended',
      line: '[syntax: b.js still does not parse (acorn): 1:11 Unexpected token ";" — it did not parse before this call either; fix it next with ws_edit]',
    },
  },

  // One ok → broken row per checker.
  {
    name: 'python: a broken indent is reverted',
    seed: { 'a.py': PY },
    tool: 'ws_edit',
    args: { path: 'a.py', old_str: '    return x + 1\n', new_str: '    y = x\n        return y + 1\n' },
    path: 'a.py',
    outcome: {
      kind: 'reverted',
      text: `EDIT REVERTED — a.py parsed correctly before your change and does NOT parse after it (tree-sitter-python): 3:9 unexpected indent\n${REVERT_TAIL}`,
    },
  },
  {
    name: 'go: a lost brace is reverted',
    seed: { 'main.go': GO },
    tool: 'ws_edit',
    args: { path: 'main.go', old_str: '\tprintln("hi")\n}', new_str: '\tif true {\n\t\tprintln("hi")\n}' },
    path: 'main.go',
    outcome: {
      kind: 'reverted',
      text: `EDIT REVERTED — main.go parsed correctly before your change and does NOT parse after it (tree-sitter-go): 7:1 missing "}"\n${REVERT_TAIL}`,
    },
  },
  {
    name: 'json: a missing comma is reverted',
    seed: { 'package.json': JSON_TEXT },
    tool: 'ws_edit',
    args: { path: 'package.json', old_str: '"version": "1.0.0"', new_str: '"version": "1.0.0"\n  "private": true' },
    path: 'package.json',
    outcome: {
      kind: 'reverted',
      text: `EDIT REVERTED — package.json parsed correctly before your change and does NOT parse after it (json): 4:3 expected ',' or '}' after a property value, found "\\""\n${REVERT_TAIL}`,
    },
  },
  {
    name: 'jsonc: a trailing comma in tsconfig.json is fine',
    seed: { 'tsconfig.json': '{ "a": 1 }\n' },
    tool: 'ws_edit',
    args: { path: 'tsconfig.json', old_str: '"a": 1', new_str: '"a": 1,' },
    path: 'tsconfig.json',
    outcome: { kind: 'unchanged' },
  },

  // No verdict, no effect.
  {
    name: 'typescript is not checked',
    seed: { 'a.ts': 'export const a = 1;\n' },
    tool: 'ws_edit',
    args: { path: 'a.ts', old_str: 'a = 1', new_str: 'a = (1' },
    path: 'a.ts',
    outcome: { kind: 'unchanged' },
  },
  {
    name: 'a check past its budget is skipped, and the result says so',
    seed: { 'a.js': JS },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'a + 1', new_str: '(a + 1' },
    budgetMs: 0,
    path: 'a.js',
    outcome: {
      kind: 'skipped',
      line: /^\[syntax check skipped for a\.js \(acorn\): the check took \d+ ms, over its 0 ms budget; not judged\]$/,
    },
  },
  {
    name: 'a file over the size limit is not parsed, and the result says so',
    seed: { 'big.js': BIG_JS },
    tool: 'ws_edit',
    args: { path: 'big.js', old_str: 'let v0 = 0;', new_str: 'let v0 = (0;' },
    path: 'big.js',
    outcome: {
      kind: 'skipped',
      line: /^\[syntax check skipped for big\.js \(acorn\): the file is 1\.2 MB, over the 1 MB limit; not judged\]$/,
    },
  },
  {
    name: 'a text nested deeper than acorn can parse is not judged, and the result says so',
    seed: { 'a.js': JS },
    tool: 'ws_write',
    args: { path: 'deep.js', content: `x = ${'('.repeat(20_000)};\n` },
    path: 'deep.js',
    outcome: {
      kind: 'skipped',
      line: /^\[syntax check skipped for deep\.js \(acorn\): the text is nested too deeply for acorn; not judged\]$/,
    },
  },
  {
    name: 'disable_syntax_check: true is honoured',
    seed: { 'a.js': JS },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'a + 1', new_str: '(a + 1', disable_syntax_check: true },
    path: 'a.js',
    outcome: { kind: 'unchanged' },
  },
  {
    name: 'the syntax_check setting off is honoured',
    seed: { 'a.js': JS },
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'a + 1', new_str: '(a + 1' },
    settings: { syntax_check: false },
    path: 'a.js',
    outcome: { kind: 'unchanged' },
  },
];

describe('syntaxPostEdit', () => {
  beforeAll(() => useNodeWasm());

  it.each(rows)('$name', async (row) => {
    const { engine, ws } = await engineWith(row.seed, { settings: row.settings, budgetMs: row.budgetMs });
    for (const p of Object.keys(row.seed)) await engine.call('ws_read', { path: p });
    // The same call on an engine without the hook: what the tool itself answers.
    const plainWs = await seedWorkspace(row.seed);
    const plain = new Engine({ workspace: plainWs, tools: TOOLS, settings: { loop_guard: false, ...row.settings } });
    for (const p of Object.keys(row.seed)) await plain.call('ws_read', { path: p });
    const own = await plain.call(row.tool, row.args);
    expect(own.ok).toBe(true);

    const r = await engine.call(row.tool, row.args);
    const syntaxNotes = r.notes
      .filter((n) => n.kind === 'syntax-error' || n.kind === 'syntax-revert')
      .map((n) => n.kind);
    switch (row.outcome.kind) {
      case 'unchanged':
        expect(r).toEqual(own);
        break;
      case 'reverted': {
        expect(r.ok).toBe(false);
        expect(r.text).toBe(row.outcome.text);
        expect(r.changes).toEqual([]);
        expect(syntaxNotes).toEqual(['syntax-revert']);
        expect(await readText(ws, row.path)).toBe(row.seed[row.path]);
        // What the session has seen matches the disk again, so the next edit needs no re-read.
        expect(engine.state.seen.get(row.path)).toBe(row.seed[row.path]);
        break;
      }
      case 'appended':
        expect(r.ok).toBe(true);
        expect(r.text).toBe(`${own.text}\n${row.outcome.line}`);
        expect(r.changes).toEqual(own.changes);
        expect(syntaxNotes).toEqual(['syntax-error']);
        expect(await readText(ws, row.path)).toBe(await readText(plainWs, row.path));
        break;
      case 'skipped': {
        expect(r.ok).toBe(true);
        const [head, line] = [r.text.slice(0, own.text.length), r.text.slice(own.text.length + 1)];
        expect(head).toBe(own.text);
        expect(line).toMatch(row.outcome.line);
        const bound = row.budgetMs === 0 ? 'time' : row.path === 'deep.js' ? 'depth' : 'size';
        expect(r.notes.filter((n) => n.kind === 'cap').map((n) => n.detail)).toEqual([`syntax-${bound}`]);
        expect(syntaxNotes).toEqual([]);
        expect(await readText(ws, row.path)).toBe(await readText(plainWs, row.path));
        break;
      }
      default: {
        const never: never = row.outcome;
        throw new Error(`unhandled outcome ${JSON.stringify(never)}`);
      }
    }
  });

  it('a revert restores the exact bytes: CRLF, no final newline, non-ASCII', async () => {
    const original = 'const s = "héllo — 😀";\r\nfunction f() {\r\n  return s;\r\n}';
    const { engine, ws } = await engineWith({ 'u.js': original });
    const bytes = await ws.readFile('u.js');
    await engine.call('ws_read', { path: 'u.js' });
    const r = await engine.call('ws_edit', { path: 'u.js', old_str: '  return s;', new_str: '  return s +;' });
    expect(
      r.text.startsWith(
        'EDIT REVERTED — u.js parsed correctly before your change and does NOT parse after it (acorn): ',
      ),
    ).toBe(true);
    expect(await ws.readFile('u.js')).toEqual(bytes);
    // The retry the message asks for goes through without a re-read.
    const retry = await engine.call('ws_edit', { path: 'u.js', old_str: '  return s;', new_str: '  return s + 1;' });
    expect(retry.ok).toBe(true);
    expect(decodeText(await ws.readFile('u.js'))).toBe(original.replace('return s;', 'return s + 1;'));
  });

  it('undoes every change of a call that broke one file, and removes what it created', async () => {
    const { engine, ws } = await engineWith({ 'a.js': JS });
    const result: ToolResult = {
      ok: true,
      text: 'patched 2 files',
      notes: [{ kind: 'rung', text: 'exact', detail: 'exact' }],
      changes: [
        { path: 'lib/new.js', before: null, after: 'export const n = 1;\n' },
        { path: 'a.js', before: JS, after: 'function f(a) {\n' },
      ],
    };
    await ws.writeFile('lib/new.js', encodeText('export const n = 1;\n'));
    await ws.writeFile('a.js', encodeText('function f(a) {\n'));
    engine.state.markSeen('lib/new.js', 'export const n = 1;\n');
    const r = await syntaxPostEdit(engine.ctx, 'ws_patch', result);
    expect(r.text).toBe(
      `${revertText('a.js', { status: 'error', checker: 'acorn', message: '2:1 Unexpected end of input' })}\nThe call's changes to lib/new.js were undone too, so it left nothing behind.`,
    );
    expect(r.notes.map((n) => n.kind)).toEqual(['rung', 'syntax-revert']);
    expect(await readText(ws, 'a.js')).toBe(JS);
    expect(await ws.lstat('lib/new.js')).toBeNull();
    expect(engine.state.hasSeen('lib/new.js')).toBe(false);
  });

  it('says so when the undo itself fails, instead of claiming the file is unchanged', async () => {
    const ws = await seedWorkspace({});
    ws.writeFile = async () => {
      throw new Error('EIO: disk gone');
    };
    const engine = new Engine({ workspace: ws, tools: TOOLS });
    const result: ToolResult = {
      ok: true,
      text: 'edited a.js',
      notes: [],
      changes: [{ path: 'a.js', before: JS, after: 'function f(a) {\n' }],
    };
    const r = await syntaxPostEdit(engine.ctx, 'ws_edit', result);
    expect(r.ok).toBe(false);
    expect(r.text).toBe(
      'a.js does NOT parse after your change (acorn): 2:1 Unexpected end of input\n' +
        'Undoing the change failed (EIO: disk gone), so the broken text is still on disk — fix the syntax with ws_edit next.',
    );
    expect(r.changes).toEqual(result.changes);
  });

  it('leaves a deletion alone', async () => {
    const { engine } = await engineWith({});
    const result: ToolResult = {
      ok: true,
      text: 'deleted a.js',
      notes: [],
      changes: [{ path: 'a.js', before: 'const x = ;', after: null }],
    };
    expect(await syntaxPostEdit(engine.ctx, 'ws_delete', result)).toBe(result);
  });
});

describe('createSyntaxPostEdit with its own checker', () => {
  /** A checker that judges by a marker in the text, as `node --check` would judge a real file; it records what it was asked. */
  function markerChecker(asked: { text: string; budgetMs: number | undefined }[]): SyntaxChecker {
    return async (_path, text, opts) => {
      asked.push({ text, budgetMs: opts?.budgetMs });
      if (text.includes('UNJUDGED')) return null;
      return text.includes('BROKEN')
        ? { status: 'error', checker: 'node --check', message: '1:1 Unexpected identifier' }
        : { status: 'ok', checker: 'node --check' };
    };
  }

  it.each([
    {
      name: "its error on an ok file reverts, in the checker's name",
      seed: 'let a = 1;\n',
      newStr: 'BROKEN',
      outcome: 'reverted',
      asked: ['BROKEN\n', 'let a = 1;\n'],
    },
    {
      name: 'its error on a file it also calls broken before is appended',
      seed: 'BROKEN = 1;\n',
      newStr: 'BROKEN = 2;',
      outcome: 'appended',
      asked: ['BROKEN = 2;\n', 'BROKEN = 1;\n'],
    },
    {
      name: 'its ok leaves the result alone (acorn would have reverted this)',
      seed: 'let a = 1;\n',
      newStr: 'let a = (1;',
      outcome: 'unchanged',
      asked: ['let a = (1;\n'],
    },
    {
      name: 'no verdict from it leaves the result alone',
      seed: 'let a = 1;\n',
      newStr: 'UNJUDGED (',
      outcome: 'unchanged',
      asked: ['UNJUDGED (\n'],
    },
  ] as const)('$name', async (row) => {
    const asked: { text: string; budgetMs: number | undefined }[] = [];
    const ws = await seedWorkspace({ 'a.js': row.seed });
    const postEdit = createSyntaxPostEdit({ budgetMs: 1234, check: markerChecker(asked) });
    const engine = new Engine({ workspace: ws, tools: TOOLS, postEdit, settings: { loop_guard: false } });
    await engine.call('ws_read', { path: 'a.js' });
    const r = await engine.call('ws_edit', { path: 'a.js', old_str: row.seed.trimEnd(), new_str: row.newStr });
    expect(asked.map((a) => a.text)).toEqual(row.asked);
    // The budget reaches the checker; the checker option itself does not.
    expect(asked.every((a) => a.budgetMs === 1234)).toBe(true);
    if (row.outcome === 'reverted') {
      expect(r.text).toBe(
        revertText('a.js', { status: 'error', checker: 'node --check', message: '1:1 Unexpected identifier' }),
      );
      expect(await readText(ws, 'a.js')).toBe(row.seed);
    } else if (row.outcome === 'appended') {
      expect(
        r.text.endsWith(
          '\n[syntax: a.js still does not parse (node --check): 1:1 Unexpected identifier — it did not parse before this call either; fix it next with ws_edit]',
        ),
      ).toBe(true);
      expect(await readText(ws, 'a.js')).toBe(`${row.newStr}\n`);
    } else {
      expect(r.ok).toBe(true);
      expect(r.notes.some((n) => n.kind.startsWith('syntax-'))).toBe(false);
      expect(await readText(ws, 'a.js')).toBe(`${row.newStr}\n`);
    }
  });
});
