/**
 * Values of the XML-style formats (Qwen3-Coder, Nemotron, Seed-OSS, MiniCPM) arrive as text:
 * each is read by the type the tool's JSON schema gives its argument, as vLLM's and llama.cpp's
 * own parsers for these formats do.
 *
 * - An argument that may be a string and is not also an array or object stays text as written
 *   (a path `123` is the string "123").
 * - Arrays and objects: the text is JSON (`[{"text": "Buy"}]`); it converts when JSON gives a
 *   value of a type the schema allows.
 * - Booleans: `true`/`True` and `false`/`False`.
 * - Integers: an optional minus and digits; numbers: any JSON number.
 * - Null, where the schema allows it: `null` or `None`.
 *
 * Surrounding whitespace is ignored for every type but strings. A value that does not convert
 * is left as text, so the tool's own validation refuses it and says which type it wanted; an
 * argument the schema does not name is left as text too.
 */

type JsonSchema = { readonly [key: string]: unknown };

/** One argument the schema's type turned from text into a value. */
export interface TypedValue {
  readonly key: string;
  /** The JSON type it became: array, object, boolean, integer, number or null. */
  readonly type: string;
}

const INTEGER = /^-?\d+$/;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][-+]?\d+)?$/;
const BOOLEANS: Readonly<Record<string, boolean>> = { true: true, True: true, false: false, False: false };

/** The JSON types a schema admits (through anyOf/oneOf, enum and const). */
function typesOf(schema: unknown): Set<string> {
  const out = new Set<string>();
  if (typeof schema !== 'object' || schema === null) return out;
  const s = schema as JsonSchema;
  if (typeof s.type === 'string') out.add(s.type);
  if (Array.isArray(s.type)) for (const t of s.type) if (typeof t === 'string') out.add(t);
  for (const branch of [s.anyOf, s.oneOf])
    if (Array.isArray(branch)) for (const b of branch) for (const t of typesOf(b)) out.add(t);
  const values = [...(Array.isArray(s.enum) ? s.enum : []), ...('const' in s ? [s.const] : [])];
  for (const v of values) out.add(jsonType(v));
  return out;
}

function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  if (typeof v === 'number') return Number.isInteger(v) ? 'integer' : 'number';
  return typeof v;
}

/** `text` as the schema's types read it, or undefined when it stays text. */
function convert(text: string, types: ReadonlySet<string>): { value: unknown; type: string } | undefined {
  const t = text.trim();
  if ((types.has('array') || types.has('object')) && /^[[{]/.test(t)) {
    try {
      const value: unknown = JSON.parse(t);
      const type = jsonType(value);
      if (types.has(type)) return { value, type };
    } catch {
      // Not JSON: stays text.
    }
  }
  if (types.has('string')) return undefined;
  if (types.has('boolean') && t in BOOLEANS) return { value: BOOLEANS[t], type: 'boolean' };
  if (types.has('integer') && INTEGER.test(t)) return { value: Number(t), type: 'integer' };
  if (types.has('number') && NUMBER.test(t)) return { value: Number(t), type: 'number' };
  if (types.has('null') && (t === 'null' || t === 'None')) return { value: null, type: 'null' };
  return undefined;
}

/**
 * Text arguments read by the types `schema` (a tool's arguments as a JSON schema) gives them;
 * `typed` names each argument that changed. Without a schema nothing changes.
 */
export function typeTextValues(
  args: Readonly<Record<string, unknown>>,
  schema: JsonSchema | undefined,
): { args: Record<string, unknown>; typed: TypedValue[] } {
  const props = (schema?.properties ?? {}) as Readonly<Record<string, unknown>>;
  const out: Record<string, unknown> = { ...args };
  const typed: TypedValue[] = [];
  for (const [key, value] of Object.entries(args)) {
    if (typeof value !== 'string' || !Object.hasOwn(props, key)) continue;
    const c = convert(value, typesOf(props[key]));
    if (!c) continue;
    out[key] = c.value;
    typed.push({ key, type: c.type });
  }
  return { args: out, typed };
}

/** The note's wording: "items as an array, replace_all as a boolean". */
export function typedValuesText(typed: readonly TypedValue[]): string {
  const article = (t: string) => (/^[aeiou]/.test(t) ? 'an' : 'a');
  return typed.map((t) => `${t.key} as ${t.type === 'null' ? 'null' : `${article(t.type)} ${t.type}`}`).join(', ');
}
