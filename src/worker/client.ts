/**
 * The page's only way to the engine: a typed async API over the engine worker (the console's
 * tool calls, and runs with their streamed events). Errors the
 * worker sends as data are rethrown here as `EngineRequestError`. When the worker dies (a
 * script that fails to load, an uncaught error, a failed start-up) every pending call is
 * rejected with `EngineCrashedError`, the status says why, and `restart()` starts a new one.
 */
import type { BirpcReturn } from 'birpc';
import type { EngineApi, EngineEvents, EngineInfo, EvalEvent, RunEvent } from './protocol.ts';
import { connect, type Handlers, type Remote } from './rpc.ts';
import { ENGINE_ERRORS } from './wire-error.ts';

export type { ShellCommandGroup } from '../workspace/memory/shell-commands.ts';
export type {
  AciSettings,
  ApprovalAsk,
  ApprovalOffer,
  ApprovedRun,
  RerunReport,
  RungInfo,
  EndpointProbe,
  EngineInfo,
  EvalEvent,
  EvalModelChoice,
  EvalSuiteInfo,
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
  StepRecord,
  TaskChoice,
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
export type { Session } from '../session/record.ts';
export type { BanditRow, EditFormat } from '../agent/evolve.ts';
export type { SessionCheck } from '../session/validate.ts';
export type { AciOff } from '../session/aci-off.ts';
// The UI renders results and steps; it gets their types from here so ui/ needs no other import path.
export type { ToolResult, Note, NoteKind, FileChange } from '../engine/result.ts';
export type { Step, Stop, LoopNoteKind, StepTokens } from '../agent/step.ts';
export type { Budget } from '../agent/context.ts';
export type { CatalogModel } from '../agent/models/catalog.ts';
export type { GpuReport } from '../agent/models/gpu.ts';
export type { CachedFile, LoadProgress } from '../agent/models/worker-protocol.ts';
export type { GgufModel } from '../agent/models/gguf-catalog.ts';
export type { GgufFacts } from '../agent/models/gguf-facts.ts';
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
  postMessage(message: unknown, transfer: Transferable[]): void;
  /** 'message' events are MessageEvents; 'error' may be an ErrorEvent or a bare Event. */
  addEventListener(type: 'message' | 'error' | 'messageerror', listener: (event: Event) => void): void;
  terminate(): void;
}

export { EngineRequestError } from './wire-error.ts';

/** The worker is gone; nothing more will be answered until `restart()`. */
export class EngineCrashedError extends Error {
  constructor(readonly reason: string) {
    super(
      `The engine worker stopped: ${reason}. Restart the engine to get a fresh workspace (files in the old one are lost).`,
    );
    this.name = 'EngineCrashedError';
  }
}

/**
 * The engine worker's life: start-up, status, events, crash and restart. Its requests are the
 * methods of `EngineApi`, reached through the client (`EngineClient`), not declared here.
 */
class EngineConnection {
  #worker: WorkerLike | null = null;
  #rpc: BirpcReturn<EngineApi, EngineEvents> | null = null;
  #status: EngineStatus = { state: 'starting' };
  readonly #listeners = new Set<(status: EngineStatus) => void>();
  readonly #runListeners = new Set<RunEventListener>();
  readonly #evalListeners = new Set<EvalEventListener>();

  /** `spawn` creates a worker; it is called again by `restart()`. */
  constructor(private readonly spawn: () => WorkerLike) {
    this.#start();
    // Every other property is a request: `client.callTool(name, args)` sends `callTool`.
    return new Proxy(this, {
      get: (target, key) => {
        if (typeof key === 'symbol' || key in target) {
          const value: unknown = Reflect.get(target, key, target);
          return typeof value === 'function' ? value.bind(target) : value;
        }
        if (key === 'then') return undefined; // not a thenable
        return (...args: unknown[]) => target.#call(key, args);
      },
    });
  }

  get status(): EngineStatus {
    return this.#status;
  }

  /** Calls `listener` with every status change (not the current one); returns the unsubscribe. */
  onStatus(listener: (status: EngineStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /** Calls `listener` with every run event; returns the unsubscribe. */
  onRunEvent(listener: RunEventListener): () => void {
    this.#runListeners.add(listener);
    return () => this.#runListeners.delete(listener);
  }

  /** Calls `listener` with every eval event; returns the unsubscribe. */
  onEvalEvent(listener: EvalEventListener): () => void {
    this.#evalListeners.add(listener);
    return () => this.#evalListeners.delete(listener);
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

  #call(name: string, args: unknown[]): Promise<unknown> {
    if (this.#status.state === 'crashed' || !this.#rpc)
      return Promise.reject(
        new EngineCrashedError(this.#status.state === 'crashed' ? this.#status.reason : 'no worker'),
      );
    return this.#rpc.$callRaw({ method: name, args });
  }

  #start(): void {
    const worker = this.spawn();
    this.#worker = worker;
    this.#setStatus({ state: 'starting' });
    // Events from a worker that was replaced meanwhile are ignored.
    const live = () => this.#worker === worker;
    const events: Handlers<EngineEvents> = {
      ready: (info: EngineInfo) => void (live() && this.#setStatus({ state: 'ready', info })),
      fatal: (error) => void (live() && this.#crash(`it could not start (${error.name}: ${error.message})`)),
      run: (runId: number, event: RunEvent) => {
        for (const l of this.#runListeners) l(runId, event);
      },
      eval: (evalId: number, event: EvalEvent) => {
        for (const l of this.#evalListeners) l(evalId, event);
      },
    };
    this.#rpc = connect<EngineApi, EngineEvents>(
      {
        post: (message, transfer) => worker.postMessage(message, transfer),
        listen: (receive) => worker.addEventListener('message', (e) => live() && receive((e as MessageEvent).data)),
      },
      ENGINE_ERRORS,
      { local: events },
    );
    worker.addEventListener('error', (e) => {
      if (live()) this.#crash(describeErrorEvent(e));
    });
    worker.addEventListener('messageerror', () => {
      if (live()) this.#crash('a message from the worker could not be read');
    });
  }

  #crash(reason: string): void {
    this.#stop(reason);
    this.#setStatus({ state: 'crashed', reason });
  }

  #stop(reason: string): void {
    this.#worker?.terminate();
    this.#worker = null;
    // Every call still waiting is rejected with the reason: nothing is left hanging.
    this.#rpc?.$close(new EngineCrashedError(reason));
    this.#rpc = null;
  }

  #setStatus(status: EngineStatus): void {
    this.#status = status;
    for (const l of this.#listeners) l(status);
  }
}

/** The page's engine: the worker's life (`EngineConnection`) and every request of `EngineApi` as a method. */
export type EngineClient = EngineConnection & Remote<EngineApi>;
/** `new EngineClient(spawn)` starts a worker with `spawn` and answers `EngineApi`'s requests through it. */
export const EngineClient = EngineConnection as new (spawn: () => WorkerLike) => EngineClient;

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
