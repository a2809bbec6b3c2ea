/**
 * The worker side of the protocol: owns the console's engine session and the current run
 * (run-host.ts), with one handler per request. Kept apart from engine.worker.ts so the same
 * code runs over a MessageChannel in a Node test. In the browser it loads after the worker's
 * first chunk (engine-serve.ts), which answers the start screen meanwhile.
 */
import { z } from 'zod';
import type { ToolDef } from '../engine/tool.ts';
import { AttachedWorkspace } from './attached-workspace.ts';
import type { SessionFactory } from './engine-session.ts';
import type { EngineEvents, ToolInfo } from './protocol.ts';
import type { EngineHost, HostHandlers } from './engine-serve.ts';
import type { Remote } from './rpc.ts';
import { RunHost, type RunServices } from './run-host.ts';
import { ladderRungs, rerunWithSettings } from './run-lab.ts';
import { aciOffForStep } from '../session/aci-off.ts';
import { decodeShare, shareLink } from '../session/share-codec.ts';
import { openSessionFile } from './session-run.ts';
import { replayRecords } from './replay-records.ts';
import { EvalHost } from './eval-host.ts';
import { openEvalFiles } from './eval-open.ts';
import { probeEndpoint } from './run-models.ts';
import { readGgufFacts } from '../agent/models/gguf-facts.ts';
import { checkPaths } from './run-workspace.ts';
import { snapshotWorkspace, viewFile } from './workspace-view.ts';
import { sandboxFrame } from '../workspace/memory/sandbox-frame-link.ts';
import { usePackageIndex } from '../workspace/memory/py-wheels.ts';
import { shellCommandList } from '../workspace/memory/shell-commands.ts';

export type { EngineSession, SessionFactory } from './engine-session.ts';

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

/**
 * The engine host: one handler per request of `EngineApi` (all but the two engine-serve.ts
 * answers before the engine loads), over the console's session and the current run; run and
 * eval events go out through `events`. engine-serve.ts carries the requests and queues them.
 */
export function engineHost(
  newSession: SessionFactory,
  services: RunServices,
  events: Remote<EngineEvents>,
): EngineHost {
  let session = newSession();
  const attached = new AttachedWorkspace();
  const runs = new RunHost((runId, event) => void events.run(runId, event), { ...services, attached });
  const evals = new EvalHost((evalId, event) => void events.eval(evalId, event), services);
  const engine = async () => (await session).engine;

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

  const handlers: HostHandlers = {
    listTools: async () => [...(await engine()).tools.values()].map(toolInfo),
    callTool: async (name, args) => (await engine()).call(name, args),
    fileTree: async () => snapshotWorkspace(await engine()),
    readFile: async (path) => viewFile(await engine(), path),
    reset: async () => {
      session = newSession();
      return snapshotWorkspace(await engine());
    },
    checkPaths: (paths) => checkPaths(paths),
    probeEndpoint: (baseUrl, apiKey) => probeEndpoint(baseUrl, apiKey, services.fetch),
    webllmCache: () => webllm().cached(),
    webllmDelete: async (modelId) => (await webllm().deleteCached(modelId), webllm().cached()),
    ggufCache: () => gguf().listCached(),
    ggufDelete: async (url) => (await gguf().deleteCached(url), gguf().listCached()),
    ggufFacts: (source) =>
      readGgufFacts(source, services.fetch).catch((e: unknown) => ({ error: (e as Error).message })),
    startRun: (config) => runs.start(config),
    controlRun: (runId, action) => runs.control(runId, action),
    answerApproval: (runId, askId, approved) => runs.answer(runId, askId, approved),
    approveStep: (runId, step) => runs.approveStep(runId, step),
    runTree: (runId, step) => runs.tree(runId, step),
    runFile: (runId, step, path) => runs.file(runId, step, path),
    attachWorkspace: (port) => attached.attach(port),
    // Needs no session (and must not wait for one being rebuilt by a reset).
    attachSandbox: (port, packageIndex) => (usePackageIndex(packageIndex), sandboxFrame.attach(port)),
    openLink: (link) => decodeShare(link),
    openFile: (file) => openSessionFile(file),
    shareLink: (s, base) => shareLink(s, base),
    startSessionRun: (config) => runs.startSession(config),
    aciOff: (runId, step) => aciOffForStep(step, runs.textFiles(runId, step.index - 1)),
    ladderRungs: () => ladderRungs(),
    shellCommands: () => shellCommandList(),
    rerunSettings: (s, aci) => rerunWithSettings(s, aci),
    evolveTable: () => runs.evolveTable(),
    replayRecords: (s) => replayRecords(s, { ...services, attached }),
    evalSuite: () => evals.builtinSuite(),
    openEvalSuite: (files) => evals.openSuite(files),
    startEval: (config) => evals.start(config),
    stopEval: (evalId) => evals.stop(evalId),
    openEval: (files) => openEvalFiles(files),
  };
  return { handlers, ready: session.then((s) => s.info) };
}
