/**
 * Workspaces that can run commands, for the ws_shell and ws_test tables: the memory backend
 * (just-bash, with `node` run by real Node over a temporary copy — node-runner.ts) and the Node
 * backend (a temporary directory, real processes). Both are seeded from the same files, so one
 * table row checks both.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Engine } from '../../src/engine/engine.ts';
import type { EngineSettings } from '../../src/engine/settings.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { NodeJsEngine } from '../../src/workspace/memory/node-runner.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { useNodeWasm } from './node-wasm.ts';

export type BackendName = 'memory' | 'node';
export const BACKENDS: readonly BackendName[] = ['memory', 'node'];

const dirs: string[] = [];

/** Removes the Node backends' temporary directories (call from afterAll). */
export async function cleanupBackends(): Promise<void> {
  await Promise.all(dirs.splice(0).map((d) => rm(d, { recursive: true, force: true })));
}

/** A fresh workspace of `kind` holding `files` (path → text). */
export async function shellWorkspace(kind: BackendName, files: Readonly<Record<string, string>>): Promise<Workspace> {
  let ws: Workspace;
  if (kind === 'memory') ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));
  else {
    const dir = await mkdtemp(join(tmpdir(), 'slm-shell-'));
    dirs.push(dir);
    ws = await NodeWorkspace.open(dir);
  }
  for (const [path, text] of Object.entries(files)) await ws.writeFile(path, new TextEncoder().encode(text));
  return ws;
}

/** An engine with the whole coding tool set over `ws` (the loop guard off: tables repeat calls on purpose). */
export function shellEngine(ws: Workspace, settings: Partial<EngineSettings> = {}): Engine {
  useNodeWasm();
  return new Engine({ workspace: ws, tools: CODING_TOOLS, settings: { loop_guard: false, ...settings } });
}
