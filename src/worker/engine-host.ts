/**
 * The worker side of the protocol: owns the console's engine session and the current run
 * (run-host.ts), and answers requests in arrival order. Kept apart from engine.worker.ts so
 * the same code runs over a MessageChannel in a Node test. In the browser it loads after the
 * worker's first chunk (engine-front.ts), which answers the start screen meanwhile.
 */
import { z } from 'zod';
import type { ToolDef } from '../engine/tool.ts';
import { detectGpu } from '../agent/models/gpu.ts';
import { AttachedWorkspace } from './attached-workspace.ts';
import type { SessionFactory } from './engine-session.ts';
import type { EngineCalls, EngineRequest, EngineResponse, ToolInfo } from './protocol.ts';
import { RunHost, runOptions, type RunServices } from './run-host.ts';
import { ladderRungs, rerunWithSettings } from './run-lab.ts';
import { aciOffForStep } from '../session/aci-off.ts';
import { decodeShare, linkReport, shareUrl } from '../session/share-codec.ts';
import { openSessionFile } from './session-run.ts';
import { replayRecords } from './replay-records.ts';
import { EvalHost } from './eval-host.ts';
import { openEvalFiles } from './eval-open.ts';
import { probeEndpoint } from './run-models.ts';
import { checkPaths } from './run-workspace.ts';
import { snapshotWorkspace, viewFile } from './workspace-view.ts';
import { sandboxFrame } from '../workspace/memory/sandbox-frame-link.ts';
import { toWireError } from './wire-error.ts';

export type { EngineSession, SessionFactory } from './engine-session.ts';

/** The part of a worker scope (or a MessagePort) the host uses. */
export interface HostEndpoint {
  postMessage(message: EngineResponse): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
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

/** Answers requests arriving on `endpoint` until the worker ends; runs use `services` for their models. */
export function serveEngine(endpoint: HostEndpoint, newSession: SessionFactory, services: RunServices = {}): void {
  let session = newSession();
  const attached = new AttachedWorkspace();
  const runs = new RunHost((runId, event) => endpoint.postMessage({ type: 'run', runId, event }), {
    ...services,
    attached,
  });
  const evals = new EvalHost((evalId, event) => endpoint.postMessage({ type: 'eval', evalId, event }), services);
  // One request at a time: a reset must not swap the engine under a running tool call.
  let queue: Promise<unknown> = session.then(
    (s) => endpoint.postMessage({ type: 'ready', info: s.info }),
    (e: unknown) => endpoint.postMessage({ type: 'fatal', error: toWireError(e) }),
  );

  async function handle(req: EngineRequest): Promise<EngineCalls[EngineRequest['type']]['result']> {
    // The sandbox frame's port needs no session (and must not wait for one being rebuilt by a reset).
    if (req.type === 'attach-sandbox') return sandboxFrame.attach(req.port);
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
      case 'run-options':
        return runOptions();
      case 'gpu-report':
        return detectGpu();
      case 'check-paths':
        return checkPaths(req.paths);
      case 'probe-endpoint':
        return probeEndpoint(req.baseUrl, req.apiKey, services.fetch);
      case 'webllm-cache':
        return webllm().cached();
      case 'webllm-delete':
        await webllm().deleteCached(req.modelId);
        return webllm().cached();
      case 'gguf-cache':
        return gguf().listCached();
      case 'gguf-delete':
        await gguf().deleteCached(req.url);
        return gguf().listCached();
      case 'start-run':
        return runs.start(req.config);
      case 'control-run':
        return runs.control(req.runId, req.action);
      case 'answer-approval':
        return runs.answer(req.runId, req.askId, req.approved);
      case 'approve-step':
        return runs.approveStep(req.runId, req.step);
      case 'run-tree':
        return runs.tree(req.runId, req.step);
      case 'run-file':
        return runs.file(req.runId, req.step, req.path);
      case 'attach-workspace':
        return attached.attach(req.port);
      case 'open-link':
        return decodeShare(req.link);
      case 'open-file':
        return openSessionFile(req.file);
      case 'share-link': {
        const url = await shareUrl(req.session, req.base);
        return { url, report: linkReport(url) };
      }
      case 'start-session-run':
        return runs.startSession(req.config);
      case 'aci-off':
        return aciOffForStep(req.step, runs.textFiles(req.runId, req.step.index - 1));
      case 'ladder-rungs':
        return ladderRungs();
      case 'rerun-settings':
        return rerunWithSettings(req.session, req.aci);
      case 'evolve-table':
        return runs.evolveTable();
      case 'replay-records':
        return replayRecords(req.session, { ...services, attached });
      case 'eval-suite':
        return evals.builtinSuite();
      case 'open-eval-suite':
        return evals.openSuite(req.files);
      case 'start-eval':
        return evals.start(req.config);
      case 'stop-eval':
        return evals.stop(req.evalId);
      case 'open-eval':
        return openEvalFiles(req.files);
      default: {
        const never: never = req;
        throw new TypeError(
          `engine worker: unknown request type ${JSON.stringify((never as { type?: unknown }).type)}`,
        );
      }
    }
  }

  function gguf() {
    if (!services.gguf)
      throw new Error(
        'llama.cpp in WebAssembly needs its model worker, which only a browser has; use the scripted model or an endpoint.',
      );
    return services.gguf;
  }

  function webllm() {
    if (!services.webllm)
      throw new Error(
        'WebLLM needs the model worker, which only a browser has; use the scripted model or an endpoint.',
      );
    return services.webllm;
  }

  const answer = async (req: EngineRequest): Promise<void> => {
    try {
      endpoint.postMessage({ type: 'result', id: req.id, value: await handle(req) });
    } catch (e) {
      endpoint.postMessage({ type: 'error', id: req.id, error: toWireError(e) });
    }
  };
  endpoint.addEventListener('message', (event) => {
    const req = event.data as EngineRequest;
    // The sandbox frame's port is taken at once: a queued `node` (a replay's test run) waits
    // for it, and behind that call in the queue it would never arrive.
    if (req.type === 'attach-sandbox') void answer(req);
    else queue = queue.then(() => answer(req));
  });
}
