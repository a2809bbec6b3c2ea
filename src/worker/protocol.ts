/**
 * The engine worker's protocol — types only. Requests are a union tagged by `type` and carry
 * an `id`; every reply names the id it answers. Errors cross the boundary as data
 * (`WireError`) and are rethrown by the client. The worker handles one request at a time, in
 * the order they arrive, so a tool call never interleaves with a reset. A run is the one
 * exception to request/reply: `start-run` answers at once, and the run's steps, approval
 * questions and end follow as `run` events tagged with its id.
 */
import type { FileChange, ToolResult } from '../engine/result.ts';
import type { EntryType } from '../engine/workspace.ts';
import type { ToolSet } from '../engine/settings.ts';
import type { ApprovalMode, ApprovalRequest } from '../agent/approvals.ts';
import type { CatalogModel } from '../agent/models/catalog.ts';
import type { BanditRow, EditFormat } from '../agent/evolve.ts';
import type { GpuReport } from '../agent/models/gpu.ts';
import type { GgufModel } from '../agent/models/gguf-catalog.ts';
import type { StepSpeed } from '../agent/models/step-speed.ts';
import type { CachedFile, CustomModel, GgufSource, LoadProgress } from '../agent/models/worker-protocol.ts';
import type { ApprovalOutcome, Step, Stop } from '../agent/step.ts';
import type { AciOff } from '../session/aci-off.ts';
import type { Divergence } from '../session/divergence.ts';
import type { RecordedStep, Session } from '../session/record.ts';
import type { ReplayVerdict, StepCheckView } from '../session/replay-check.ts';
import type { LinkReport } from '../session/share-codec.ts';
import type { SessionCheck } from '../session/validate.ts';
import type { EvalResults, EvalRun, ModelInfo as EvalModelInfo } from '../eval/results-schema.ts';

/** A JSON Schema document as `z.toJSONSchema` produces it: plain, cloneable data. */
export type JsonSchema = { readonly [key: string]: unknown };

/** A tool as the console shows it: the card, and the schema the form is generated from. */
export interface ToolInfo {
  readonly name: string;
  /** The one-line contract. */
  readonly summary: string;
  /** True when the tool can change the workspace. */
  readonly writes: boolean;
  /** alias → canonical argument name the engine also accepts. */
  readonly aliases: Readonly<Record<string, string>>;
  /** The arguments' JSON schema (`io: 'input'`), or null when the zod schema has no JSON form. */
  readonly inputSchema: JsonSchema | null;
}

export interface TreeEntry {
  /** POSIX path relative to the workspace root. */
  readonly path: string;
  readonly type: EntryType;
  /** Bytes for files, link text length for symlinks, 0 for directories. */
  readonly size: number;
  /** The link text as stored, for symlinks. */
  readonly target?: string;
}

/** Every entry of the workspace, sorted by path, depth-first. */
export interface WorkspaceSnapshot {
  readonly entries: readonly TreeEntry[];
  /** True when the walk stopped at the entry cap; the list then shows only the first entries. */
  readonly truncated: boolean;
}

/** A file as the read-only viewer shows it (not what a tool would show the model). */
export interface FileView {
  readonly path: string;
  readonly size: number;
  /** null for a binary file. */
  readonly text: string | null;
  /** True when only the first part of a large file was sent. */
  readonly truncated: boolean;
}

/** What the worker says once it is set up. */
export interface EngineInfo {
  /** The workspace backend ('memory'). */
  readonly workspaceKind: string;
  readonly template: { readonly id: string; readonly title: string; readonly hash: string; readonly task: string };
}

// ── Runs: the agent loop in the worker, steps streamed to the page ──────────────────────────

/** A bundled template as the start screen lists it. */
export interface TemplateInfo {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  readonly task: string;
  readonly fileCount: number;
  readonly hash: string;
}

/** A recorded run the scripted model can replay. */
export interface RecordedRunInfo {
  readonly id: string;
  readonly title: string;
  readonly description: string;
  /** The template it was recorded against: the only task it fits. */
  readonly templateId: string;
  readonly steps: number;
}

