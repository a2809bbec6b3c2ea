/**
 * Runs in the engine worker: the agent loop over a fresh workspace, one run at a time, its
 * steps sent to the page as they happen. Each step goes out as an immutable record with the
 * workspace change it made, measured by capturing the workspace after the step (RunHistory),
 * which is also what answers "the file tree at step N". Starting a run stops the one before.
 *
 * Every run is recorded as a Session record as it goes (recordRun): the header goes out before
 * step 1 and each step carries its record entry, so the page can save the run after every
 * step. A run from a recorded session (session-run.ts) replays its first steps, checks each
 * against the record, and may then go on with a live model.
 */
import type { ApprovalMode, ApprovalRequest } from '../agent/approvals.ts';
import {
  dominantLanguage,
  EditFormatBandit,
  type BanditStore,
  type BanditTable,
  type EditFormat,
} from '../agent/evolve.ts';
import { toModelError, type Model } from '../agent/model.ts';
import type { Step, Stop } from '../agent/step.ts';
import type { Engine } from '../engine/engine.ts';
import { hashTemplateFiles, templateById } from '../workspace/templates/index.ts';
import type { AttachedWorkspace } from './attached-workspace.ts';
import { openBanditStore, SavingBandit } from './evolve-store.ts';
import type {
  ApprovedRun,
  EvolveChoice,
  EvolveTable,
  FileView,
  RunAction,
  RunConfig,
  RunEvent,
  RunInfo,
  SessionRunConfig,
  WorkspaceChoice,
  WorkspaceSnapshot,
} from './protocol.ts';
import { RunController } from './run-controller.ts';
import { RunHistory } from './run-history.ts';
import { createModel, modelLabel, replayLabel, type ModelContext, type ModelLink } from './run-models.ts';
import { checkRunSettings, engineSettingsFor } from './run-settings.ts';
import { createRunWorkspace } from './run-workspace.ts';
import { checkOutside, outsideAccess, outsideSettings } from './run-outside.ts';
import type { SessionBackend } from './starter-session.ts';
import type { AgentSettings, RecordedStep, Session } from '../session/record.ts';
import { planBranch } from '../session/branch.ts';
import { continuedNotes, type ContinuedNotes } from '../session/continued.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { HARNESS_LABELS } from '../session/naive-engine.ts';
import { agentSettings, loopSettings, recordHeader, recordRun } from '../session/recorder.ts';
import { boundsText, deadlineText, REPLAY_DEADLINE_MS } from '../session/replay-bounds.ts';
import { ReplayChecker, replayApprovals, type ReplayApprovals, type ReplayVerdict } from '../session/replay-check.ts';
import { describeStart, type StartDescription } from '../session/start.ts';
import { checkSession } from '../session/validate.ts';
import {
  continuationSteps,
  endText,
  openSessionWorkspace,
  PrefixModel,
  ReplayDeadline,
  scriptedContinuation,
} from './session-run.ts';
import { approvalOffer, runApprovedStep } from './approve-step.ts';

/** Where run events go: the worker posts them to the page. */
export type RunEmitter = (runId: number, event: RunEvent) => void;

export interface RunServices {
  /** WebLLM's model worker; absent in Node. */
  readonly webllm?: ModelLink;
  /** llama.cpp's model worker; absent in Node. */
  readonly gguf?: ModelLink;
  /** The fetch endpoints are called with (injected in tests). */
  readonly fetch?: typeof fetch;
  /** The workspace the page attached (WebContainer), for runs that ask for it. */
  readonly attached?: AttachedWorkspace;
  /** Where the edit-format bandit's table is kept (default: IndexedDB when the worker has it, else memory). */
  readonly bandits?: BanditStore;
  /** The whole replay's deadline of a session run, in ms (default REPLAY_DEADLINE_MS; shorter in tests). */
  readonly replayDeadlineMs?: number;
}

/** Why a run that asked for WebContainer runs in memory, when nothing is attached. */
export const NO_WEBCONTAINER =
  'WebContainer was chosen, but the page has not attached it to the engine (it did not start on this page); this run uses the in-memory workspace. ' +
  'Reload the page to try WebContainer again.';

