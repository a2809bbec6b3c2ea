/**
 * The engine worker's protocol — types only. `EngineApi` declares every request once, as a
 * method; `EngineEvents` what the worker sends unasked. The messages themselves are birpc's
 * (worker/rpc.ts). Errors cross the boundary as data (`WireError`) and are rethrown by the
 * client. The worker handles one request at a time, in the order they arrive, so a tool call
 * never interleaves with a reset. A run is the one exception to request/reply: `startRun`
 * answers at once, and the run's steps, approval questions and end follow as `run` events
 * tagged with its id.
 */
import type { FileChange, ToolResult } from '../engine/result.ts';
import type { EntryType } from '../engine/workspace.ts';
import type { EngineSettings, ToolSet } from '../engine/settings.ts';
import type { ApprovalMode, ApprovalRequest } from '../agent/approvals.ts';
import type { CatalogModel } from '../agent/models/catalog.ts';
import type { BanditRow, EditFormat } from '../agent/evolve.ts';
import type { GpuReport } from '../agent/models/gpu.ts';
import type { GgufModel } from '../agent/models/gguf-catalog.ts';
import type { GgufFacts } from '../agent/models/gguf-facts.ts';
import type { StepSpeed } from '../agent/models/step-speed.ts';
import type { CachedFile, CustomModel, GgufSource, LoadProgress } from '../agent/models/worker-protocol.ts';
import type { ApprovalOutcome, Step, Stop } from '../agent/step.ts';
import type { AciOff } from '../session/aci-off.ts';
import type { Divergence } from '../session/divergence.ts';
import type { BranchThen } from '../session/branch.ts';
import type { BranchPoint, RecordedStep, Session } from '../session/record.ts';
import type { ReplayVerdict, StepCheckView } from '../session/replay-check.ts';
import type { LinkReport } from '../session/share-codec.ts';
import type { SessionCheck } from '../session/validate.ts';
import type { EvalResults, EvalRun, ModelInfo as EvalModelInfo } from '../eval/results-schema.ts';
import type { ShellCommandGroup } from '../workspace/memory/shell-commands.ts';

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
  /** Why the file was not read at all (too large to read whole, or a capture's total spent); `text` is then null. */
  readonly unread?: string;
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
  /** The outside tools (web_fetch, web_search, mcp_call, find_models); absent: off. */
  readonly outside?: OutsideChoice;
  /** Where the run's files live: the in-memory workspace (default), or the WebContainer the page attached. */
  readonly workspace?: WorkspaceChoice;
  /** Start paused, before step 1 (then Step walks one turn at a time). */
  readonly paused?: boolean;
}

/** The engine settings of the outside tools, by their engine names: recorded with the session. */
export type OutsideSettings = Pick<
  EngineSettings,
  'specialist_tools' | 'web_search_provider' | 'web_search_url' | 'web_allow_private' | 'web_domains' | 'mcp_servers'
>;

/** The outside tools of a run: their settings, and the web companion this tab reaches the web through. */
export interface OutsideChoice {
  readonly settings: OutsideSettings;
  /** `slm serve-web`'s address and token: kept in this browser, never recorded with a session. */
  readonly companion?: { readonly url: string; readonly token: string };
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
  /** Present for a branch: the step whose output a person edited (the record's `branch`). */
  readonly branch?: BranchPoint;
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
  /**
   * A branch: the person's text replaces the model's output at step `upTo + 1`, and the run then
   * goes on with the record's later outputs (`then: 'record'`, `model` unused) or with `model`.
   */
  readonly edit?: BranchEdit;
}

/** An edited step to branch from (session/branch.ts). */
export interface BranchEdit {
  readonly raw: string;
  readonly then: BranchThen;
  /** Where the parent is kept (a saved session's id, a bundled lesson's key), for the record. */
  readonly parentId?: string;
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

/** A suite and the arms, as the Eval page offers them. */
export interface EvalSuiteInfo {
  /** `builtin`, or the folder or zip an opened suite came from. */
  readonly name: string;
  readonly tasks: readonly {
    readonly id: string;
    readonly title: string;
    readonly mechanisms: readonly string[];
    readonly language?: string;
  }[];
  readonly arms: readonly { readonly id: string; readonly label: string }[];
}

/** A suite opened on the Eval page (checked in the worker), or why it cannot be. */
export type EvalSuiteOpened =
  { readonly ok: true; readonly suite: EvalSuiteInfo } | { readonly ok: false; readonly text: string };

/** The model of an eval: the reference solutions applied by scripted turns (a pipeline check), or a live model. */
export type EvalModelChoice = { readonly kind: 'reference' } | Exclude<ModelChoice, { readonly kind: 'scripted' }>;

export interface EvalConfig {
  /** Task ids of the suite the worker holds (the builtin one, or the one opened last), in suite order. */
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

/**
 * Every request the page can make of the engine worker: one method each, its parameters and
 * the value its reply carries. The client calls these (each returns a Promise of its value);
 * the worker implements them (engine-host.ts, and engine-serve.ts for the two answered before
 * the engine loads). A MessagePort among the arguments travels in the transfer list.
 */
export interface EngineApi {
  listTools(): readonly ToolInfo[];
  /** Runs a tool through the engine's whole pipeline; bad arguments come back as a result, not an error. */
  callTool(name: string, args: unknown): ToolResult;
  fileTree(): WorkspaceSnapshot;
  readFile(path: string): FileView;
  /** A fresh workspace seeded from the template, and a fresh engine session (seen files, loop guard). */
  reset(): WorkspaceSnapshot;

