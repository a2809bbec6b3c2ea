/**
 * The page's only way to the engine: a typed async API over the engine worker (the console's
 * tool calls, and runs with their streamed events). Errors the
 * worker sends as data are rethrown here as `EngineRequestError`. When the worker dies (a
 * script that fails to load, an uncaught error, a failed start-up) every pending call is
 * rejected with `EngineCrashedError`, the status says why, and `restart()` starts a new one.
 */
import type { ToolResult } from '../engine/result.ts';
import type { GpuReport } from '../agent/models/gpu.ts';
import type { CachedFile } from '../agent/models/worker-protocol.ts';
import type {
  AciSettings,
  ApprovedRun,
  AttachedWorkspaceInfo,
  EndpointProbe,
  EngineCalls,
  EngineInfo,
  EngineRequest,
  EngineRequestType,
  EngineResponse,
  EvalConfig,
  EvalEvent,
  EvalOpen,
  EvalStarted,
  EvalSuiteInfo,
  EvolveTable,
  FileView,
  PathCheck,
  RerunReport,
  ReplayedSession,
  RunAction,
  RunConfig,
  RunEvent,
  RunInfo,
  RunOptions,
  RungInfo,
  SessionRunConfig,
  ShareLink,
  ToolInfo,
  WireError,
  WorkspaceSnapshot,
} from './protocol.ts';
import type { Session } from '../session/record.ts';
import type { SessionCheck } from '../session/validate.ts';
import type { Step } from '../agent/step.ts';
import type { AciOff } from '../session/aci-off.ts';

export type {
  AciSettings,
  ApprovalAsk,
  ApprovalOffer,
  ApprovedRun,
  AttachedWorkspaceInfo,
  RerunDivergence,
  RerunReport,
  RungInfo,
  EndpointProbe,
  EngineInfo,
  EvalBundle,
  EvalConfig,
  EvalEvent,
  EvalModelChoice,
  EvalOpen,
  EvalStarted,
  EvalSuiteInfo,
  EvolveChoice,
  EvolveTable,
  FileView,
  JsonSchema,
  ModelChoice,
  OutsideChoice,
  OutsideSettings,
  PathCheck,
  RecordedRunInfo,
  RunAction,
  RunConfig,
  RunEvent,
  RunInfo,
  RunOptions,
  RunSettings,
  SkippedPath,
  StepRecord,
  TaskChoice,
  TemplateInfo,
  ToolInfo,
  TreeEntry,
  WorkspaceChoice,
  WorkspaceSnapshot,
  ReplayVerdict,
  ReplayedSession,
  SessionHeader,
  SessionRunConfig,
  ShareLink,
  StepCheckView,
} from './protocol.ts';
// Eval results as the Eval page shows them, and its one-file export (plain text, no schema).
export type { EvalResults, EvalRun, ArmSummary, ModelInfo as EvalModelInfo } from '../eval/results-schema.ts';
export { evalBundleText } from './eval-bundle.ts';
export { HOW_TO_READ_PAIRED, pairedTable } from '../eval/report-rows.ts';
/** The result cap below which the engine may raise a result's cap to keep its first and last lines and note. */
export { MIN_USEFUL_CAP } from '../engine/truncate.ts';
/** What a person runs so the tab's web tools reach the web (the web companion). */
export { WEB_COMPANION_COMMAND } from '../engine/web/banner.ts';
// Sessions as the page keeps, exports and shows them.
export type { Session, RecordedStep } from '../session/record.ts';
export type { BanditRow, EditFormat } from '../agent/evolve.ts';
export type { SessionCheck, RefusalKind } from '../session/validate.ts';
export type { Divergence } from '../session/divergence.ts';
export type { AciOff, AciOffVerdict, NaiveChange } from '../session/aci-off.ts';
// The UI renders results and steps; it gets their types from here so ui/ needs no other import path.
export type { ToolResult, Note, NoteKind, FileChange } from '../engine/result.ts';
export type { ApprovalOutcome, Step, Stop, LoopNote, LoopNoteKind, StepTokens, StepTiming } from '../agent/step.ts';
export type { Budget } from '../agent/context.ts';
export type { ChatMessage } from '../agent/model.ts';
export type { ParsedCall } from '../agent/parse.ts';
export type { TestTally } from '../engine/tally.ts';
export type { ApprovalMode } from '../agent/approvals.ts';
export type { CatalogModel } from '../agent/models/catalog.ts';
export type { GpuReport } from '../agent/models/gpu.ts';
export type { CachedFile, GgufSource, LoadProgress } from '../agent/models/worker-protocol.ts';
export type { GgufModel } from '../agent/models/gguf-catalog.ts';
export type { StepSpeed } from '../agent/models/step-speed.ts';