/** The run settings a person can change on the start screen. */
export interface RunSettings {
  readonly maxSteps: number;
  readonly approval: ApprovalMode;
  readonly temperature: number;
  readonly seed: number;
  /** The engine's result cap (`max_tool_chars`). */
  readonly maxToolChars: number;
  /** Lines ws_read shows by default (`read_window_lines`). */
  readonly readWindowLines: number;
  /** The context window the prompt is budgeted for, in tokens. */
  readonly contextTokens: number;
  /** Pause between scripted steps so a person can watch them arrive (0 = none; live models ignore it). */
  readonly paceMs: number;
  /** The tools the model is offered (the engine's `tool_set`): every coding tool, or the small set. */
  readonly toolSet: ToolSet;
}

/** What the start screen needs to offer choices: templates, recorded runs, WebLLM models, defaults. */
export interface RunOptions {
  readonly templates: readonly TemplateInfo[];
  readonly recorded: readonly RecordedRunInfo[];
  readonly catalog: readonly CatalogModel[];
  /** The catalog model offered first. */
  readonly defaultModelId: string;
  /** The GGUF models llama.cpp offers, and the one offered first. */
  readonly ggufCatalog: readonly GgufModel[];
  readonly defaultGgufId: string;
  readonly defaults: RunSettings;
  /** How many dropped files, and how much text, a run takes. */
  readonly dropLimits: { readonly maxFiles: number; readonly maxBytes: number };
}

/** Where the run starts: a bundled template, or files a person dropped in (with their own task). */
export type TaskChoice =
  | { readonly kind: 'template'; readonly templateId: string }
  | { readonly kind: 'files'; readonly files: Readonly<Record<string, string>>; readonly task: string };

/** The workspace backends a person can choose for a run. */
export type WorkspaceChoice = 'memory' | 'webcontainer';

/** The workspace the page attached to the engine worker (`attach-workspace`), as it describes itself. */
export interface AttachedWorkspaceInfo {
  /** The backend serving it ('webcontainer'). */
  readonly kind: string;
  /** Its absolute root on that backend. */
  readonly root: string;
}

/** Which model drives the run. */
export type ModelChoice =
  | { readonly kind: 'scripted'; readonly recordedId: string }
  /** `toolsApi`: the tool schemas go as the server's `tools`, not response_format. */
  | {
      readonly kind: 'openai';
      readonly baseUrl: string;
      readonly model: string;
      readonly apiKey?: string;
      readonly toolsApi?: boolean;
    }
  /** With `custom`, weights served from their own URL; `modelId` is then `custom.id`. */
  | { readonly kind: 'webllm'; readonly modelId: string; readonly custom?: CustomModel }
  /** llama.cpp on the CPU: a GGUF from a URL (a catalog model's, or one's own) or a file picked from disk. */
  | { readonly kind: 'gguf'; readonly source: GgufSource; readonly label?: string };

export interface RunConfig {
  readonly task: TaskChoice;
  readonly model: ModelChoice;
  readonly settings: RunSettings;
  /** Where the run's files live: the in-memory workspace (default), or the WebContainer the page attached. */
  readonly workspace?: WorkspaceChoice;
  /** Start paused, before step 1 (then Step walks one turn at a time). */
  readonly paused?: boolean;
}

/** A dropped path the jail refused, and why (the jail's own text). */
export interface SkippedPath {
  readonly path: string;
  readonly reason: string;
}

/** What the worker says about a run it started. */
export interface RunInfo {
  readonly runId: number;
  /** The task text the model is given. */
  readonly task: string;
  readonly workspace:
    | { readonly kind: 'template'; readonly id: string; readonly title: string; readonly hash: string }
    | { readonly kind: 'files'; readonly fileCount: number; readonly hash: string };
  readonly model: {
    /** Filled in once the model is loaded (WebLLM) or at once (the others). */
    readonly label: string;
    /** True for recorded turns: the output is not a live model's. */
    readonly scripted: boolean;
    /** A replay's record was made by this live model (its id, e.g. `gguf:…`, `webllm:…`): its turns are that model's, replayed. */
    readonly recordedFrom?: string;
    /** How long the run waits for the model to start answering a step, when it has such a limit (an endpoint). */
    readonly answerLimitMs?: number;
  };
  readonly settings: RunSettings;
  /** The tools the run's model is offered: the settings' for a new run, the record's for a replay. */
  readonly toolSet: ToolSet;
  /** The engine's tools the model is offered, by name (the loop adds `done`). */
  readonly tools: readonly string[];
  /** For a run from a record that names a harness other than the engine itself: that harness, for people (e.g. "naive harness (ACI off)"). */
  readonly harness?: string;
  /** Dropped paths the jail refused (they were not seeded). */
  readonly skipped: readonly SkippedPath[];
  /** The workspace backend the run really uses ('memory' or 'webcontainer'). */
  readonly backend: string;
  /** Why the run is not on the backend that was asked for, when it is not. */
  readonly backendNote?: string;
  /** Present for a run from a recorded session: how many of its steps are replayed, and whether a live model continues. */
  readonly replay?: { readonly upTo: number; readonly continues: boolean };
}

