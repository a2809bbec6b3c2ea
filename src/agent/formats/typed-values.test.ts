/**
 * XML-style values read by the tool's schema: one row per rule of typed-values.ts, then each
 * XML-style format through parseCall with the real tools' schemas — converted values are noted
 * as a repair, and what does not convert stays text for the engine to refuse.
 */
import { describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/create.ts';
import { MemoryWorkspace } from '../../workspace/memory/memory-workspace.ts';
import { argsJsonSchema, toolSpecs } from '../call-schema.ts';
import { parseCall } from '../parse.ts';
import { typedValuesText, typeTextValues } from './typed-values.ts';

const schemaOf = (properties: Record<string, unknown>) => ({ type: 'object', properties });
const ARRAY_OR_STRING = { anyOf: [{ type: 'array', items: { type: 'string' } }, { type: 'string' }] };

describe('each value is read by the type its argument has', () => {
  it.each([
    ['a string stays text as written', { type: 'string' }, ' 123 ', ' 123 ', null],
    ['an enum of strings stays text', { enum: ['a', 'b'] }, 'a', 'a', null],
    ['an array is JSON text', { type: 'array' }, '["a", "b"]', ['a', 'b'], 'array'],
    ['an array with whitespace around it', { type: 'array' }, '\n  [1, 2]\n', [1, 2], 'array'],
    ['an object is JSON text', { type: 'object' }, '{"a": 1}', { a: 1 }, 'object'],
    ['array-or-string: JSON array text becomes the array', ARRAY_OR_STRING, '[ "x" ]', ['x'], 'array'],
    ['array-or-string: other text stays text', ARRAY_OR_STRING, '- buy milk', '- buy milk', null],
    ['array-or-string: broken JSON stays text', ARRAY_OR_STRING, '["x", ', '["x", ', null],
    ['an array refuses an object', { type: 'array' }, '{"a": 1}', '{"a": 1}', null],
    ['an array refuses text that is not JSON', { type: 'array' }, 'a, b', 'a, b', null],
    ['boolean true', { type: 'boolean' }, 'true', true, 'boolean'],
    ['boolean True (Python)', { type: 'boolean' }, 'True', true, 'boolean'],
    ['boolean false', { type: 'boolean' }, 'false', false, 'boolean'],
    ['boolean False (Python)', { type: 'boolean' }, ' False\n', false, 'boolean'],
    ['a boolean refuses yes', { type: 'boolean' }, 'yes', 'yes', null],
    ['a boolean refuses TRUE', { type: 'boolean' }, 'TRUE', 'TRUE', null],
    ['an integer', { type: 'integer' }, '120', 120, 'integer'],
    ['a negative integer', { type: 'integer' }, '-3', -3, 'integer'],
    ['an integer refuses a fraction', { type: 'integer' }, '1.5', '1.5', null],
    ['an integer refuses words', { type: 'integer' }, 'ten', 'ten', null],
    ['a number takes a fraction', { type: 'number' }, '0.25', 0.25, 'number'],
    ['a number takes an exponent', { type: 'number' }, '1e3', 1000, 'number'],
    ['a number refuses a hex literal', { type: 'number' }, '0x10', '0x10', null],
    ['null where allowed', { type: ['integer', 'null'] }, 'None', null, 'null'],
    ['null where not allowed stays text', { type: 'integer' }, 'null', 'null', null],
  ])('%s', (_rule, prop, text, value, type) => {
    const r = typeTextValues({ v: text }, schemaOf({ v: prop }));
    expect(r.args.v).toEqual(value);
    expect(r.typed).toEqual(type ? [{ key: 'v', type }] : []);
  });

  it('leaves an argument the schema does not name, and everything when there is no schema', () => {
    expect(typeTextValues({ x: '1' }, schemaOf({ v: { type: 'integer' } })).args).toEqual({ x: '1' });
    expect(typeTextValues({ v: '1' }, undefined)).toEqual({ args: { v: '1' }, typed: [] });
  });

  it('says what it converted', () => {
    expect(
      typedValuesText([
        { key: 'items', type: 'array' },
        { key: 'offset', type: 'integer' },
      ]),
    ).toBe('items as an array, offset as an integer');
  });
});

const specs = toolSpecs(createEngine(new MemoryWorkspace()).tools.values());
const schemas = new Map(specs.map((s) => [s.name, argsJsonSchema(s.schema)]));
const tools = specs.map((s) => s.name);

describe('through parseCall, in each XML-style format', () => {
  it.each([
    [
      'Qwen3-Coder',
      '<tool_call>\n<function=ws_todo>\n<parameter=items>\n[{"text": "Buy", "done": false}]\n</parameter>\n</function>\n</tool_call>',
      'qwen3-xml',
      { tool: 'ws_todo', args: { items: [{ text: 'Buy', done: false }] } },
      'items as an array',
    ],
    [
      'Nemotron',
      '<tool_call>\n<function=ws_grep>\n<parameter=pattern>\nTODO\n</parameter>\n<parameter=case_insensitive>\nTrue\n</parameter>\n</function>\n</tool_call>',
      'qwen3-xml',
      { tool: 'ws_grep', args: { pattern: 'TODO', case_insensitive: true } },
      'case_insensitive as a boolean',
    ],
    [
      'Seed-OSS',
      '<seed:tool_call>\n<function=ws_read>\n<parameter=path>src/a.js</parameter>\n<parameter=offset>40</parameter>\n</function>\n</seed:tool_call>',
      'qwen3-xml',
      { tool: 'ws_read', args: { path: 'src/a.js', offset: 40 } },
      'offset as an integer',
    ],
    [
      'MiniCPM',
      '<function name="ws_edit"><param name="path">a.js</param><param name="old_str">1</param><param name="new_str">2</param><param name="replace_all">False</param></function>',
      'minicpm-xml',
      { tool: 'ws_edit', args: { path: 'a.js', old_str: '1', new_str: '2', replace_all: false } },
      'replace_all as a boolean',
    ],
  ])('%s: converted, and noted', (_name, raw, format, call, note) => {
    const out = parseCall(raw, { tools, schemas });
    if (!out.ok) throw new Error(out.message);
    expect(out.format).toBe(format);
    expect(out.call).toEqual(call);
    expect(out.repairs).toContain('typed-values');
    expect(typedValuesText(out.typed ?? [])).toBe(note);
  });

  it('a string argument that looks like a number stays the string (a file named 404)', () => {
    const out = parseCall('<function=ws_read><parameter=path>\n404\n</parameter></function>', { tools, schemas });
    expect(out.ok && out.call.args).toEqual({ path: '404' });
    expect(out.ok && out.repairs).not.toContain('typed-values');
  });

  it('a value that does not convert stays text, and the engine refuses it naming the type', async () => {
    const out = parseCall(
      '<function=ws_read><parameter=path>a.js</parameter><parameter=limit>all</parameter></function>',
      { tools, schemas },
    );
    if (!out.ok) throw new Error(out.message);
    expect(out.call.args).toEqual({ path: 'a.js', limit: 'all' });
    const ws = new MemoryWorkspace();
    await ws.writeFile('a.js', new TextEncoder().encode('x\n'));
    const r = await createEngine(ws).call(out.call.tool, out.call.args);
    expect(r.ok).toBe(false);
    expect(r.text).toMatch(/limit/);
  });

  it('JSON calls are never retyped: their values are already typed', () => {
    const out = parseCall('{"tool": "ws_read", "args": {"path": "a.js", "limit": "5"}}', { tools, schemas });
    expect(out.ok && out.call.args).toEqual({ path: 'a.js', limit: '5' });
  });
});