/** A run event with the id of the run it belongs to. */
export type RunEventListener = (runId: number, event: RunEvent) => void;
/** An eval event with the id of the eval it belongs to. */
export type EvalEventListener = (evalId: number, event: EvalEvent) => void;

export type EngineStatus =
  | { readonly state: 'starting' }
  | { readonly state: 'ready'; readonly info: EngineInfo }
  | { readonly state: 'crashed'; readonly reason: string };

/** The part of a `Worker` the client uses (a MessagePort wrapper in tests). */
export interface WorkerLike {
  /** `transfer` lists what moves to the worker with the message (a MessagePort). */
  postMessage(message: EngineRequest, transfer: Transferable[]): void;
  /** 'message' events are MessageEvents; 'error' may be an ErrorEvent or a bare Event. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

/** An error raised inside the worker while handling one request; the worker itself is fine. */
export class EngineRequestError extends Error {
  constructor(readonly remote: WireError) {
    super(remote.message);
    this.name = 'EngineRequestError';
  }
}

/** The worker is gone; nothing more will be answered until `restart()`. */
export class EngineCrashedError extends Error {
  constructor(readonly reason: string) {
    super(
      `The engine worker stopped: ${reason}. Restart the engine to get a fresh workspace (files in the old one are lost).`,
    );
    this.name = 'EngineCrashedError';
  }
}

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
}

export class EngineClient {
  #worker: WorkerLike | null = null;
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #status: EngineStatus = { state: 'starting' };
  readonly #listeners = new Set<(status: EngineStatus) => void>();
  readonly #runListeners = new Set<RunEventListener>();
  readonly #evalListeners = new Set<EvalEventListener>();

  /** `spawn` creates a worker; it is called again by `restart()`. */
  constructor(private readonly spawn: () => WorkerLike) {
    this.#start();
  }

  get status(): EngineStatus {
    return this.#status;
  }