/** One step as the page receives it: the loop's immutable record plus the workspace change of that step. */
export interface StepRecord {
  readonly step: Step;
  /** Every file that differs between the workspace before and after the step, whichever tool changed it. */
  readonly changes: readonly FileChange[];
  /** Files in the workspace after the step. */
  readonly fileCount: number;
  /** The step as the session record keeps it (raw output, hashes, result text). */
  readonly recorded?: RecordedStep;
  /** For a step replayed from a record: whether it reproduced. */
  readonly check?: StepCheckView;
  /** For a replayed step: the approval answer its record holds — history, never an approval here. */
  readonly recordedApproval?: ApprovalOutcome;
  /** For a replayed gated step that did not run because nobody here approved it: what "Approve and run" would run. */
  readonly offer?: ApprovalOffer;
}

/** A replayed gated command that did not run: what a person is asked to approve. */
export interface ApprovalOffer {
  readonly tool: string;
  readonly command: string;
  /** The policy's reason it needs a person. */
  readonly reason: string;
  /** The paths the command would write (empty: none); absent when the policy cannot tell. */
  readonly writes?: readonly string[];
}

/** One replayed gated step a person approved and ran, beside its record. */
export interface ApprovedRun {
  readonly step: number;
  /** The command's output (a shell step), else the step's result, as it came out now. */
  readonly live: string;
  /** The same part as the record keeps it; null when the record keeps only its hash. */
  readonly recorded: string | null;
  /** Reproduced when the live result and the workspace after it match the record; else where they differ. */
  readonly check: StepCheckView;
  /** What the step changed in the workspace as it was before it. */
  readonly changes: readonly FileChange[];
  /** The workspace after the approved step. */
  readonly tree: WorkspaceSnapshot;
  /** Where it ran, e.g. `memory (with the JavaScript sandbox)`. */
  readonly backend: string;
}

/** A call waiting for a person's yes or no (approvals: ask). */
export interface ApprovalAsk extends ApprovalRequest {
  readonly id: number;
  /** For a gated shell command: the paths it would write (ShellDecision.writes); absent when the policy cannot tell. */
  readonly writes?: readonly string[];
}

export type RunAction = 'pause' | 'resume' | 'step' | 'stop';

/** Something that happened in a run, pushed to the page as it happens. */
export type RunEvent =
  /** Running freely, or paused before the next step. */
  | { readonly kind: 'phase'; readonly phase: 'running' | 'paused' }
  /** The model is being downloaded or compiled (WebLLM). */
  | { readonly kind: 'loading'; readonly progress: LoadProgress }
  /** The model is loaded; its id for the record. */
  | { readonly kind: 'model'; readonly id: string }
  /** How fast a live model answered for step `index` (sent once its reply is complete). */
  | { readonly kind: 'speed'; readonly index: number; readonly speed: StepSpeed }
  /** A piece of the output the model is writing for step `index`. */
  | { readonly kind: 'token'; readonly index: number; readonly delta: string }
  | { readonly kind: 'step'; readonly record: StepRecord }
  /** A call waits for approval (null: the question was answered or withdrawn). */
  | { readonly kind: 'approval'; readonly ask: ApprovalAsk | null }
  /** The run is over; nothing more comes for it. `text` says why, for people. */
  | { readonly kind: 'ended'; readonly stop: Stop; readonly text: string }
  /** The session record's header, sent once before step 1: with the steps' `recorded` parts it is the whole record. */
  | { readonly kind: 'session'; readonly header: SessionHeader }
  /** The verdict on the replayed part of a session run, once its last recorded step is checked (or the run ended before it). */
  | { readonly kind: 'verdict'; readonly verdict: ReplayVerdict };

// ── Sessions: recording, replay and continuing, share links ─────────────────────────────────

/** Everything of a session record except its steps. */
export type SessionHeader = Omit<Session, 'steps'>;

