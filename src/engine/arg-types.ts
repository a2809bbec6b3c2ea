/**
 * What type each argument of a tool expects, read off its zod schema, and the coercions small
 * models need: a number sent as a numeric string (`"limit": "3"`), a boolean sent as `"true"` or
 * `"false"`. Only what is unambiguous is coerced, and each coercion is said in a note; anything
 * else reaches zod unchanged, and its message names the argument, the type expected and what
 * was sent.
 */
import type { z } from 'zod';
import type { Note } from './result.ts';

export type ArgType = 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'enum' | 'other';

interface ZodLike {
  readonly _zod: { readonly def: { readonly type: string; readonly innerType?: ZodLike } };
  readonly isInt?: boolean;
  readonly options?: readonly string[];
}

/** The field under optional, default and nullable wrappers. */
function unwrap(field: unknown): ZodLike {
  let f = field as ZodLike;
  while (f._zod.def.innerType && ['optional', 'default', 'nullable', 'prefault', 'readonly'].includes(f._zod.def.type))
    f = f._zod.def.innerType;
  return f;
}

/** The type one field expects, looking through optional, default and nullable wrappers. */
export function argType(field: unknown): ArgType {
  const f = unwrap(field);
  const t = f._zod.def.type;
  if (t === 'number') return f.isInt ? 'integer' : 'number';
  if (t === 'string' || t === 'boolean' || t === 'array' || t === 'object' || t === 'enum') return t;
  return 'other';
}

/** Every argument's expected type, by name. */
export function argTypes(schema: z.ZodType): Record<string, ArgType> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.fromEntries(Object.entries(shape).map(([k, v]) => [k, argType(v)]));
}

const NUMERIC = /^\s*-?\d+(?:\.\d+)?\s*$/;

/** The arguments with unambiguous string forms turned into the numbers and booleans the schema wants. */
export function coerceArgs(
  schema: z.ZodType,
  args: Record<string, unknown>,
): { args: Record<string, unknown>; notes: Note[] } {
  const types = argTypes(schema);
  const out = { ...args };
  const notes: Note[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string') continue;
    const want = types[key];
    let coerced: number | boolean | undefined;
    if ((want === 'integer' || want === 'number') && NUMERIC.test(value)) {
      const n = Number(value);
      if (want === 'number' || Number.isInteger(n)) coerced = n;
    } else if (want === 'boolean' && (value === 'true' || value === 'false')) coerced = value === 'true';
    if (coerced === undefined) continue;
    out[key] = coerced;
    notes.push({
      kind: 'coerced',
      text: `${key}: the string ${JSON.stringify(value)} was read as the ${want} ${String(coerced)}; send it without quotes`,
      detail: key,
    });
  }
  return { args: out, notes };
}

/** How a type is named in a message. */
export function typeName(t: ArgType): string {
  switch (t) {
    case 'integer':
      return 'an integer (a number without quotes, e.g. 120)';
    case 'number':
      return 'a number (without quotes)';
    case 'boolean':
      return 'true or false (without quotes)';
    case 'string':
      return 'a string (in double quotes)';
    case 'array':
      return 'a JSON array [ … ]';
    case 'object':
      return 'a JSON object { … }';
    case 'enum':
      return 'one of the listed values';
    default:
      return 'another type';
  }
}

/** How a sent value is described in a message: its JSON type and a short form of it. */
export function describeValue(v: unknown): string {
  const shown = JSON.stringify(v) ?? String(v);
  const short = shown.length > 40 ? `${shown.slice(0, 39)}…` : shown;
  if (v === null) return 'null';
  if (Array.isArray(v)) return `an array ${short}`;
  if (typeof v === 'string') return `the string ${short}`;
  if (typeof v === 'number') return `the number ${short}`;
  if (typeof v === 'boolean') return `the boolean ${short}`;
  return `an object ${short}`;
}

/** Example values by common argument name; others get one of their type. */
const EXAMPLES: Readonly<Record<string, unknown>> = {
  path: 'src/index.js',
  old_str: 'the exact text to replace',
  new_str: 'the new text',
  content: 'the whole file text',
  command: 'npm test',
  pattern: 'TODO',
  from: 'src/old.js',
  to: 'src/new.js',
  offset: 1,
  limit: 120,
  start_line: 10,
  end_line: 12,
  summary: 'what you changed and how you checked it',
};

/** A call's arguments with an example value of the right type for each (an enum's first value). */
export function exampleArgs(schema: z.ZodType): Record<string, unknown> {
  const shape = (schema as { shape?: Record<string, unknown> }).shape ?? {};
  return Object.fromEntries(
    Object.entries(shape).map(([k, field]) => {
      const f = unwrap(field);
      return [k, f._zod.def.type === 'enum' && f.options?.length ? f.options[0] : exampleValue(k, argType(field))];
    }),
  );
}

function exampleValue(key: string, t: ArgType): unknown {
  const known = EXAMPLES[key];
  if (known !== undefined && (typeof known === 'number' ? t === 'integer' || t === 'number' : t === 'string'))
    return known;
  switch (t) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '…';
  }
}
