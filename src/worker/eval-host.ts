/**
 * Evals in the engine worker, for the Eval page: the chosen tasks × arms × seeds of the builtin
 * suite, or of a suite the page opened (a folder of *.task.json files or a .zip of one,
 * eval-suite-open.ts), run by the eval runner (src/eval/runner.ts, the same one `slm eval` uses), each session
 * in a fresh memory workspace whose `node` runs in the JavaScript sandbox, graded by the task's
 * hidden grader there. Each finished session goes to the page with its row of the results; the
 * end carries results.json. One eval at a time; starting one stops the one before. The model is
 * the reference solutions applied by scripted turns (a pipeline check, labelled as such) or a
 * live model in the tab or at an endpoint, created once for all sessions.
 */
import type { Model } from '../agent/model.ts';
import { metaString, readGgufHeader } from '../agent/models/gguf-header.ts';
import { remoteGguf } from '../agent/models/gguf-remote.ts';
import { ARMS, chooseArms } from '../eval/arms.ts';
import type { WorkspaceFactory } from '../eval/grade.ts';
import { modelInfo } from '../eval/model-label.ts';
import { referenceModel } from '../eval/reference-model.ts';
import type { EvalRun } from '../eval/results-schema.ts';
import { buildResults } from '../eval/results.ts';
import { EVAL_DEFAULTS, planRuns, runEval } from '../eval/runner.ts';
import type { EvalTask } from '../eval/task.ts';
import { BUILTIN_TASKS } from '../eval/tasks/index.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { openEvalSuite } from './eval-suite-open.ts';
import type {
  EvalConfig,
  EvalEvent,
  EvalModelChoice,
  EvalStarted,
  EvalSuiteInfo,
  EvalSuiteOpened,
} from './protocol.ts';
import type { RunServices } from './run-host.ts';
import { createModel } from './run-models.ts';

/** Bounds on what the page may ask for. */
export const EVAL_LIMITS = Object.freeze({ seeds: 20, jobs: 16, maxSteps: 200, contextTokens: 262_144 });

/** The browser's eval workspace: memory, with `node` in the sandbox frame. */
const sandboxedMemory: WorkspaceFactory = async () => new MemoryWorkspace(undefined, undefined, sandboxRunner());

/** The spec `slm eval --model` would take for this choice: what the results name, and what decides the label. */
export function evalModelSpec(choice: EvalModelChoice): string {
  switch (choice.kind) {
    case 'reference':
      return 'reference';
    case 'openai':
      return `openai:${choice.baseUrl}#${choice.model}`;
    case 'webllm':
      return `webllm:${choice.modelId}`;
    case 'gguf':
      return `gguf:${'url' in choice.source ? choice.source.url : choice.source.name}`;
    default: {
      const never: never = choice;
      throw new TypeError(`eval: unknown model choice ${JSON.stringify(never)}`);
    }
  }
}

/**
 * A GGUF names itself (`general.name`), which tells the random-weight test model from a
 * language model: a file picked from disk is read in place, a URL's header is fetched by
 * Range requests. One that cannot be read counts as a model (and its load says why).
 */
/** How long the Eval page waits for a GGUF URL's header before it counts the model as a model. */
const GGUF_NAME_TIMEOUT_MS = 15_000;

async function ggufName(choice: EvalModelChoice, fetchFn?: typeof fetch): Promise<string | undefined> {
  if (choice.kind !== 'gguf') return undefined;
  try {
    // A URL's header is read with Range requests (about a megabyte), not the whole model, and
    // within a bound: the host answers one request at a time, so a server that never answers must not hold the rest.
    const source =
      'file' in choice.source
        ? choice.source.file
        : await remoteGguf(choice.source.url, {
            ...(fetchFn && { fetch: fetchFn }),
            signal: AbortSignal.timeout(GGUF_NAME_TIMEOUT_MS),
          });
    return metaString(await readGgufHeader(source), 'general.name');
  } catch {
    return undefined; // loading the model says what is wrong with the file or the address
  }
}

/** A suite the page can run: its name (`builtin`, or the folder or zip it was opened from) and its tasks. */
interface Suite {
  readonly name: string;
  readonly tasks: readonly EvalTask[];
}

const BUILTIN: Suite = { name: 'builtin', tasks: BUILTIN_TASKS };

/** What the page shows of a suite: its name, its tasks and the arms. */
function suiteInfo(suite: Suite): EvalSuiteInfo {
  return {
    name: suite.name,
    tasks: suite.tasks.map((t) => ({
      id: t.id,
      title: t.title,
      mechanisms: [...(t.mechanisms ?? [])],
      ...(t.language && { language: t.language }),
    })),
    arms: ARMS.map((a) => ({ id: a.id, label: a.label })),
  };
}