/** A replayed step's check and the verdict on the replayed part, defined beside the checker that makes them. */
export type { ReplayVerdict, StepCheckView };

/**
 * A run from a recorded session: its first `upTo` raw outputs are replayed into a fresh engine
 * with the record's settings and each step is checked against the record; then `model`
 * continues live from there (null: replay only). The session is checked again in the worker.
 */
export interface SessionRunConfig {
  readonly session: Session;
  readonly upTo: number;
  readonly model: ModelChoice | null;
  /** For the live part: approvals, pace, and how many more steps it may take (`maxSteps`). */
  readonly settings: RunSettings;
  readonly paused?: boolean;
}

// ── What-ifs on a run: "ACI off" for one step, a re-run under other ACI settings ─────────────

/** The ACI settings a re-run can change (engine settings by other names). */
export interface AciSettings {
  /** `max_tool_chars`. */
  readonly maxToolChars: number;
  /** `read_window_lines`. */
  readonly readWindowLines: number;
  /** `disabled_rungs`: ladder rungs switched off, by id. */
  readonly disabledRungs: readonly string[];
  /** `loop_guard`. */
  readonly loopGuard: boolean;
}

/** A ladder rung: its id (for `disabled_rungs`) and the name the spec's messages use. */
export interface RungInfo {
  readonly id: string;
  readonly name: string;
}

/** Where a re-run parts from the run: the replay's divergence, with the start of both results. */
export interface RerunDivergence extends Divergence {
  /** The tool the step called, when its output parsed to a call. */
  readonly tool?: string;
  /** The first lines of the result the model saw in the run (empty when the record has no text). */
  readonly before: string;
  /** The first lines of the result under the new settings (empty when the re-run ended before the step). */
  readonly after: string;
}

/** How one step of a re-run compares with the run: the same, another result, other notes (another rung, say), or a call that now fails. */
export type RerunOutcome = 'same' | 'result' | 'notes' | 'fails';

/** One step of a re-run beside the run. */
export interface RerunRow {
  readonly index: number;
  readonly tool?: string;
  readonly outcome: RerunOutcome;
  /** What changed, for people: the first lines of the new result, or the notes added and gone. */
  readonly detail: string;
}

/** What a re-run under other settings found. */
export interface RerunReport {
  /** Steps re-run and compared: every step, past the first difference. */
  readonly checked: number;
  /** Every step re-run, beside the run. */
  readonly rows: readonly RerunRow[];
  /** Steps in the run. */
  readonly total: number;
  /** The first step whose result differs, with its cause (the settings, named); absent when none does. */
  readonly divergence?: RerunDivergence;
  /** The workspace the re-run used, e.g. `memory (with the JavaScript sandbox)`. */
  readonly backend: string;
  readonly ms: number;
}

// ── The edit-format bandit: which format live runs recommend, learned across runs ─────────────

/** The format a live run's prompt recommended, and the table row it was chosen from. */
export interface EvolveChoice {
  readonly runId: number;
  readonly family: string;
  readonly language: string;
  readonly format: EditFormat;
}

/** The edit-format bandit's table as the run page shows it. */
export interface EvolveTable {
  /** One row per model family × language × format, as stored. */
  readonly rows: readonly BanditRow[];
  /** The latest live run's choice, once its model is loaded. */
  readonly choice?: EvolveChoice;
  /** Why the table could not be read or saved, when it could not (runs go on with a table in memory). */
  readonly problem?: string;
}

/** A session replayed in full apart from the run on screen (for the split view): what it is, every step's record, the verdict, why it ended. */
export interface ReplayedSession {
  readonly info: RunInfo;
  readonly records: readonly StepRecord[];
  readonly verdict: ReplayVerdict | null;
  readonly endText: string;
}

// ── Evals: the task suite run in the worker (eval-host.ts), progress streamed to the page ───

/** The builtin suite and the arms, as the Eval page offers them. */
export interface EvalSuiteInfo {
  readonly tasks: readonly { readonly id: string; readonly title: string; readonly mechanisms: readonly string[] }[];
  readonly arms: readonly { readonly id: string; readonly label: string }[];
}

/** The model of an eval: the reference solutions applied by scripted turns (a pipeline check), or a live model. */
export type EvalModelChoice = { readonly kind: 'reference' } | Exclude<ModelChoice, { readonly kind: 'scripted' }>;

