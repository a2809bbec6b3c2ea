/** Test kit for the file tools: an engine over a seeded memory workspace, result tables, and whole-filesystem snapshots. */
import { expect } from 'vitest';
import { Engine } from '../../src/engine/engine.ts';
import type { ToolResult } from '../../src/engine/result.ts';
import type { EngineSettings } from '../../src/engine/settings.ts';
import { decodeText } from '../../src/engine/text.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { wsRead } from '../../src/engine/tools/ws_read.ts';
import { wsWrite } from '../../src/engine/tools/ws_write.ts';
import { wsReplaceLines } from '../../src/engine/tools/ws_replace_lines.ts';
import { wsMv } from '../../src/engine/tools/ws_mv.ts';
import { wsDelete } from '../../src/engine/tools/ws_delete.ts';
import { wsList } from '../../src/engine/tools/ws_list.ts';
import { wsGlob } from '../../src/engine/tools/ws_glob.ts';
import { wsGrep } from '../../src/engine/tools/ws_grep.ts';

/** The file tools alone, so these tests do not depend on the rest of the registry. */
export const FILE_TOOLS = [wsRead, wsWrite, wsReplaceLines, wsMv, wsDelete, wsList, wsGlob, wsGrep];

/** Seed: path → text (or bytes); a path ending in `/` is an empty directory; `{link: target}` is a symlink. */
export type Seed = Record<string, string | Uint8Array | { link: string }>;

export async function seedWorkspace(seed: Seed, ws = new MemoryWorkspace()): Promise<MemoryWorkspace> {
  for (const [path, v] of Object.entries(seed)) {
    if (path.endsWith('/')) await ws.mkdir(path.slice(0, -1));
    else if (typeof v === 'string') await ws.writeFile(path, new TextEncoder().encode(v));
    else if (v instanceof Uint8Array) await ws.writeFile(path, v);
    else await ws.symlink(v.link, path);
  }
  return ws;
}

/** An engine with the file tools over a memory workspace seeded with `seed`. */
export async function fileEngine(
  seed: Seed = {},
  settings: Partial<EngineSettings> = {},
): Promise<{ engine: Engine; ws: MemoryWorkspace }> {
  const ws = await seedWorkspace(seed);
  // The loop guard would answer the repeated calls some tables make on purpose.
  const engine = new Engine({ workspace: ws, tools: FILE_TOOLS, settings: { loop_guard: false, ...settings } });
  return { engine, ws };
}

/** One row of a tool's table: the call's arguments, whether it succeeds, and what its text must say. */
export interface ResultRow {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly ok: boolean;
  /** Exact text, or pieces it must contain. */
  readonly expected: string | readonly string[];
  /** Pieces it must not contain. */
  readonly excludes?: readonly string[];
}

/** Checks a result against its row (the text is the failure message when `ok` differs). */
export function expectResult(r: ToolResult, row: ResultRow): void {
  expect(r.ok, r.text).toBe(row.ok);
  if (typeof row.expected === 'string') expect(r.text).toBe(row.expected);
  else for (const s of row.expected) expect(r.text).toContain(s);
  for (const s of row.excludes ?? []) expect(r.text).not.toContain(s);
}

/** A file's text, or null when nothing is at `path`. */
export async function readText(ws: MemoryWorkspace, path: string): Promise<string | null> {
  const st = await ws.lstat(path);
  if (!st || st.type !== 'file') return null;
  return decodeText(await ws.readFile(path));
}

/** Every node of the in-memory filesystem (inside and outside the root): path → kind and content. */
export async function snapshotFs(ws: MemoryWorkspace): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const p of [...ws.fs.getAllPaths()].sort()) {
    const st = await ws.fs.lstat(p);
    if (st.isSymbolicLink) out.set(p, `link:${await ws.fs.readlink(p)}`);
    else if (st.isDirectory) out.set(p, 'dir');
    else out.set(p, `file:${await ws.fs.readFile(p)}`);
  }
  return out;
}
