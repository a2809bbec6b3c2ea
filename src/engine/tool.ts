/**
 * A tool is data: a name, a one-line contract, a zod schema of its canonical arguments,
 * argument aliases the model may use, and `run`. The registry is a list of these; the same
 * schema gives the JSON schema for the model, the validation message and the console form.
 */
import type { z } from 'zod';
import type { ToolResult } from './result.ts';
import type { ToolContext } from './context.ts';

export interface ToolDef<A = unknown> {
  readonly name: string;
  /** The one-line contract from the spec's table, shown on the tool card. */
  readonly summary: string;
  /** True for tools that can change the workspace (approvals, syntax check, .slmcode guard). */
  readonly writes: boolean;
  readonly schema: z.ZodType<A>;
  /** alias → canonical argument name (e.g. old_string → old_str). The canonical key wins when both are present. */
  readonly aliases?: Readonly<Record<string, string>>;
  run(args: A, ctx: ToolContext): Promise<ToolResult>;
}

/** Helper that keeps the argument type of `run` tied to the schema. */
export function defineTool<S extends z.ZodType>(def: {
  name: string;
  summary: string;
  writes: boolean;
  schema: S;
  aliases?: Record<string, string>;
  run(args: z.output<S>, ctx: ToolContext): Promise<ToolResult>;
}): ToolDef<z.output<S>> {
  return def as ToolDef<z.output<S>>;
}
