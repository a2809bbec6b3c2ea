/** The registry: the coding tool set, in the order the prompt's tool cards list them. */
import type { ToolDef } from '../tool.ts';

export const CODING_TOOLS: readonly ToolDef<any>[] = [];