export interface EvalConfig {
  /** Task ids of the builtin suite, in suite order. */
  readonly tasks: readonly string[];
  readonly arms: readonly string[];
  readonly seeds: number;
  readonly model: EvalModelChoice;
  /** Sessions at once (an endpoint only; a model in the tab runs one at a time). */
  readonly jobs: number;
  readonly maxSteps: number;
  /** The context window each session's prompt is budgeted for (the start screen's, for a live model). */
  readonly contextTokens: number;
}

export interface EvalStarted {
  readonly evalId: number;
  /** Sessions planned: tasks × arms × seeds. */
  readonly total: number;
  /** Whether these numbers mean anything (`label`), and the sentence that says so. */
  readonly model: EvalModelInfo;
}

/** Something that happened in an eval, pushed to the page as it happens. */
export type EvalEvent =
  | { readonly kind: 'loading'; readonly progress: LoadProgress }
  | { readonly kind: 'start'; readonly task: string; readonly arm: string; readonly seed: number }
  /** A session finished and was graded: its row of the results and the session itself. */
  | { readonly kind: 'run'; readonly run: EvalRun; readonly session: Session }
  /** The eval is over (finished, stopped, or failed with `error`); `results` holds the sessions that finished. */
  | { readonly kind: 'ended'; readonly results: EvalResults; readonly error?: string };

/** An eval's results with the sessions they name, by the results' relative path: the Eval page's one-file export. */
export interface EvalBundle {
  readonly results: EvalResults;
  readonly sessions: Readonly<Record<string, Session>>;
}

/** A results file (or an `slm eval` output folder) opened again, checked in the worker. */
export type EvalOpen =
  | { readonly ok: true; readonly bundle: EvalBundle; readonly missing: readonly string[] }
  | { readonly ok: false; readonly text: string };

/** A share link and its length report (`fits` false: offer the file instead). */
export interface ShareLink {
  readonly url: string;
  readonly report: LinkReport;
}

/** Whether a dropped path would be accepted by the jail. */
export interface PathCheck {
  readonly path: string;
  /** The path as it will be stored (normalized), when accepted. */
  readonly stored?: string;
  /** The jail's refusal, when refused. */
  readonly reason?: string;
}

/** An OpenAI-compatible endpoint's answer to `GET /models`, or why it could not be reached. */
export type EndpointProbe =
  { readonly ok: true; readonly models: readonly string[] } | { readonly ok: false; readonly message: string };

/** Each request's parameters and the value its reply carries, by request type. */
export interface EngineCalls {
  'list-tools': { params: {}; result: readonly ToolInfo[] };
  'call-tool': { params: { readonly name: string; readonly args: unknown }; result: ToolResult };
  'file-tree': { params: {}; result: WorkspaceSnapshot };
  'read-file': { params: { readonly path: string }; result: FileView };
  /** A fresh workspace seeded from the template, and a fresh engine session (seen files, loop guard). */
  reset: { params: {}; result: WorkspaceSnapshot };