  /** Calls `listener` with every status change (not the current one); returns the unsubscribe. */
  onStatus(listener: (status: EngineStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  listTools(): Promise<readonly ToolInfo[]> {
    return this.#request('list-tools', {});
  }

  /** Runs a tool through the engine's whole pipeline; bad arguments come back as a result, not an error. */
  callTool(name: string, args: unknown): Promise<ToolResult> {
    return this.#request('call-tool', { name, args });
  }

  fileTree(): Promise<WorkspaceSnapshot> {
    return this.#request('file-tree', {});
  }

  readFile(path: string): Promise<FileView> {
    return this.#request('read-file', { path });
  }

  /** A fresh workspace from the template and a fresh engine session; resolves to the new tree. */
  reset(): Promise<WorkspaceSnapshot> {
    return this.#request('reset', {});
  }

  /** Calls `listener` with every run event; returns the unsubscribe. */
  onRunEvent(listener: RunEventListener): () => void {
    this.#runListeners.add(listener);
    return () => this.#runListeners.delete(listener);
  }

  /** Templates, recorded runs, the WebLLM catalog and the default settings. */
  runOptions(): Promise<RunOptions> {
    return this.#request('run-options', {});
  }

  /** WebGPU, adapter and shader-f16 detection, with a plain explanation. */
  gpuReport(): Promise<GpuReport> {
    return this.#request('gpu-report', {});
  }

  /** Which dropped paths the jail accepts, and how they will be stored. */
  checkPaths(paths: readonly string[]): Promise<readonly PathCheck[]> {
    return this.#request('check-paths', { paths });
  }

  probeEndpoint(baseUrl: string, apiKey?: string): Promise<EndpointProbe> {
    return this.#request('probe-endpoint', { baseUrl, ...(apiKey && { apiKey }) });
  }

  /** Catalog ids with cached weights (loads WebLLM in the model worker the first time). */
  webllmCache(): Promise<readonly string[]> {
    return this.#request('webllm-cache', {});
  }

  webllmDelete(modelId: string): Promise<readonly string[]> {
    return this.#request('webllm-delete', { modelId });
  }

  /** GGUF files in the browser's cache (starts the llama.cpp worker the first time). */
  ggufCache(): Promise<readonly CachedFile[]> {
    return this.#request('gguf-cache', {});
  }

  ggufDelete(url: string): Promise<readonly CachedFile[]> {
    return this.#request('gguf-delete', { url });
  }

  /** Starts a run (stopping the one before); its events arrive through onRunEvent. */
  startRun(config: RunConfig): Promise<RunInfo> {
    return this.#request('start-run', { config });
  }

  controlRun(runId: number, action: RunAction): Promise<void> {
    return this.#request('control-run', { runId, action });
  }

  answerApproval(runId: number, askId: number, approved: boolean): Promise<void> {
    return this.#request('answer-approval', { runId, askId, approved });
  }

  /** The run's workspace after `step` (0 = before step 1). */
  runTree(runId: number, step: number): Promise<WorkspaceSnapshot> {
    return this.#request('run-tree', { runId, step });
  }

  runFile(runId: number, step: number, path: string): Promise<FileView> {
    return this.#request('run-file', { runId, step, path });
  }

  /** Decodes a share link in the worker (it is untrusted): the session, or the message saying why it cannot be opened. */
  openLink(link: string): Promise<SessionCheck> {
    return this.#request('open-link', { link });
  }

  /** Checks a session file in the worker, as untrusted input (a picked or dropped File, or a Blob of text). */
  openFile(file: Blob): Promise<SessionCheck> {
    return this.#request('open-file', { file });
  }

  /** The share link of `session` on the page at `base`, with its length report. */
  shareLink(session: Session, base: string): Promise<ShareLink> {
    return this.#request('share-link', { session, base });
  }

  /** Starts a run from a recorded session (stopping the one before): replay, then the live model if one is given. */
  startSessionRun(config: SessionRunConfig): Promise<RunInfo> {
    return this.#request('start-session-run', { config });
  }

  /** Runs replayed step `step` of run `runId` for real, once, because a person pressed "Approve and run"; the result beside its record. */
  approveStep(runId: number, step: number): Promise<ApprovedRun> {
    return this.#request('approve-step', { runId, step });
  }

  /** "ACI off" for `step` of run `runId`: what a naive harness would have shown and written, and the verdict. */
  aciOff(runId: number, step: Step): Promise<AciOff> {
    return this.#request('aci-off', { runId, step });
  }

  /** The ladder rungs a settings re-run can switch off. */
  ladderRungs(): Promise<readonly RungInfo[]> {
    return this.#request('ladder-rungs', {});
  }

  /** Re-runs `session`'s raw outputs under `aci` in a fresh engine, up to the first step whose result differs. */
  rerunSettings(session: Session, aci: AciSettings): Promise<RerunReport> {
    return this.#request('rerun-settings', { session, aci });
  }

  /** The edit-format bandit's table as stored, with the format the latest live run's prompt recommended. */
  evolveTable(): Promise<EvolveTable> {
    return this.#request('evolve-table', {});
  }

  /** Replays every step of `session` apart from the run on screen, for the split view: its run info, all step records, the verdict. */
  replayRecords(session: Session): Promise<ReplayedSession> {
    return this.#request('replay-records', { session });
  }

  /** Calls `listener` with every eval event; returns the unsubscribe. */
  onEvalEvent(listener: EvalEventListener): () => void {
    this.#evalListeners.add(listener);
    return () => this.#evalListeners.delete(listener);
  }

  /** The builtin eval suite's tasks and the arms. */
  evalSuite(): Promise<EvalSuiteInfo> {
    return this.#request('eval-suite', {});
  }

  /** Starts an eval (stopping the one before); its events arrive through onEvalEvent. */
  startEval(config: EvalConfig): Promise<EvalStarted> {
    return this.#request('start-eval', { config });
  }

  stopEval(evalId: number): Promise<void> {
    return this.#request('stop-eval', { evalId });
  }

  /** Checks eval results opened again (the page's export, or `slm eval`'s results.json with its session files), as untrusted input. */
  openEval(files: readonly { readonly path: string; readonly file: Blob }[]): Promise<EvalOpen> {
    return this.#request('open-eval', { files });
  }

  /** Hands the worker `port` (transferred: unusable here afterwards), which serves the page's WebContainer workspace. */
  attachWorkspace(port: MessagePort): Promise<AttachedWorkspaceInfo> {
    return this.#request('attach-workspace', { port }, [port]);
  }

  /** Hands the worker `port` (transferred) to the JavaScript sandbox frame the page created. */
  attachSandbox(port: MessagePort): Promise<void> {
    return this.#request('attach-sandbox', { port }, [port]);
  }

  /** Ends the current worker (rejecting what it still owed) and starts a new one. */
  restart(): void {
    this.#stop('the engine was restarted');
    this.#start();
  }

  /** Ends the worker for good. */
  dispose(): void {
    this.#stop('the engine was shut down');
    this.#setStatus({ state: 'crashed', reason: 'the engine was shut down' });
  }

  #start(): void {
    const worker = this.spawn();
    this.#worker = worker;
    this.#setStatus({ state: 'starting' });
    // Events from a worker that was replaced meanwhile are ignored.
    worker.addEventListener('message', (e) => {
      if (this.#worker === worker) this.#onMessage((e as MessageEvent).data as EngineResponse);
    });
    worker.addEventListener('error', (e) => {
      if (this.#worker === worker) this.#crash(describeErrorEvent(e));
    });
    worker.addEventListener('messageerror', () => {
      if (this.#worker === worker) this.#crash('a message from the worker could not be read');
    });
  }

  #onMessage(msg: EngineResponse): void {
    switch (msg.type) {
      case 'ready':
        this.#setStatus({ state: 'ready', info: msg.info });
        return;
      case 'fatal':
        this.#crash(`it could not start (${msg.error.name}: ${msg.error.message})`);
        return;
      case 'result':
      case 'error': {
        const pending = this.#pending.get(msg.id);
        if (!pending) return; // answered after a restart rejected it
        this.#pending.delete(msg.id);
        if (msg.type === 'result') pending.resolve(msg.value);
        else pending.reject(new EngineRequestError(msg.error));
        return;
      }
      case 'run':
        for (const l of this.#runListeners) l(msg.runId, msg.event);
        return;
      case 'eval':
        for (const l of this.#evalListeners) l(msg.evalId, msg.event);
        return;
      default: {
        const never: never = msg;
        throw new TypeError(`engine client: unknown message ${JSON.stringify(never)}`);
      }
    }
  }

  #request<K extends EngineRequestType>(
    type: K,
    params: EngineCalls[K]['params'],
    transfer: Transferable[] = [],
  ): Promise<EngineCalls[K]['result']> {
    if (this.#status.state === 'crashed' || !this.#worker) {
      return Promise.reject(
        new EngineCrashedError(this.#status.state === 'crashed' ? this.#status.reason : 'no worker'),
      );
    }
    const id = this.#nextId++;
    const worker = this.#worker;
    return new Promise((resolve, reject) => {
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject });
      worker.postMessage({ type, id, ...params } as EngineRequest, transfer);
    });
  }

  #crash(reason: string): void {
    this.#stop(reason);
    this.#setStatus({ state: 'crashed', reason });
  }

  #stop(reason: string): void {
    this.#worker?.terminate();
    this.#worker = null;
    const pending = [...this.#pending.values()];
    this.#pending.clear();
    for (const p of pending) p.reject(new EngineCrashedError(reason));
  }

  #setStatus(status: EngineStatus): void {
    this.#status = status;
    for (const l of this.#listeners) l(status);
  }
}

function describeErrorEvent(e: Event): string {
  const message = (e as ErrorEvent).message;
  // A module worker that fails to load reports a bare Event with no message.
  return message ? `it threw an uncaught error (${message})` : 'its script failed to load or threw at start-up';
}

/** The client for the browser: a module worker bundled by Vite from engine.worker.ts. */
export function createEngineClient(): EngineClient {
  return new EngineClient(
    () => new Worker(new URL('./engine.worker.ts', import.meta.url), { type: 'module', name: 'slmcode-engine' }),
  );
}
