import { describe, expect, it } from 'vitest';
import { CANONICAL_CALL, CANONICAL_DONE, droppedCallsText, parseCall, type ParseRepair } from './parse.ts';

const TOOLS = ['ws_read', 'ws_edit', 'ws_write', 'ws_skill'];

interface OkRow {
  name: string;
  raw: string;
  tool: string;
  args: unknown;
  thought?: string;
  dropped?: string[];
  repairs?: ParseRepair[];
  kept?: string;
}

const okRows: OkRow[] = [
  {
    name: 'canonical',
    raw: '{"tool": "ws_read", "args": {"path": "a.js"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: [],
  },
  {
    name: 'thought kept',
    raw: '{"thought": "look first", "tool": "ws_read", "args": {"path": "a.js"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    thought: 'look first',
  },
  {
    name: 'prose around JSON',
    raw: 'Sure! I will read the file.\n{"tool": "ws_read", "args": {"path": "a.js"}}\nThen I will edit it.',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['prose'],
    kept: 'Sure! I will read the file.\n{"tool": "ws_read", "args": {"path": "a.js"}}',
  },
  {
    name: 'fenced JSON',
    raw: '```json\n{"tool": "ws_read", "args": {"path": "a.js"}}\n```',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['fence'],
    kept: '```json\n{"tool": "ws_read", "args": {"path": "a.js"}}\n```',
  },
  {
    name: 'Hermes/Qwen tool_call tags',
    raw: '<tool_call>\n{"name": "ws_read", "arguments": {"path": "a.js"}}\n</tool_call>',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['name-arguments', 'tool-call-tag'],
  },
  {
    name: 'name/arguments shape with arguments as a JSON string',
    raw: '{"name": "ws_edit", "arguments": "{\\"path\\": \\"a.js\\", \\"old_str\\": \\"x\\", \\"new_str\\": \\"y\\"}"}',
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'x', new_str: 'y' },
    repairs: ['name-arguments', 'args-string'],
  },
  {
    name: 'OpenAI function wrapper',
    raw: '{"type": "function", "function": {"name": "ws_read", "arguments": "{\\"path\\": \\"a.js\\"}"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['function-wrapper', 'name-arguments', 'args-string'],
  },
  {
    name: 'bare name of a known tool without arguments',
    raw: '{"name": "ws_read", "path": "a.js"}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['name-arguments', 'flat-args'],
  },
  {
    name: 'arguments flattened beside tool',
    raw: '{"tool": "ws_read", "path": "a.js", "offset": 10}',
    tool: 'ws_read',
    args: { path: 'a.js', offset: 10 },
    repairs: ['flat-args'],
  },
  {
    name: 'wrong argument names pass through for the engine aliases',
    raw: '{"tool": "ws_edit", "parameters": {"path": "a.js", "old_string": "x", "new_string": "y"}}',
    tool: 'ws_edit',
    args: { path: 'a.js', old_string: 'x', new_string: 'y' },
  },
  {
    name: 'two calls: first kept, second dropped',
    raw: '{"tool": "ws_read", "args": {"path": "a.js"}}\n{"tool": "ws_edit", "args": {"path": "a.js", "old_str": "x", "new_str": "y"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    dropped: ['ws_edit'],
    repairs: [],
    kept: '{"tool": "ws_read", "args": {"path": "a.js"}}',
  },
  {
    // The starter run's step 5: nothing is repaired, so no repair note may claim prose.
    name: 'a clean call with a thought, then a second call on its own line: dropped, not prose',
    raw: '{"thought": "keep max - 1", "tool": "ws_edit", "args": {"path": "a.js", "old_str": "x", "new_str": "y"}}\n{"tool": "ws_test", "args": {}}',
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'x', new_str: 'y' },
    thought: 'keep max - 1',
    dropped: ['ws_test'],
    repairs: [],
  },
  {
    name: 'prose between two calls is still prose',
    raw: '{"tool": "ws_read", "args": {"path": "a.js"}}\nThen I will read the other one:\n{"tool": "ws_read", "args": {"path": "b.js"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    dropped: ['ws_read'],
    repairs: ['prose'],
  },
  {
    name: 'prose after the dropped call is still prose',
    raw: '{"tool": "ws_read", "args": {"path": "a.js"}}\n{"tool": "ws_read", "args": {"path": "b.js"}}\nDone for now.',
    tool: 'ws_read',
    args: { path: 'a.js' },
    dropped: ['ws_read'],
    repairs: ['prose'],
  },
  {
    name: 'a JSON array of calls',
    raw: '[{"tool": "ws_read", "args": {"path": "a.js"}}, {"tool": "done", "args": {"summary": "ok"}}]',
    tool: 'ws_read',
    args: { path: 'a.js' },
    dropped: ['done'],
    repairs: [],
  },
  {
    name: 'trailing commas',
    raw: '{"tool": "ws_read", "args": {"path": "a.js",},}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['trailing-comma'],
  },
  {
    name: 'raw newlines inside a string',
    raw: '{"tool": "ws_edit", "args": {"path": "a.js", "old_str": "a\n  b", "new_str": "c"}}',
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'a\n  b', new_str: 'c' },
    repairs: ['raw-control-char'],
  },
  {
    name: 'regex backslash not doubled',
    raw: '{"tool": "ws_grep", "args": {"pattern": "\\d+\\s"}}',
    tool: 'ws_grep',
    args: { pattern: '\\d+\\s' },
    repairs: ['bad-escape'],
  },
  {
    name: 'Python literals',
    raw: '{"tool": "ws_edit", "args": {"path": "a.js", "old_str": "x", "new_str": "y", "replace_all": True}}',
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: 'x', new_str: 'y', replace_all: true },
    repairs: ['python-literal'],
  },
  {
    name: 'a forgotten final brace',
    raw: '{"tool": "ws_read", "args": {"path": "a.js"}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['closed-braces'],
  },
  {
    name: 'braces in prose before the call are skipped',
    raw: 'The function uses {a, b} destructuring.\n{"tool": "ws_read", "args": {"path": "a.js"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['prose'],
  },
  {
    name: 'a call sketched while thinking is not the call',
    raw: '<think>Maybe {"tool": "ws_write", "args": {"path": "a.js"}}? No, read first.</think>\n{"tool": "ws_read", "args": {"path": "a.js"}}',
    tool: 'ws_read',
    args: { path: 'a.js' },
    repairs: ['think'],
  },
  {
    name: 'done call',
    raw: '{"tool": "done", "args": {"summary": "fixed add"}}',
    tool: 'done',
    args: { summary: 'fixed add' },
  },
  {
    name: 'call after a done-looking string in prose is the first call',
    raw: 'I am done reading. {"tool": "ws_edit", "args": {"path": "a.js", "old_str": "{", "new_str": "{ "}}',
    tool: 'ws_edit',
    args: { path: 'a.js', old_str: '{', new_str: '{ ' },
    repairs: ['prose'],
  },
];