  'run-options': { params: {}; result: RunOptions };
  /** WebGPU detection, done in the worker (no WebLLM download needed). */
  'gpu-report': { params: {}; result: GpuReport };
  'check-paths': { params: { readonly paths: readonly string[] }; result: readonly PathCheck[] };
  'probe-endpoint': { params: { readonly baseUrl: string; readonly apiKey?: string }; result: EndpointProbe };
  /** Catalog ids whose weights are in the browser's cache (loads the WebLLM module in the model worker). */
  'webllm-cache': { params: {}; result: readonly string[] };
  /** Deletes one model's cached weights; answers the ids still cached. */
  'webllm-delete': { params: { readonly modelId: string }; result: readonly string[] };
  /** GGUF files in the browser's cache (starts the llama.cpp worker, not llama.cpp itself). */
  'gguf-cache': { params: {}; result: readonly CachedFile[] };
  /** Deletes one cached GGUF file by its URL; answers the files still cached. */
  'gguf-delete': { params: { readonly url: string }; result: readonly CachedFile[] };
  /** Starts a run (stopping the one before); its events follow the reply. */
  'start-run': { params: { readonly config: RunConfig }; result: RunInfo };
  'control-run': { params: { readonly runId: number; readonly action: RunAction }; result: void };
  'answer-approval': {
    params: { readonly runId: number; readonly askId: number; readonly approved: boolean };
    result: void;
  };
  /**
   * A person pressed "Approve and run" on replayed step `step` of run `runId`, a gated command
   * that did not run: it runs once, for real, in a fresh copy of the replay's workspace at that
   * step, and comes back beside its record. Only a step that waits for an approval is run.
   */
  'approve-step': { params: { readonly runId: number; readonly step: number }; result: ApprovedRun };
  /** The workspace after step `step` of the run (0 = before step 1). */
  'run-tree': { params: { readonly runId: number; readonly step: number }; result: WorkspaceSnapshot };
  'run-file': { params: { readonly runId: number; readonly step: number; readonly path: string }; result: FileView };
  /**
   * Hands the worker a port serving a workspace from the page (WebContainer, which boots on the
   * main thread only); runs asking for `workspace: 'webcontainer'` use it from then on. The port
   * travels in the transfer list; a new attach replaces the one before.
   */
  'attach-workspace': { params: { readonly port: MessagePort }; result: AttachedWorkspaceInfo };
  /** Hands the worker a port to the JavaScript sandbox frame (public/sandbox.html), which the page creates; `node` in the memory workspace runs there. */
  'attach-sandbox': { params: { readonly port: MessagePort }; result: void };
  /** Decodes a share link (untrusted): the session, or the codec's message saying why not. */
  'open-link': { params: { readonly link: string }; result: SessionCheck };
  /** Checks a session file (untrusted) the same way; its size is checked before it is read. */
  'open-file': { params: { readonly file: Blob }; result: SessionCheck };
  /** The share link of a session on the page at `base`, and how long it is. */
  'share-link': { params: { readonly session: Session; readonly base: string }; result: ShareLink };
  /** Starts a run from a recorded session (stopping the one before): replay, then optionally a live model. */
  'start-session-run': { params: { readonly config: SessionRunConfig }; result: RunInfo };
  /** "ACI off" for `step` of run `runId`: what a naive harness would have done with its raw output, over the workspace before it. */
  'aci-off': { params: { readonly runId: number; readonly step: Step }; result: AciOff };
  /** The ladder rungs a settings re-run can switch off. */
  'ladder-rungs': { params: {}; result: readonly RungInfo[] };
  /** Re-runs `session`'s raw outputs under other ACI settings in a fresh engine, up to the first step whose result differs. */
  'rerun-settings': { params: { readonly session: Session; readonly aci: AciSettings }; result: RerunReport };
  /** The edit-format bandit's table as stored, with the latest live run's choice. */
  'evolve-table': { params: {}; result: EvolveTable };
  /** Replays every step of `session` on a run host of its own (the run on screen goes on) and answers with all the step records. */
  'replay-records': { params: { readonly session: Session }; result: ReplayedSession };
  /** The builtin eval suite's tasks and the arms. */
  'eval-suite': { params: {}; result: EvalSuiteInfo };
  /** Starts an eval (stopping the one before); its events follow the reply as `eval` messages. */
  'start-eval': { params: { readonly config: EvalConfig }; result: EvalStarted };
  /** Stops eval `evalId`: nothing new starts, the session it interrupts is left out. */
  'stop-eval': { params: { readonly evalId: number }; result: void };
  /** Checks an eval results file: the page's export (results and sessions in one file), or `slm eval`'s results.json with its session files (paths as picked). */
  'open-eval': {
    params: { readonly files: readonly { readonly path: string; readonly file: Blob }[] };
    result: EvalOpen;
  };
}

export type EngineRequestType = keyof EngineCalls;

export type EngineRequestOf<K extends EngineRequestType> = {
  readonly type: K;
  readonly id: number;
} & EngineCalls[K]['params'];

export type EngineRequest = { [K in EngineRequestType]: EngineRequestOf<K> }[EngineRequestType];

/** An error as data: enough to rethrow it with its name and message on the other side. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}

export type EngineResponse =
  /** Sent once, after the first session is created. */
  | { readonly type: 'ready'; readonly info: EngineInfo }
  /** The worker could not set itself up; it answers nothing after this. */
  | { readonly type: 'fatal'; readonly error: WireError }
  | { readonly type: 'result'; readonly id: number; readonly value: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: WireError }
  /** An event of run `runId`, not a reply to any request. */
  | { readonly type: 'run'; readonly runId: number; readonly event: RunEvent }
  /** An event of eval `evalId`. */
  | { readonly type: 'eval'; readonly evalId: number; readonly event: EvalEvent };
