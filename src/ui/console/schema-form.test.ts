/** The generated tool form: schema → fields, and form values → call arguments, one row per rule. */
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { buildArgs, fieldsOf, initialValues, parseRawArgs, type FieldKind, type FormField } from './schema-form.ts';

/** A schema shaped like the ws_* tools', converted exactly as the worker converts them. */
const schema = z.toJSONSchema(
  z.object({
    path: z.string().describe('project-relative path'),
    old_str: z.string(),
    offset: z.number().int().min(1).optional(),
    ratio: z.number().optional(),
    replace_all: z.boolean().default(false),
    mode: z.enum(['a', 'b']).optional(),
    items: z.array(z.object({ text: z.string() })).optional(),
    either: z.union([z.string(), z.number()]).optional(),
    note: z.string().max(500).optional(),
  }),
  { io: 'input' },
);

describe('fieldsOf', () => {
  const fields = fieldsOf(schema);
  const byName = (n: string) => fields.find((f) => f.name === n)!;
  it.each<[string, FieldKind, boolean]>([
    ['path', 'text', true],
    ['old_str', 'longtext', true],
    ['offset', 'integer', false],
    ['ratio', 'number', false],
    ['replace_all', 'boolean', false],
    ['mode', 'enum', false],
    ['items', 'json', false],
    ['either', 'json', false],
    ['note', 'longtext', false],
  ])('%s → %s, required %s', (name, kind, required) => {
    expect(byName(name)).toMatchObject({ kind, required });
  });

  it('keeps declaration order, descriptions, options and defaults', () => {
    expect(fields.map((f) => f.name)).toEqual([
      'path',
      'old_str',
      'offset',
      'ratio',
      'replace_all',
      'mode',
      'items',
      'either',
      'note',
    ]);
    expect(byName('path').description).toBe('project-relative path');
    expect(byName('mode').options).toEqual(['a', 'b']);
    expect(byName('replace_all').defaultValue).toBe(false);
  });

  it.each([
    ['null', null],
    ['a schema without properties', { type: 'string' }],
  ])('%s gives no fields', (_label, s) => {
    expect(fieldsOf(s)).toEqual([]);
  });
});

describe('buildArgs', () => {
  const f = (name: string, kind: FieldKind, required: boolean): FormField => ({ name, kind, required });
  it.each<[string, FormField, string | boolean, Record<string, unknown>]>([
    ['a text value is sent as typed', f('path', 'text', true), 'src/a.js', { path: 'src/a.js' }],
    ['an empty required text is sent as "" for the engine to explain', f('path', 'text', true), '', { path: '' }],
    ['an empty optional text is left out', f('glob', 'text', false), '', {}],
    ['long text keeps newlines and spaces', f('new_str', 'longtext', true), '  a\n  b\n', { new_str: '  a\n  b\n' }],
    ['a number is parsed', f('offset', 'integer', false), ' 12 ', { offset: 12 }],
    ['an empty number is left out, even when required', f('start', 'integer', true), '', {}],
    ['a checked box is true', f('replace_all', 'boolean', false), true, { replace_all: true }],
    ['an unchecked optional box is left out', f('replace_all', 'boolean', false), false, {}],
    ['an unchecked required box is false', f('flag', 'boolean', true), false, { flag: false }],
    ['an enum value is sent', f('mode', 'enum', false), 'b', { mode: 'b' }],
    ['JSON is parsed', f('items', 'json', false), '[{"text":"x"}]', { items: [{ text: 'x' }] }],
  ])('%s', (_label, field, value, args) => {
    expect(buildArgs([field], { [field.name]: value })).toEqual({ ok: true, args });
  });

  it.each<[string, FormField, string, RegExp]>([
    ['text in a number field', f('offset', 'integer', false), 'ten', /^"ten" is not a number$/],
    ['JSON that does not parse', f('items', 'json', false), '[1,', /^not valid JSON \(/],
  ])('refuses %s, naming the field', (_label, field, value, message) => {
    const built = buildArgs([field], { [field.name]: value });
    expect(built.ok).toBe(false);
    if (!built.ok) expect(built.errors[field.name]).toMatch(message);
  });
});

describe('initialValues', () => {
  it('starts text empty and checkboxes at their default', () => {
    expect(initialValues(fieldsOf(schema))).toMatchObject({ path: '', old_str: '', replace_all: false, items: '' });
    expect(initialValues([{ name: 'on', kind: 'boolean', required: false, defaultValue: true }])).toEqual({ on: true });
  });
});

describe('parseRawArgs', () => {
  it.each([
    ['an object', '{"path":"a.js"}', { ok: true, args: { path: 'a.js' } }],
    ['a non-object (the engine answers it)', '"a.js"', { ok: true, args: 'a.js' }],
  ])('passes %s through', (_label, text, out) => {
    expect(parseRawArgs(text)).toEqual(out);
  });

  it('names broken JSON and the way back', () => {
    const r = parseRawArgs('{path: a.js}');
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toMatch(/^The arguments are not valid JSON \(.+\)\. Fix them, or switch back to the form\.$/);
  });
});
