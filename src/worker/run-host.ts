/**
 * Runs in the engine worker: the agent loop over a fresh workspace, one run at a time, its
 * steps sent to the page as they happen. Each step goes out as an immutable record with the
 * workspace change it made, measured by capturing the workspace after the step (RunHistory),
 * which is also what answers "the file tree at step N". Starting a run stops the one before.
 */
import { runLoop } from '../agent/loop.ts';
import { toModelError } from '../agent/model.ts';
import { CATALOG, DEFAULT_MODEL_ID } from '../agent/models/catalog.ts';
import { RECORDED_RUNS } from '../agent/scripts/starter-run.ts';
import { stopText, type Step, type Stop } from '../agent/step.ts';
import type { Engine } from '../engine/engine.ts';
import { TEMPLATES } from '../workspace/templates/index.ts';
import type { FileView, RunAction, RunConfig, RunEvent, RunInfo, RunOptions, WorkspaceSnapshot } from './protocol.ts';
import { RunController } from './run-controller.ts';
import { RunHistory } from './run-history.ts';
import { createModel, modelLabel, type ModelLink } from './run-models.ts';
import { checkRunSettings, engineSettingsFor, RUN_DEFAULTS } from './run-settings.ts';
import { createRunWorkspace, DROP_LIMITS } from './run-workspace.ts';

/** Where run events go: the worker posts them to the page. */
export type RunEmitter = (runId: number, event: RunEvent) => void;

export interface RunServices {
  /** WebLLM's model worker; absent in Node. */
  readonly webllm?: ModelLink;
  /** The fetch endpoints are called with (injected in tests). */
  readonly fetch?: typeof fetch;
}

interface ActiveRun {
  readonly info: RunInfo;
  readonly controller: RunController;
  readonly history: RunHistory;
  readonly engine: Engine;
}

/** The choices the start screen offers. */
export function runOptions(): RunOptions {
  return {
    templates: TEMPLATES.map((t) => ({ id: t.id, title: t.title, description: t.description, task: t.task, fileCount: Object.keys(t.files).length, hash: t.hash })),
    recorded: RECORDED_RUNS.map((r) => ({ id: r.id, title: r.title, description: r.description, templateId: r.templateId, steps: r.outputs.length })),
    catalog: CATALOG,
    defaultModelId: DEFAULT_MODEL_ID,
    defaults: RUN_DEFAULTS,
    dropLimits: DROP_LIMITS,
  };
}

export class RunHost {
  #run: ActiveRun | null = null;
  #nextId = 1;

  constructor(
    private readonly emit: RunEmitter,
    private readonly services: RunServices = {},
  ) {}

  /** Sets up the workspace and answers at once; the run itself begins after the reply has gone out. */
  async start(config: RunConfig): Promise<RunInfo> {
    const settings = checkRunSettings(config.settings);
    if (config.model.kind === 'scripted' && config.task.kind === 'files') {
      throw new Error('A scripted run replays turns recorded on a bundled task; with your own files, pick an endpoint or WebLLM.');
    }
    this.#run?.controller.stop();
    this.#run = null;
    const ws = await createRunWorkspace(config.task, engineSettingsFor(settings));
    const runId = this.#nextId++;
    const emit = (event: RunEvent) => this.emit(runId, event);
    const info: RunInfo = { runId, task: ws.task, workspace: ws.workspace, model: modelLabel(config.model), settings, skipped: ws.skipped };
    const run: ActiveRun = {
      info,
      controller: new RunController({ paused: config.paused ?? false, paceMs: config.model.kind === 'scripted' ? settings.paceMs : 0, emit }),
      history: new RunHistory(),
      engine: ws.session.engine,
    };
    await run.history.capture(run.engine.workspace);
    this.#run = run;
    // A timer, not a microtask: the reply to start-run is posted first, so the page knows the
    // run id before any of its events arrive.
    setTimeout(() => void this.#execute(run, config, emit), 0);
    return info;
  }

  control(runId: number, action: RunAction): void {
    this.#get(runId).controller.apply(action);
  }

  answer(runId: number, askId: number, approved: boolean): void {
    if (!this.#get(runId).controller.answer(askId, approved)) {
      throw new Error(`The approval question ${askId} is no longer open (it was answered, or the run stopped).`);
    }
  }

  tree(runId: number, step: number): WorkspaceSnapshot {
    return this.#get(runId).history.tree(step);
  }

  file(runId: number, step: number, path: string): FileView {
    return this.#get(runId).history.file(step, path);
  }

  #get(runId: number): ActiveRun {
    const run = this.#run;
    if (!run || run.info.runId !== runId) throw new Error(`Run ${runId} is no longer kept: only the latest run is. Start a new run.`);
    return run;
  }

  async #execute(run: ActiveRun, config: RunConfig, emit: (event: RunEvent) => void): Promise<void> {
    const { controller, history, engine, info } = run;
    const settings = info.settings;
    emit({ kind: 'phase', phase: controller.paused ? 'paused' : 'running' });
    let stop: Stop;
    try {
      const model = await createModel(config.model, {
        contextTokens: settings.contextTokens,
        onProgress: (progress) => emit({ kind: 'loading', progress }),
        ...(this.services.webllm && { webllm: this.services.webllm }),
        ...(this.services.fetch && { fetch: this.services.fetch }),
      });
      emit({ kind: 'model', id: model.id });
      // Steps are recorded in order; the gate waits for the last record, so the workspace is
      // captured after a step and before the next one can change it.
      let recorded = Promise.resolve();
      const result = await runLoop({
        engine,
        model,
        task: info.task,
        maxSteps: settings.maxSteps,
        seed: settings.seed,
        temperature: settings.temperature,
        contextTokens: Math.min(settings.contextTokens, model.contextWindow ?? settings.contextTokens),
        approval: settings.approval,
        approve: (request) => controller.approve(request),
        signal: controller.signal,
        gate: async (index) => {
          await recorded;
          await controller.gate(index);
        },
        onStep: (step) => {
          recorded = recorded.then(() => this.#record(history, engine, step, emit));
        },
        onToken: (delta, index) => emit({ kind: 'token', index, delta }),
      });
      await recorded;
      stop = result.stop;
    } catch (e) {
      const err = toModelError(e);
      stop = controller.signal.aborted ? { kind: 'stopped' } : { kind: 'model-error', code: err.code, message: err.message };
    }
    emit({ kind: 'ended', stop, text: stopText(stop) });
  }

  async #record(history: RunHistory, engine: Engine, step: Step, emit: (event: RunEvent) => void): Promise<void> {
    const n = await history.capture(engine.workspace);
    emit({ kind: 'step', record: { step, changes: history.changes(n), fileCount: history.fileCount(n) } });
  }
}