export class EvalHost {
  #current: { readonly id: number; readonly stop: AbortController } | null = null;
  #nextId = 1;
  /** The suite an eval runs: the builtin one until the page opens another. */
  #suite: Suite = BUILTIN;

  constructor(
    private readonly emit: (evalId: number, event: EvalEvent) => void,
    private readonly services: RunServices = {},
    private readonly openWorkspace: WorkspaceFactory = sandboxedMemory,
  ) {}

  /** Makes the builtin suite the one evals run, and describes it. */
  builtinSuite(): EvalSuiteInfo {
    this.#suite = BUILTIN;
    return suiteInfo(BUILTIN);
  }

  /** Opens a suite folder's files or a .zip of one (untrusted: checked as `slm eval --suite` checks a folder); evals then run it. */
  async openSuite(files: readonly { readonly path: string; readonly file: Blob }[]): Promise<EvalSuiteOpened> {
    const opened = await openEvalSuite(files);
    if (!opened.ok) return opened;
    this.#suite = { name: opened.name, tasks: opened.tasks };
    return { ok: true, suite: suiteInfo(this.#suite) };
  }

  /** Checks the configuration and answers at once; the sessions run after the reply has gone out. */
  async start(config: EvalConfig): Promise<EvalStarted> {
    const suite = this.#suite;
    const tasks = suite.tasks.filter((t) => config.tasks.includes(t.id));
    const unknown = config.tasks.filter((id) => !suite.tasks.some((t) => t.id === id));
    if (unknown.length)
      throw new Error(
        `Unknown task${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')}: pick tasks of the suite ${suite.name}.`,
      );
    if (!tasks.length) throw new Error('Pick at least one task.');
    const arms = chooseArms(config.arms.join(','));
    if (!arms.ok) throw new Error(`Pick the arms again: ${arms.text}.`);
    const whole = (n: number, max: number, what: string, min = 1) => {
      if (!Number.isInteger(n) || n < min || n > max)
        throw new Error(`${what} must be a whole number from ${min} to ${max}.`);
      return n;
    };
    const seeds = whole(config.seeds, EVAL_LIMITS.seeds, 'Seeds');
    const maxSteps = whole(config.maxSteps, EVAL_LIMITS.maxSteps, 'The step limit');
    const contextTokens = whole(config.contextTokens, EVAL_LIMITS.contextTokens, 'The context window', 256);
    // A model in this tab answers one prompt at a time; only an endpoint serves several.
    const jobs = config.model.kind === 'openai' ? whole(config.jobs, EVAL_LIMITS.jobs, 'Sessions at once') : 1;

    this.#current?.stop.abort();
    const id = this.#nextId++;
    const stop = new AbortController();
    this.#current = { id, stop };
    const plan = planRuns(tasks, arms.arms, seeds);
    const spec = evalModelSpec(config.model);
    const model = modelInfo(spec, await ggufName(config.model, this.services.fetch));
    const emit = (event: EvalEvent) => this.emit(id, event);
    const createdAt = new Date().toISOString();
    const runs: EvalRun[] = [];
    const finish = (complete: boolean, error?: string) =>
      emit({
        kind: 'ended',
        results: buildResults({ suite: suite.name, model, createdAt, arms: arms.arms, seeds, tasks, runs, complete }),
        ...(error && { error }),
      });

    const loop = { ...EVAL_DEFAULTS, maxSteps, contextTokens };
    let live: Promise<Model> | null = null;
    const choice = config.model;
    const liveModel = () =>
      (live ??= createModel(choice as Exclude<EvalModelChoice, { kind: 'reference' }>, {
        contextTokens: loop.contextTokens,
        onProgress: (progress) => emit({ kind: 'loading', progress }),
        ...(this.services.webllm && { webllm: this.services.webllm }),
        ...(this.services.gguf && { gguf: this.services.gguf }),
        ...(this.services.fetch && { fetch: this.services.fetch }),
      }));
    setTimeout(() => {
      runEval(plan, {
        openWorkspace: this.openWorkspace,
        model: async (s) => ({
          model: choice.kind === 'reference' ? referenceModel(s.task, loop.contextTokens) : await liveModel(),
        }),
        loop,
        jobs,
        signal: stop.signal,
        onStart: (s) => emit({ kind: 'start', task: s.task.id, arm: s.arm.id, seed: s.seed }),
        onRun: (run, [session]) => {
          runs.push(run);
          emit({ kind: 'run', run, session: session! });
        },
      }).then(
        (outcome) => finish(outcome.complete),
        (e: unknown) => finish(false, e instanceof Error ? e.message : String(e)),
      );
    }, 0);
    return { evalId: id, total: plan.length, model };
  }

  stop(evalId: number): void {
    if (this.#current?.id === evalId) this.#current.stop.abort();
  }
}
