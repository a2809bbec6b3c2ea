/**
 * The naive harness as an engine: the harness of the per-step "ACI off" column
 * (aci-off-harness.ts) driving a live trajectory, as the eval's `off` arm runs it. Its file
 * tools are the harness's own — exact-match str_replace, whole-file reads, unguarded writes, no
 * truncation, no syntax check — run on the workspace's files, and what they write is written to
 * the workspace. Commands, git, the todo list and skills involve no ACI guard, so they go
 * through the engine itself, under the session's settings; the command policy and the OS
 * sandbox stay, as they keep the host safe rather than steer the model.
 *
 * A record says which harness answered its tools (`harness`, from `engineHarness`);
 * `harnessEngine` builds that one, so a replay (or a continuation) answers every step as the run did.
 */
import { createEngine } from '../engine/create.ts';
import { Engine, type CallOptions } from '../engine/engine.ts';
import type { ToolResult } from '../engine/result.ts';
import type { EngineSettings } from '../engine/settings.ts';
import { encodeText } from '../engine/text.ts';
import { CODING_TOOLS } from '../engine/tools/index.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import type { Workspace } from '../engine/workspace.ts';
import { runNaive, type NaiveChange } from './aci-off-harness.ts';
import type { Harness } from './record.ts';
import { textFiles } from './tree.ts';

/** The file tools the naive harness answers itself. */
export const NAIVE_TOOLS: ReadonlySet<string> = new Set([
  'ws_read',
  'ws_write',
  'ws_edit',
  'ws_replace_lines',
  'ws_patch',
  'ws_list',
  'ws_glob',
  'ws_grep',
  'ws_mv',
  'ws_delete',
]);

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
    return {
      ok: outcome.ok,
      text: outcome.text,
      notes: [],
      changes: written.map(({ path, before, after }) => ({ path, before, after })),
    };
  }
}

async function apply(ws: Workspace, change: NaiveChange): Promise<void> {
  if (change.after === null) await ws.remove(change.path);
  else await ws.writeFile(change.path, encodeText(change.after));
}

/** Each harness as the page names it beside a session's model. */
export const HARNESS_LABELS: Readonly<Record<Harness, string>> = Object.freeze({ naive: 'naive harness (ACI off)' });

/** The harness that answers `engine`'s tools, as its record names it; undefined for the engine itself. */
export function engineHarness(engine: Engine): Harness | undefined {
  return engine instanceof NaiveEngine ? 'naive' : undefined;
}

/** The engine over `ws` that answers tools as `harness` does: the naive harness, or (absent) the engine itself. */
export function harnessEngine(
  ws: Workspace,
  settings: Partial<EngineSettings>,
  harness: Harness | undefined,
  outside?: OutsideAccess,
): Engine {
  if (harness === 'naive') return new NaiveEngine({ workspace: ws, tools: CODING_TOOLS, settings });
  return createEngine(ws, settings, outside ? { outside } : {});
}
