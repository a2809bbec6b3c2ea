/**
 * The worker side of the protocol: owns one engine session at a time and answers requests in
 * arrival order. Kept apart from engine.worker.ts so the same code runs over a MessageChannel
 * in a Node test.
 */
import { z } from 'zod';
import type { Engine } from '../engine/engine.ts';
import type { ToolDef } from '../engine/tool.ts';
import type { EngineCalls, EngineInfo, EngineRequest, EngineResponse, ToolInfo, WireError } from './protocol.ts';
import { snapshotWorkspace, viewFile } from './workspace-view.ts';

/** One engine over one workspace, plus what the console says about it. */
export interface EngineSession {
  readonly engine: Engine;
  readonly info: EngineInfo;
}

/** Creates a fresh session; called at start-up and on every reset. */
export type SessionFactory = () => Promise<EngineSession>;

/** The part of a worker scope (or a MessagePort) the host uses. */
export interface HostEndpoint {
  postMessage(message: EngineResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
}

/** An error as data. Non-Error throws keep their text. */
export function toWireError(e: unknown): WireError {
  if (e instanceof Error) return { name: e.name, message: e.message, ...(e.stack ? { stack: e.stack } : {}) };
  return { name: 'Error', message: String(e) };
}

/** A tool's card and form data. A schema zod cannot express as JSON Schema gets null, and the console offers raw JSON. */
export function toolInfo(def: ToolDef<unknown>): ToolInfo {
  let inputSchema: ToolInfo['inputSchema'] = null;
  try {
    inputSchema = z.toJSONSchema(def.schema, { io: 'input' }) as ToolInfo['inputSchema'];
  } catch {
    inputSchema = null;
  }
  return { name: def.name, summary: def.summary, writes: def.writes, aliases: { ...def.aliases }, inputSchema };
}

/** Answers requests arriving on `endpoint` until the worker ends. */
export function serveEngine(endpoint: HostEndpoint, newSession: SessionFactory): void {
  let session = newSession();
  // One request at a time: a reset must not swap the engine under a running tool call.
  let queue: Promise<unknown> = session.then(
    (s) => endpoint.postMessage({ type: 'ready', info: s.info }),
    (e: unknown) => endpoint.postMessage({ type: 'fatal', error: toWireError(e) }),
  );

  async function handle(req: EngineRequest): Promise<EngineCalls[EngineRequest['type']]['result']> {
    const { engine } = await session;
    switch (req.type) {
      case 'list-tools':
        return [...engine.tools.values()].map(toolInfo);
      case 'call-tool':
        return engine.call(req.name, req.args);
      case 'file-tree':
        return snapshotWorkspace(engine);
      case 'read-file':
        return viewFile(engine, req.path);
      case 'reset': {
        session = newSession();
        return snapshotWorkspace((await session).engine);
      }
      default: {
        const never: never = req;
        throw new TypeError(`engine worker: unknown request type ${JSON.stringify((never as { type?: unknown }).type)}`);
      }
    }
  }

  endpoint.addEventListener('message', (event) => {
    const req = event.data as EngineRequest;
    queue = queue.then(async () => {
      try {
        endpoint.postMessage({ type: 'result', id: req.id, value: await handle(req) });
      } catch (e) {
        endpoint.postMessage({ type: 'error', id: req.id, error: toWireError(e) });
      }
    });
  });
}
