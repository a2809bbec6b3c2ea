/**
 * Small real tools for the loop's rule tests: each records its calls, so a test can assert
 * what ran and what did not. They go into a real Engine over a MemoryWorkspace.
 */
import { z } from 'zod';
import { Engine } from '../../src/engine/engine.ts';
import { ok, type ToolResult } from '../../src/engine/result.ts';
import { defineTool, type ToolDef } from '../../src/engine/tool.ts';
import type { EngineSettings } from '../../src/engine/settings.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';

export interface Probe {
  readonly calls: { tool: string; args: unknown }[];
}

/** `echo {text}`: returns its text (read-only). */
export function echoTool(probe: Probe): ToolDef<any> {
  return defineTool({
    name: 'echo',
    summary: 'Echo the text back',
    writes: false,
    schema: z.object({ text: z.string() }),
    run: async (args) => {
      probe.calls.push({ tool: 'echo', args });
      return ok(args.text);
    },
  });
}

/** `touch {path}`: a mutating tool (ToolDef.writes) that writes an empty-ish file. */
export function touchTool(probe: Probe): ToolDef<any> {
  return defineTool({
    name: 'touch',
    summary: 'Create a file',
    writes: true,
    schema: z.object({ path: z.string() }),
    run: async (args, ctx) => {
      probe.calls.push({ tool: 'touch', args });
      await ctx.ws.writeFile(args.path, new TextEncoder().encode('x\n'));
      return ok(`created ${args.path}`);
    },
  });
}

/** A tool that only answers `ran NAME`, standing in for a tool of that name. */
export function namedTool(name: string, writes = false): ToolDef<any> {
  return defineTool({
    name,
    summary: `Stand-in for ${name}`,
    writes,
    schema: z.object({}).passthrough(),
    run: async () => ok(`ran ${name}`),
  });
}

/** `ws_shell {command}`: read-only like the real one; answers with a fixed line. */
export function shellTool(probe: Probe, output = 'ran'): ToolDef<any> {
  return defineTool({
    name: 'ws_shell',
    summary: 'Run one command (bounded)',
    writes: false,
    schema: z.object({ command: z.string() }),
    run: async (args) => {
      probe.calls.push({ tool: 'ws_shell', args });
      return ok(output);
    },
  });
}

/** `ws_test {}`: replays test outputs in order, repeating the last. */
export function testTool(probe: Probe, outputs: readonly string[]): ToolDef<any> {
  let i = 0;
  return defineTool({
    name: 'ws_test',
    summary: 'Run the tests and report the pass/fail tally',
    writes: false,
    schema: z.object({}),
    run: async (args): Promise<ToolResult> => {
      probe.calls.push({ tool: 'ws_test', args });
      const text = outputs[Math.min(i++, outputs.length - 1)] ?? '';
      return ok(text);
    },
  });
}

export function engineWith(
  tools: readonly ToolDef<any>[],
  settings?: Partial<EngineSettings>,
): { engine: Engine; ws: MemoryWorkspace } {
  const ws = new MemoryWorkspace();
  return { engine: new Engine({ workspace: ws, tools, ...(settings && { settings }) }), ws };
}

/** A canonical call as a model would write it. */
export function call(tool: string, args: Record<string, unknown> = {}): string {
  return JSON.stringify({ tool, args });
}

export const DONE = call('done', { summary: 'finished' });
