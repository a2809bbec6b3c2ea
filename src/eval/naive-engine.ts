/**
 * The `off` arm's engine: the naive harness of the per-step "ACI off" column
 * (session/aci-off-harness.ts) driving a live trajectory. Its file tools are the harness's own —
 * exact-match str_replace, whole-file reads, unguarded writes, no truncation, no syntax check —
 * run on the workspace's files, and what they write is written to the workspace. Commands,
 * git, the todo list and skills involve no ACI guard, so they go through the engine itself,
 * under the `off` settings (nothing cut, no loop guard); the command policy and the OS sandbox
 * stay, as they keep the host safe rather than steer the model.
 */
import { Engine, type CallOptions } from '../engine/engine.ts';
import { createEngine } from '../engine/create.ts';
import type { ToolResult } from '../engine/result.ts';
import { encodeText } from '../engine/text.ts';
import { CODING_TOOLS } from '../engine/tools/index.ts';
import type { Workspace } from '../engine/workspace.ts';
import { runNaive, type NaiveChange } from '../session/aci-off-harness.ts';
import { OFF_SETTINGS } from './arms.ts';
import { textFiles } from './grade.ts';

/** The file tools the naive harness answers itself. */
export const NAIVE_TOOLS: ReadonlySet<string> = new Set(['ws_read', 'ws_write', 'ws_edit', 'ws_replace_lines', 'ws_patch', 'ws_list', 'ws_glob', 'ws_grep', 'ws_mv', 'ws_delete']);

export class NaiveEngine extends Engine {
  override async call(name: string, rawArgs: unknown, options: CallOptions = {}): Promise<ToolResult> {
    if (!NAIVE_TOOLS.has(name)) return super.call(name, rawArgs, options);
    // The harness reads a call in its own input form: the canonical call text.
    const outcome = runNaive(JSON.stringify({ tool: name, args: rawArgs ?? {} }), await textFiles(this.workspace));
    const written = outcome.changes.filter((c) => !c.outside);
    try {
      for (const change of written) await apply(this.workspace, change);
    } catch (e) {
      return { ok: false, text: `Error: ${(e as Error).message}`, notes: [], changes: [] };
    }
    return { ok: outcome.ok, text: outcome.text, notes: [], changes: written.map(({ path, before, after }) => ({ path, before, after })) };
  }
}

async function apply(ws: Workspace, change: NaiveChange): Promise<void> {
  if (change.after === null) await ws.remove(change.path);
  else await ws.writeFile(change.path, encodeText(change.after));
}

/** The engine of an arm over `ws`: the naive harness for `off`, else the engine with the arm's settings. */
export function armEngine(ws: Workspace, arm: { readonly settings: object; readonly naive: boolean }, base: { readonly context_window_tokens: number }): Engine {
  const settings = { ...base, ...arm.settings };
  if (!arm.naive) return createEngine(ws, settings);
  return new NaiveEngine({ workspace: ws, tools: CODING_TOOLS, settings: { ...base, ...OFF_SETTINGS } });
}