interface ActiveRun {
  readonly info: RunInfo;
  readonly controller: RunController;
  readonly history: RunHistory;
  readonly engine: Engine;
  /** For a run from a recorded session: the record, and the replayed steps that wait for an approval. */
  readonly replay?: { readonly session: Session; readonly unapproved: Set<number> };
}

/** What differs between a run from the start screen and a run from a recorded session. */
interface RunPlan {
  /** Builds the model, after the reply to the start request has gone out. */
  model(ctx: ModelContext): Promise<Model>;
  /** The loop settings the run uses and records, once the model (and its context window) is known. */
  agent(model: Model): AgentSettings;
  readonly seed: number;
  readonly temperature: number;
  readonly approval: ApprovalMode | ((step: number) => ApprovalMode);
  /** The starting workspace, described before step 1. */
  readonly start: StartDescription;
  /** Recorded answers for the replayed steps of a session run. */
  readonly approvals?: ReplayApprovals;
  readonly checker?: ReplayChecker;
  /**
   * A live run from the start screen: the edit-format bandit chooses the format the prompt
   * recommends and learns from the run. Runs from a record keep the recorded format, so they reproduce.
   */
  readonly evolve?: boolean;
  /** What the record says of its steps: where a branch branched, where a reload cut the run short (session/continued.ts). */
  readonly notes?: ContinuedNotes;
  /**
   * What bounds a session run's replay (session/replay-bounds.ts): the record's timeouts it
   * clamped, and the whole replay's deadline, which ends with the replayed part when a live
   * model goes on (`live`) and covers the whole run otherwise.
   */
  readonly bounds?: { readonly clamped: readonly string[]; readonly deadline: ReplayDeadline; readonly live: boolean };
}

/** A live run's bandit, the language it keys on, and the format it chose for the prompt. */
interface LiveFormat {
  readonly bandit: SavingBandit;
  readonly language: string;
  readonly format: EditFormat;
}

export class RunHost {
  #run: ActiveRun | null = null;
  #nextId = 1;
  readonly #bandits: BanditStore;
  /** The latest live run's bandit and its choice. */
  #evolve: { readonly bandit: SavingBandit; readonly choice: EvolveChoice } | null = null;

  constructor(
    private readonly emit: RunEmitter,
    private readonly services: RunServices = {},
  ) {
    this.#bandits = services.bandits ?? openBanditStore(typeof indexedDB === 'undefined' ? undefined : indexedDB);
  }

  /** Sets up the workspace and answers at once; the run itself begins after the reply has gone out. */
  async start(config: RunConfig): Promise<RunInfo> {
    const settings = checkRunSettings(config.settings);
    const outside = config.outside === undefined ? undefined : checkOutside(config.outside);
    if (config.model.kind === 'scripted' && config.task.kind === 'files') {
      throw new Error(
        'A scripted run replays turns recorded on a bundled task; with your own files, pick llama.cpp or WebLLM in this tab, or an endpoint.',
      );
    }
    this.#run?.controller.stop();
    this.#run = null;
    const placed = await this.#backendFor(config.workspace ?? 'memory');
    const ws = await createRunWorkspace(
      config.task,
      { ...engineSettingsFor(settings), ...outsideSettings(outside) },
      placed.backend,
      outsideAccess(outside, this.services.fetch),
    );
    const runId = this.#nextId++;
    const emit = (event: RunEvent) => this.emit(runId, event);
    const info: RunInfo = {
      runId,
      task: ws.task,
      workspace: ws.workspace,
      model: modelLabel(config.model),
      settings,
      ...toolsOf(ws.session.engine),
      skipped: ws.skipped,
      backend: ws.session.engine.workspace.kind,
      ...(placed.note && { backendNote: placed.note }),
    };
    const run: ActiveRun = {
      info,
      controller: new RunController({
        paused: config.paused ?? false,
        paceMs: config.model.kind === 'scripted' ? settings.paceMs : 0,
        emit,
      }),
      history: new RunHistory(),
      engine: ws.session.engine,
    };
    const plan: RunPlan = {
      model: (ctx) => createModel(config.model, ctx),
      // The step limit and context window of the start screen, the loop's defaults for the rest.
      agent: (model) =>
        agentSettings({
          maxSteps: settings.maxSteps,
          contextTokens: Math.min(settings.contextTokens, model.contextWindow ?? settings.contextTokens),
        }),
      seed: settings.seed,
      temperature: settings.temperature,
      approval: settings.approval,
      start: await describeStart(run.engine.workspace),
      evolve: true,
    };
    return this.#launch(run, plan, emit);
  }