  /** Templates, recorded runs, the WebLLM catalog and the default settings. */
  runOptions(): RunOptions;
  /** WebGPU detection, done in the worker (no WebLLM download needed). */
  gpuReport(): GpuReport;
  /** Which dropped paths the jail accepts, and how they will be stored. */
  checkPaths(paths: readonly string[]): readonly PathCheck[];
  probeEndpoint(baseUrl: string, apiKey?: string): EndpointProbe;
  /** Catalog ids whose weights are in the browser's cache (loads the WebLLM module in the model worker). */
  webllmCache(): readonly string[];
  /** Deletes one model's cached weights; answers the ids still cached. */
  webllmDelete(modelId: string): readonly string[];
  /** GGUF files in the browser's cache (starts the llama.cpp worker, not llama.cpp itself). */
  ggufCache(): readonly CachedFile[];
  /** Deletes one cached GGUF file by its URL; answers the files still cached. */
  ggufDelete(url: string): readonly CachedFile[];
  /** A GGUF's facts from its header alone (a file read in place, a URL by Range requests); `error` says why they could not be read. */
  ggufFacts(source: GgufSource): GgufFacts | { readonly error: string };
  /** Starts a run (stopping the one before); its events follow the reply as `run` events. */
  startRun(config: RunConfig): RunInfo;
  controlRun(runId: number, action: RunAction): void;
  answerApproval(runId: number, askId: number, approved: boolean): void;
  /**
   * A person pressed "Approve and run" on replayed step `step` of run `runId`, a gated command
   * that did not run: it runs once, for real, in a fresh copy of the replay's workspace at that
   * step, and comes back beside its record. Only a step that waits for an approval is run.
   */
  approveStep(runId: number, step: number): ApprovedRun;
  /** The workspace after step `step` of the run (0 = before step 1). */
  runTree(runId: number, step: number): WorkspaceSnapshot;
  runFile(runId: number, step: number, path: string): FileView;
  /**
   * Hands the worker a port serving a workspace from the page (WebContainer, which boots on the
   * main thread only); runs asking for `workspace: 'webcontainer'` use it from then on. The port
   * is transferred (unusable on the page afterwards); a new attach replaces the one before.
   */
  attachWorkspace(port: MessagePort): AttachedWorkspaceInfo;
  /**
   * Hands the worker a port (transferred) to the JavaScript sandbox frame (public/sandbox.html),
   * which the page creates; `node` in the memory workspace runs there. Answered at once, ahead of
   * queued requests: a queued `node` waits for this port. `packageIndex`: where `pytest`'s wheels
   * come from, when the page names an index other than Pyodide's own (py-wheels.ts).
   */
  attachSandbox(port: MessagePort, packageIndex?: unknown): void;
  /** Decodes a share link (untrusted): the session, or the codec's message saying why not. */
  openLink(link: string): SessionCheck;
  /** Checks a session file (untrusted) the same way; its size is checked before it is read. */
  openFile(file: Blob): SessionCheck;
  /** The share link of a session on the page at `base`, and how long it is. */
  shareLink(session: Session, base: string): ShareLink;
  /** Starts a run from a recorded session (stopping the one before): replay, then optionally a live model. */
  startSessionRun(config: SessionRunConfig): RunInfo;
  /** "ACI off" for `step` of run `runId`: what a naive harness would have done with its raw output, over the workspace before it. */
  aciOff(runId: number, step: Step): AciOff;
  /** The ladder rungs a settings re-run can switch off. */
  ladderRungs(): readonly RungInfo[];
  /** What the in-memory shell runs and refuses, made from its command table and the policy's rules. */
  shellCommands(): readonly ShellCommandGroup[];
  /** Re-runs `session`'s raw outputs under other ACI settings in a fresh engine, up to the first step whose result differs. */
  rerunSettings(session: Session, aci: AciSettings): RerunReport;
  /** The edit-format bandit's table as stored, with the latest live run's choice. */
  evolveTable(): EvolveTable;
  /** Replays every step of `session` on a run host of its own (the run on screen goes on) and answers with all the step records. */
  replayRecords(session: Session): ReplayedSession;
  /** The builtin eval suite's tasks and the arms; evals run the builtin suite again. */
  evalSuite(): EvalSuiteInfo;
  /** Opens a suite (a folder's *.task.json files, or one .zip of them; paths as picked) for the evals that follow. */
  openEvalSuite(files: readonly { readonly path: string; readonly file: Blob }[]): EvalSuiteOpened;
  /** Starts an eval (stopping the one before); its events follow the reply as `eval` events. */
  startEval(config: EvalConfig): EvalStarted;
  /** Stops eval `evalId`: nothing new starts, the session it interrupts is left out. */
  stopEval(evalId: number): void;
  /** Checks an eval results file: the page's export (results and sessions in one file), or `slm eval`'s results.json with its session files (paths as picked). */
  openEval(files: readonly { readonly path: string; readonly file: Blob }[]): EvalOpen;
}

/** What the worker tells the page unasked: events, with no reply. */
export interface EngineEvents {
  /** Sent once, after the first session is created. */
  ready(info: EngineInfo): void;
  /** The worker could not set itself up; it answers nothing after this. */
  fatal(error: WireError): void;
  /** An event of run `runId`. */
  run(runId: number, event: RunEvent): void;
  /** An event of eval `evalId`. */
  eval(evalId: number, event: EvalEvent): void;
}

/** An error as data: enough to rethrow it with its name and message on the other side. */
export interface WireError {
  readonly name: string;
  readonly message: string;
  readonly stack?: string;
}