describe('parseCall — accepted outputs', () => {
  it.each(okRows)('$name', (row) => {
    const out = parseCall(row.raw, { tools: TOOLS });
    if (!out.ok) throw new Error(`expected a call, got ${out.error}: ${out.message}`);
    expect(out.call.tool).toBe(row.tool);
    expect(out.call.args).toEqual(row.args);
    expect(out.call.thought).toBe(row.thought);
    expect(out.dropped).toEqual(row.dropped ?? []);
    if (row.repairs) expect([...out.repairs].sort()).toEqual([...row.repairs].sort());
    if (row.kept) expect(out.kept).toBe(row.kept);
  });
});

interface ErrRow {
  name: string;
  raw: string;
  error: string;
  says: RegExp[];
}

const errRows: ErrRow[] = [
  {
    name: 'plain text, no call',
    raw: 'The bug is fixed now.',
    error: 'no-call',
    says: [/no tool call/, /"tool": "done"/],
  },
  { name: 'empty output', raw: '', error: 'no-call', says: [/exactly one JSON object/] },
  {
    name: 'thinking that never ends',
    raw: '<think>I could call {"tool": "ws_read", "args": {"path": "a.js"}} and',
    error: 'no-call',
    says: [/no tool call/],
  },
  {
    name: 'cut off inside a string',
    raw: '{"tool": "ws_write", "args": {"path": "a.js", "content": "function f() {\\n  return',
    error: 'truncated',
    says: [/cut off/, /ws_edit/],
  },
  {
    name: 'code in prose cut off inside a brace is not a cut-off call',
    raw: 'Here is the fix: function f() {\n  return',
    error: 'no-call',
    says: [/no tool call/],
  },
  {
    name: 'missing comma between keys',
    raw: '{"tool": "ws_read" "args": {"path": "a.js"}}',
    error: 'invalid-json',
    says: [/could not be parsed/, /near: \{"tool": "ws_read" "args"/, /Double-quote every key/],
  },
  {
    name: 'single-quoted JSON',
    raw: "{'tool': 'ws_read', 'args': {'path': 'a.js'}}",
    error: 'invalid-json',
    says: [/could not be parsed/, /Double-quote every key/],
  },
  {
    name: 'an object without a tool name',
    raw: '{"path": "a.js", "old_str": "x"}',
    error: 'no-tool-name',
    says: [/no "tool" key/, /keys: path, old_str/],
  },
  {
    name: 'a bare name that is not a tool is not a call',
    raw: '{"name": "Alice"}',
    error: 'no-tool-name',
    says: [/keys: name/],
  },
];

describe('parseCall — unparseable outputs say how to retry', () => {
  it.each(errRows)('$name', (row) => {
    const out = parseCall(row.raw, { tools: TOOLS });
    if (out.ok) throw new Error(`expected an error, got a call to ${out.call.tool}`);
    expect(out.error).toBe(row.error);
    expect(out.message).toContain(CANONICAL_CALL);
    for (const re of row.says) expect(out.message).toMatch(re);
  });

  it('the no-call answer states the final-JSON rule with the done shape', () => {
    const out = parseCall('All done!');
    expect(!out.ok && out.message).toContain(CANONICAL_DONE);
  });
});

describe('droppedCallsText', () => {
  it.each([
    { dropped: ['ws_edit'], says: /1 more call was dropped \(ws_edit\)/ },
    { dropped: ['ws_edit', 'ws_read'], says: /2 more calls were dropped \(ws_edit, ws_read\)/ },
    { dropped: ['done'], says: /Your done was dropped too/ },
  ])('$dropped', ({ dropped, says }) => {
    expect(droppedCallsText(dropped)).toMatch(says);
  });
});