  /**
   * Starts a run from a recorded session: a fresh memory workspace seeded from the record, its
   * first `upTo` raw outputs replayed and checked, then the live model when one is given. The
   * session is untrusted (a link, a file): it is checked again here, and the record's settings
   * pass the schema's bounds; none of them can approve anything.
   */
  async startSession(config: SessionRunConfig): Promise<RunInfo> {
    const settings = checkRunSettings(config.settings);
    const checked = await checkSession(config.session);
    if (!checked.ok) throw new Error(checked.text);
    const session = checked.session;
    const { upTo, edit } = config;
    const choice = edit?.then === 'record' ? null : config.model;
    const n = session.steps.length;
    if (edit && edit.then === 'model' && !choice)
      throw new Error('A branch that goes on with a live model needs one: pick it on the start screen.');
    const branched = edit ? await planBranch(session, upTo + 1, edit.raw, edit.then, edit.parentId) : null;
    if (branched && !branched.ok) throw new Error(branched.text);
    const branch = branched?.ok ? branched.plan : null;
    // A continuation keeps what the record says of the steps it replays; a new branch names its own point.
    const notes: ContinuedNotes = { ...continuedNotes(session, upTo), ...(branch && { branch: branch.branch }) };
    if (!branch && (!Number.isInteger(upTo) || upTo < (choice ? 0 : 1) || upTo > n)) {
      throw new Error(
        `Step ${upTo} is not in this session: it has ${n} recorded step${n === 1 ? '' : 's'}; pick one of them.`,
      );
    }
    this.#run?.controller.stop();
    this.#run = null;
    const opened = await openSessionWorkspace(session);
    if (!opened.ok) throw new Error(opened.text);
    const runId = this.#nextId++;
    const emit = (event: RunEvent) => this.emit(runId, event);
    const ref = session.workspace;
    const template = 'template' in ref ? templateById(ref.template.id) : undefined;
    const info: RunInfo = {
      runId,
      task: session.task,
      workspace: template
        ? { kind: 'template', id: template.id, title: template.title, hash: template.hash }
        : {
            kind: 'files',
            fileCount: 'files' in ref ? Object.keys(ref.files).length : 0,
            hash: 'files' in ref ? await hashTemplateFiles(ref.files) : '',
          },
      model: choice
        ? modelLabel(choice)
        : branch
          ? { label: 'the recorded outputs, one of them edited', scripted: true }
          : replayLabel(session.model.id),
      settings,
      ...toolsOf(opened.engine),
      ...(session.harness && { harness: HARNESS_LABELS[session.harness] }),
      skipped: [],
      backend: opened.engine.workspace.kind,
      replay: { upTo, continues: choice !== null || branch !== null },
      ...(notes.branch && { branch: notes.branch }),
    };
    const run: ActiveRun = {
      info,
      // Replayed steps run at full speed; the pace applies only to a scripted live part.
      controller: new RunController({
        paused: config.paused ?? false,
        paceMs: choice?.kind === 'scripted' || branch?.rest ? settings.paceMs : 0,
        paceAfter: upTo,
        emit,
      }),
      history: new RunHistory(),
      engine: opened.engine,
      replay: { session, unapproved: new Set() },
    };
    const deadline = new ReplayDeadline(this.services.replayDeadlineMs ?? REPLAY_DEADLINE_MS, () =>
      run.controller.stop(),
    );
    const agent = session.settings.agent;
    const outputs = session.steps.slice(0, upTo).map((s) => s.raw);
    const family = String(session.model.params.family ?? 'scripted');
    const plan: RunPlan = {
      model: async (ctx) => {
        // A branch gives the edited output after the replayed ones, then the record's later outputs or the live model.
        if (branch?.rest)
          return new PrefixModel(
            branch.outputs,
            new ScriptedModel(branch.rest, { name: 'branch', family, contextWindow: agent.contextTokens }),
            family,
          );
        if (branch) return new PrefixModel(branch.outputs, await createModel(choice!, ctx), family);
        if (!choice) return new PrefixModel(outputs, null, family);
        const live =
          choice.kind === 'scripted'
            ? scriptedContinuation(choice.recordedId, session, upTo, agent.contextTokens)
            : await createModel(choice, ctx);
        return new PrefixModel(outputs, live, family);
      },
      agent: (model) => ({
        ...agent,
        maxSteps: branch?.rest
          ? Math.max(agent.maxSteps, n)
          : choice
            ? continuationSteps(branch ? upTo + 1 : upTo, settings.maxSteps)
            : agent.maxSteps,
        contextTokens: Math.min(agent.contextTokens, model.contextWindow ?? agent.contextTokens),
      }),
      seed: session.model.seed,
      temperature: session.model.temperature,
      // Replayed steps run as a replay does, with its answers (a recorded approval is never one); live steps under the person's setting.
      approval: (step) => ((choice || branch) && step > upTo ? settings.approval : 'auto'),
      start: await describeStart(run.engine.workspace),
      approvals: replayApprovals(session.steps, upTo),
      // Clamped timeouts are settings other than the record's: a difference they explain is said to be theirs.
      checker: await ReplayChecker.create(
        session,
        upTo,
        opened.backend,
        opened.runsCommands,
        opened.clamped.length ? opened.engine.settings : undefined,
      ),
      notes,
      bounds: { clamped: opened.clamped, deadline, live: choice !== null },
    };
    return this.#launch(run, plan, emit);
  }

