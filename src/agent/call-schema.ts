/**
 * Tool schemas for the model, from the same zod schemas the engine validates with
 * (`z.toJSONSchema`): a compact one-line rendering for the tool cards, and the JSON schema of a
 * whole call `{"thought"?, "tool", "args"}` for JSON mode (WebLLM's xgrammar, an endpoint's
 * `response_format`). `done` is the loop's own tool and is described here too.
 */
import { z } from 'zod';
import type { ToolDef } from '../engine/tool.ts';

/** The loop's final tool: ends the run with a summary. */
export const DONE_TOOL = 'done';
const DONE_SUMMARY = 'Finish the run with a summary of what you changed';
/** The tool done runs the tests with, when the engine has it. */
export const TEST_TOOL = 'ws_test';
export const doneSchema = z.object({ summary: z.string().trim().min(1, 'summary must say what you changed') }).strict();

/** What the schema builders need of a tool: its name, one-line contract and argument schema. */
export interface ToolSpec {
  readonly name: string;
  readonly summary: string;
  readonly schema: z.ZodType;
}

/** The tool list the model sees: the engine's tools in registry order, then done. */
export function toolSpecs(tools: Iterable<ToolDef<any>>): ToolSpec[] {
  const specs: ToolSpec[] = [...tools].map((t) => ({ name: t.name, summary: t.summary, schema: t.schema }));
  const summary = specs.some((t) => t.name === TEST_TOOL)
    ? `${DONE_SUMMARY}; the tests run one last time`
    : DONE_SUMMARY;
  return [...specs, { name: DONE_TOOL, summary, schema: doneSchema }];
}

type JsonSchema = { [key: string]: unknown };

/** The input-side JSON schema of one tool's arguments, without `$schema` and zod's safe-integer bounds. */
export function argsJsonSchema(schema: z.ZodType): JsonSchema {
  const json = z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete json.$schema;
  return stripSafeIntegerBounds(json) as JsonSchema;
}

/** `{path: string, offset?: integer, mode?: "a"|"b"}` — the arguments on one line. */
export function compactArgs(schema: z.ZodType): string {
  return compactJsonArgs(argsJsonSchema(schema));
}

/**
 * The same one-line form for an object's JSON schema as it came (an MCP server's `inputSchema`,
 * untrusted: anything that is not a schema reads as `any`, and nesting is read 8 levels deep).
 */
export function compactJsonArgs(json: JsonSchema): string {
  const props = isObject(json.properties) ? (json.properties as Record<string, unknown>) : {};
  const required = new Set(Array.isArray(json.required) ? json.required : []);
  const fields = Object.entries(props).map(([k, v]) => `${k}${required.has(k) ? '' : '?'}: ${typeName(v, 8)}`);
  return `{${fields.join(', ')}}`;
}

function isObject(v: unknown): v is JsonSchema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The JSON schema of one call: any tool by its exact name with that tool's arguments. */
export function callJsonSchema(specs: readonly ToolSpec[]): JsonSchema {
  return {
    anyOf: specs.map((s) => ({
      type: 'object',
      // `thought` first: in constrained decoding the model writes its reason before committing to a tool.
      properties: { thought: { type: 'string' }, tool: { const: s.name }, args: argsJsonSchema(s.schema) },
      required: ['tool', 'args'],
    })),
  };
}

function typeName(s: unknown, depth: number): string {
  if (!isObject(s) || depth <= 0) return 'any';
  if (Array.isArray(s.enum)) return s.enum.map((v) => JSON.stringify(v)).join('|');
  if ('const' in s) return JSON.stringify(s.const);
  const alts = s.anyOf ?? s.oneOf;
  // Each type once: `string|object[]`, not `string|object[]|string` for a union that lists string twice.
  if (Array.isArray(alts)) return [...new Set(alts.flatMap((a) => typeName(a, depth - 1).split('|')))].join('|');
  if (s.type === 'array') return `${typeName(s.items ?? {}, depth - 1)}[]`;
  if (Array.isArray(s.type)) return s.type.join('|');
  return typeof s.type === 'string' ? s.type : 'any';
}

function stripSafeIntegerBounds(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(stripSafeIntegerBounds);
  if (!v || typeof v !== 'object') return v;
  const out: JsonSchema = {};
  for (const [k, x] of Object.entries(v)) {
    if ((k === 'maximum' && x === Number.MAX_SAFE_INTEGER) || (k === 'minimum' && x === Number.MIN_SAFE_INTEGER))
      continue;
    out[k] = stripSafeIntegerBounds(x);
  }
  return out;
}
