/**
 * The tool form is generated from the tool's input JSON schema (the same zod schema the model
 * is given): one field per property, in declaration order. Values are kept as the inputs hold
 * them (strings, and booleans for checkboxes) and turned into call arguments only on Call, so
 * a half-typed number never destroys what the person typed.
 */
import type { JsonSchema } from '../../worker/client.ts';

export type FieldKind = 'text' | 'longtext' | 'number' | 'integer' | 'boolean' | 'enum' | 'json';

export interface FormField {
  readonly name: string;
  readonly kind: FieldKind;
  readonly required: boolean;
  readonly description?: string;
  /** The allowed values of an enum field. */
  readonly options?: readonly string[];
  /** The schema's default, shown as a hint (the engine applies it when the field is omitted). */
  readonly defaultValue?: unknown;
}

/** What an input holds: text for every kind but `boolean`. */
export type FieldValue = string | boolean;

export type FormValues = Readonly<Record<string, FieldValue>>;

/** Argument names whose text usually spans lines (file bodies, search/replace spans, diffs). */
const LONG_TEXT = new Set([
  'content',
  'contents',
  'old_str',
  'new_str',
  'patch',
  'diff',
  'hunk',
  'body',
  'text',
  'old',
  'new',
  'search',
  'replace',
]);

function kindOf(name: string, prop: Record<string, unknown>): FieldKind {
  if (Array.isArray(prop.enum) && prop.enum.every((v) => typeof v === 'string')) return 'enum';
  switch (prop.type) {
    case 'string':
      return LONG_TEXT.has(name) || (typeof prop.maxLength === 'number' && prop.maxLength > 200) ? 'longtext' : 'text';
    case 'integer':
      return 'integer';
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    default:
      // Arrays, objects, unions ("type": [...]) and anything else: typed as JSON.
      return 'json';
  }
}

/** The fields of a tool's input schema; an absent or non-object schema gives no fields (the console then offers raw JSON). */
export function fieldsOf(schema: JsonSchema | null): FormField[] {
  const props = schema?.properties;
  if (!props || typeof props !== 'object') return [];
  const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : []);
  return Object.entries(props as Record<string, Record<string, unknown>>).map(([name, prop]) => ({
    name,
    kind: kindOf(name, prop),
    required: required.has(name),
    ...(typeof prop.description === 'string' ? { description: prop.description } : {}),
    ...(Array.isArray(prop.enum) ? { options: prop.enum as string[] } : {}),
    ...('default' in prop ? { defaultValue: prop.default } : {}),
  }));
}

/** Empty inputs, except checkboxes, which start at the schema's default. */
export function initialValues(fields: readonly FormField[]): Record<string, FieldValue> {
  return Object.fromEntries(fields.map((f) => [f.name, f.kind === 'boolean' ? f.defaultValue === true : '']));
}

export type BuiltArgs =
  | { readonly ok: true; readonly args: Record<string, unknown> }
  | { readonly ok: false; readonly errors: Readonly<Record<string, string>> };

/**
 * The call arguments the form stands for. An empty optional field is left out (the tool's
 * default applies); an empty required text field is sent as "" so the engine's own message
 * explains it. Only what cannot be sent at all (a number that is not one, JSON that does not
 * parse) is refused here.
 */
export function buildArgs(fields: readonly FormField[], values: FormValues): BuiltArgs {
  const args: Record<string, unknown> = {};
  const errors: Record<string, string> = {};
  for (const f of fields) {
    const v = values[f.name];
    if (f.kind === 'boolean') {
      if (v === true) args[f.name] = true;
      else if (f.required) args[f.name] = false;
      continue;
    }
    const text = typeof v === 'string' ? v : '';
    if (text === '') {
      if (f.required && (f.kind === 'text' || f.kind === 'longtext')) args[f.name] = '';
      continue;
    }
    switch (f.kind) {
      case 'text':
      case 'longtext':
      case 'enum':
        args[f.name] = text;
        break;
      case 'number':
      case 'integer': {
        const n = Number(text.trim());
        if (text.trim() === '' || !Number.isFinite(n)) errors[f.name] = `${JSON.stringify(text)} is not a number`;
        else args[f.name] = n;
        break;
      }
      case 'json':
        try {
          args[f.name] = JSON.parse(text);
        } catch (e) {
          errors[f.name] = `not valid JSON (${e instanceof Error ? e.message : String(e)})`;
        }
        break;
      default: {
        const never: never = f.kind;
        throw new TypeError(`buildArgs: unknown field kind ${String(never)}`);
      }
    }
  }
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, args };
}

/** Parses the raw-JSON editor. Any JSON value is sent as typed: the engine answers a non-object itself. */
export function parseRawArgs(text: string): { ok: true; args: unknown } | { ok: false; error: string } {
  try {
    return { ok: true, args: JSON.parse(text) };
  } catch (e) {
    return {
      ok: false,
      error: `The arguments are not valid JSON (${e instanceof Error ? e.message : String(e)}). Fix them, or switch back to the form.`,
    };
  }
}