  control(runId: number, action: RunAction): void {
    this.#get(runId).controller.apply(action);
  }

  answer(runId: number, askId: number, approved: boolean): void {
    if (!this.#get(runId).controller.answer(askId, approved)) {
      throw new Error(`The approval question ${askId} is no longer open (it was answered, or the run stopped).`);
    }
  }

  /**
   * "Approve and run", pressed by a person on replayed step `step`: only a step of this run that
   * did not run for want of an approval, run once in a fresh copy of the workspace at that step.
   */
  async approveStep(runId: number, step: number): Promise<ApprovedRun> {
    const run = this.#get(runId);
    if (!run.replay?.unapproved.has(step)) {
      throw new Error(
        `Step ${step} of this run does not wait for an approval: only a replayed gated command that did not run can be approved and run.`,
      );
    }
    return runApprovedStep(run.replay.session, step, run.history);
  }

  tree(runId: number, step: number): WorkspaceSnapshot {
    return this.#get(runId).history.tree(step);
  }

  file(runId: number, step: number, path: string): FileView {
    return this.#get(runId).history.file(step, path);
  }

  /** The run's text files after `step` (0 = before step 1), path → text. */
  textFiles(runId: number, step: number): Record<string, string> {
    return this.#get(runId).history.textFiles(step);
  }

  /** The bandit's table as stored (after the saves asked for so far), with the latest live run's choice. */
  async evolveTable(): Promise<EvolveTable> {
    const live = this.#evolve;
    await live?.bandit.saved();
    // When the store fails, the latest run's own copy is what there is to show.
    const view = (table: BanditTable | null, problem?: string): EvolveTable => ({
      rows: new EditFormatBandit(table).rows(),
      ...(live && { choice: live.choice }),
      ...(problem && { problem: `${problem}; what is shown is the latest run's copy, kept until the page is closed.` }),
    });
    let stored: BanditTable | null;
    try {
      stored = await this.#bandits.load();
    } catch (e) {
      return view(live?.bandit.toJSON() ?? null, `The edit-format table could not be read (${errorText(e)})`);
    }
    const saveError = live?.bandit.saveError;
    return saveError
      ? view(live.bandit.toJSON(), `The edit-format table could not be saved (${saveError})`)
      : view(stored);
  }

