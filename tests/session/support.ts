/**
 * Shared pieces of the session tests: a recorded scripted run over a real engine and a real
 * workspace, and a link made from any JSON value (to feed the decoder what no encoder writes).
 */
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { createEngine } from '../../src/engine/create.ts';
import type { Engine } from '../../src/engine/engine.ts';
import { encodeText } from '../../src/engine/text.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { deflateRaw } from '../../src/session/compress.ts';
import type { Session } from '../../src/session/record.ts';
import { recordRun, type RecordOptions } from '../../src/session/recorder.ts';
import { toBase64Url } from '../../src/session/share-codec.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';

export const MATH = 'export function add(a, b) {\n  return a - b;\n}\n';

/** The three raw outputs of a small fix: read, edit, done. */
export const FIX_OUTPUTS: readonly string[] = [
  '{"tool": "ws_read", "args": {"path": "src/math.js"}}',
  '{"tool": "ws_edit", "args": {"path": "src/math.js", "old_str": "  return a - b;", "new_str": "  return a + b;"}}',
  '{"tool": "done", "args": {"summary": "add adds"}}',
];

/** A memory workspace holding `files`. */
export async function workspaceWith(files: Readonly<Record<string, string>>): Promise<MemoryWorkspace> {
  const ws = new MemoryWorkspace();
  for (const [path, text] of Object.entries(files)) await ws.writeFile(path, encodeText(text));
  return ws;
}

export interface RecordSpec {
  readonly outputs: readonly string[];
  readonly workspace?: Workspace;
  readonly engine?: (ws: Workspace) => Engine;
  readonly loop?: Partial<RecordOptions>;
}

/** Records a scripted run (default: the small fix over src/math.js in memory). */
export async function recordScript(spec: RecordSpec = { outputs: FIX_OUTPUTS }): Promise<Session> {
  const ws = spec.workspace ?? (await workspaceWith({ 'src/math.js': MATH }));
  const { session } = await recordRun({
    engine: spec.engine ? spec.engine(ws) : createEngine(ws),
    model: new ScriptedModel(spec.outputs),
    task: 'Make add add.',
    createdAt: '2025-01-01T00:00:00.000Z',
    ...spec.loop,
  });
  return session;
}

/** The encoded form of any JSON value, as a link would carry it. */
export async function encodeJson(value: unknown): Promise<string> {
  return toBase64Url(await deflateRaw(encodeText(typeof value === 'string' ? value : JSON.stringify(value))));
}

/** A deep copy to tamper with. */
export function copy<T>(value: T): T {
  return structuredClone(value);
}