  /** The backend a run asked for, or none (memory) with the reason when it is not there. */
  async #backendFor(choice: WorkspaceChoice): Promise<{ backend?: SessionBackend; note?: string }> {
    switch (choice) {
      case 'memory':
        return {};
      case 'webcontainer': {
        let backend: SessionBackend | null = null;
        try {
          backend = (await this.services.attached?.fresh()) ?? null;
        } catch (e) {
          // The page stopped answering (EIO): the run still starts, in memory, and says why.
          const why = e instanceof Error ? e.message : String(e);
          return {
            note: `WebContainer could not be prepared for this run (${why}); this run uses the in-memory workspace. Reload the page to try WebContainer again.`,
          };
        }
        return backend ? { backend } : { note: NO_WEBCONTAINER };
      }
      default: {
        const never: never = choice;
        throw new TypeError(`run host: unknown workspace choice ${JSON.stringify(never)}`);
      }
    }
  }

  #get(runId: number): ActiveRun {
    const run = this.#run;
    if (!run || run.info.runId !== runId)
      throw new Error(`Run ${runId} is no longer kept: only the latest run is. Start a new run.`);
    return run;
  }

  /** Captures the starting workspace, makes the run the current one and answers; the run itself begins after the reply. */
  async #launch(run: ActiveRun, plan: RunPlan, emit: (event: RunEvent) => void): Promise<RunInfo> {
    await run.history.capture(run.engine.workspace);
    this.#run = run;
    // A timer, not a microtask: the reply to the start request is posted first, so the page
    // knows the run id before any of its events arrive.
    setTimeout(() => void this.#execute(run, plan, emit), 0);
    return run.info;
  }

  async #execute(run: ActiveRun, plan: RunPlan, emit: (event: RunEvent) => void): Promise<void> {
    const { controller, engine, info } = run;
    const settings = info.settings;
    const createdAt = new Date().toISOString();
    emit({ kind: 'phase', phase: controller.paused ? 'paused' : 'running' });
    let stop: Stop;
    let chosen: LiveFormat | null = null;
    // Steps recorded so far: a live reply's speed belongs to the step after them.
    let steps = 0;
    try {
      const model = await plan.model({
        contextTokens: settings.contextTokens,
        onProgress: (progress) => emit({ kind: 'loading', progress }),
        onSpeed: (speed) => emit({ kind: 'speed', index: steps + 1, speed }),
        ...(this.services.webllm && { webllm: this.services.webllm }),
        ...(this.services.gguf && { gguf: this.services.gguf }),
        ...(this.services.fetch && { fetch: this.services.fetch }),
      });
      emit({ kind: 'model', id: model.id });
      if (plan.evolve) chosen = await this.#chooseFormat(run, model.family);
      // The chosen format is part of the record's settings, so a replay recommends the same one.
      const agent = chosen ? { ...plan.agent(model), editFormat: chosen.format } : plan.agent(model);
      const { seed, temperature, approvals } = plan;
      const header = await recordHeader(
        { engine, model, task: info.task, seed, temperature },
        agent,
        plan.start.ref,
        createdAt,
      );
      emit({ kind: 'session', header: { ...header, ...plan.notes } });
      // Steps are recorded in order; the gate waits for the last record, so the workspace is
      // captured after a step and before the next one can change it.
      let recorded = Promise.resolve();
      plan.bounds?.deadline.resume();
      const { result } = await recordRun({
        engine,
        model,
        task: info.task,
        seed,
        temperature,
        ...loopSettings(agent),
        createdAt,
        approval: plan.approval,
        approve: (request: ApprovalRequest) => {
          const answer = approvals?.answer(request);
          return answer === undefined ? controller.approve(request) : Promise.resolve(answer);
        },
        ...(approvals && { isGated: approvals.isGated }),
        signal: controller.signal,
        gate: async (index) => {
          await recorded;
          approvals?.at(index);
          // A person's pause is not the replay's time.
          plan.bounds?.deadline.suspend();
          await controller.gate(index);
          plan.bounds?.deadline.resume();
        },
        // An equivalent replayed step goes forward as the text the model saw when it was recorded.
        ...(plan.checker && { seen: (index: number) => plan.checker!.seen(index) }),
        onRecord: (entry, step) => {
          steps++;
          recorded = recorded.then(() => this.#record(run, plan, step, entry, emit));
        },
        onToken: (delta, index) => emit({ kind: 'token', index, delta }),
        ...(chosen && { evolve: chosen.bandit, language: chosen.language }),
      });
      await recorded;
      stop = result.stop;
    } catch (e) {
      const err = toModelError(e);
      stop = controller.signal.aborted
        ? { kind: 'stopped' }
        : { kind: 'model-error', code: err.code, message: err.message };
    }
    const deadline = plan.bounds?.deadline;
    deadline?.end();
    const verdict = plan.checker?.verdict(deadline?.hit ? deadlineText(deadline.ms) : stop);
    if (verdict) emit({ kind: 'verdict', verdict: bounded(verdict, plan.bounds) });
    // The table is saved before the run says it ended, so the page reads what this run learned.
    await chosen?.bandit.saved();
    const text = deadline?.hit ? sentence(boundsText([], deadline.ms, true)) : endText(stop, info.replay);
    emit({ kind: 'ended', stop, text });
  }

  /**
   * A live run's bandit over the stored table (a fresh table when it cannot be read), keyed on
   * the model's family and the main language of the starting workspace, and the format it chose.
   */
  async #chooseFormat(run: ActiveRun, family: string): Promise<LiveFormat> {
    // A table that cannot be read starts a fresh one; the table request then says why.
    const table = await this.#bandits.load().catch(() => null);
    const bandit = new SavingBandit(table, run.info.settings.seed + 1, this.#bandits);
    const files = run.history
      .tree(0)
      .entries.filter((e) => e.type === 'file')
      .map((e) => e.path);
    const language = dominantLanguage(files);
    const format = bandit.choose(family, language);
    this.#evolve = { bandit, choice: { runId: run.info.runId, family, language, format } };
    return { bandit, language, format };
  }

  /** Captures the workspace after `step` and sends the step with its record entry (and, when replayed, its check). */
  async #record(
    run: ActiveRun,
    { checker, bounds }: RunPlan,
    step: Step,
    entry: RecordedStep,
    emit: (event: RunEvent) => void,
  ): Promise<void> {
    const n = await run.history.capture(run.engine.workspace);
    const check = await checker?.check(entry, step);
    const recordedApproval = check && run.replay?.session.steps[step.index - 1]?.approval;
    const offer =
      check && step.approval === 'unapproved' && step.call ? await approvalOffer(run.engine, step.call) : undefined;
    if (offer) run.replay?.unapproved.add(step.index);
    const record = {
      step,
      changes: run.history.changes(n),
      fileCount: run.history.fileCount(n),
      recorded: entry,
      ...(check && { check }),
      ...(recordedApproval && { recordedApproval }),
      ...(offer && { offer }),
    };
    emit({ kind: 'step', record });
    // The replayed part is over: say so now, before a live model takes over (its time is not the replay's).
    if (checker?.complete && bounds?.live) bounds.deadline.end();
    const verdict = checker?.complete ? checker.verdict() : null;
    if (verdict) emit({ kind: 'verdict', verdict: bounded(verdict, bounds) });
  }
}

/** The verdict with what bounded the replay, when a bound applied. */
function bounded(verdict: ReplayVerdict, bounds: RunPlan['bounds']): ReplayVerdict {
  const text = bounds ? boundsText(bounds.clamped, bounds.deadline.ms, bounds.deadline.hit) : '';
  return text ? { ...verdict, bounds: text } : verdict;
}

function sentence(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}.`;
}

function errorText(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

/** The tool set a run's engine was made with, and the tools it offers. */
function toolsOf(engine: Engine): Pick<RunInfo, 'toolSet' | 'tools'> {
  return { toolSet: engine.settings.tool_set, tools: [...engine.tools.keys()] };
}
