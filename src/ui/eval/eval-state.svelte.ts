/**
 * The Eval page's state: the suite (the builtin one, or one opened from a folder or a .zip) and
 * the choice of tasks, arms, seeds and model (the
 * reference solutions as scripted turns, or the start screen's live model: WebLLM, llama.cpp
 * in the tab, or an endpoint); an eval while it runs (progress, the time it has taken and an
 * estimate of what is left); and the results with their sessions — made here, or opened from
 * a file (this page's export, or an `slm eval` folder). Results from scripted turns or the
 * random-weight test model are `meaningless` and the page says so wherever numbers show.
 */
import { meaningless } from '../../eval/model-label.ts';
import { summarize } from '../../eval/summary.ts';
import {
  evalBundleText,
  type EngineClient,
  type EvalModelChoice,
  type EvalModelInfo,
  type EvalResults,
  type EvalRun,
  type EvalSuiteInfo,
  type LoadProgress,
  type RunConfig,
  type Session,
} from '../../worker/client.ts';

/** The start screen's model, or why there is none to run an eval with. */
export type LiveChoice =
  | { readonly ok: true; readonly choice: EvalModelChoice; readonly label: string; readonly contextTokens: number }
  | { readonly ok: false; readonly reason: string };

/** The context window of the reference solutions' sessions: the loop's default. */
const REFERENCE_CONTEXT_TOKENS = 4096;

/** What the page reads of the start screen. */
export interface StartReadiness {
  readonly readiness:
    { readonly ok: true; readonly config: RunConfig } | { readonly ok: false; readonly reason: string };
}

/** The start screen's model as an eval model: any live one; the scripted runs fit only their own task. */
export function liveChoice(start: StartReadiness): LiveChoice {
  const ready = start.readiness;
  if (!ready.ok) return { ok: false, reason: `finish the model choice on the start screen: ${ready.reason}` };
  const m = ready.config.model;
  const { contextTokens } = ready.config.settings;
  switch (m.kind) {
    case 'scripted':
      return {
        ok: false,
        reason:
          'the start screen has the scripted model, whose recorded turns fit only its own task; pick WebLLM, llama.cpp or an endpoint there',
      };
    case 'openai':
      return { ok: true, choice: m, label: `${m.model} at ${m.baseUrl} (endpoint)`, contextTokens };
    case 'webllm':
      return {
        ok: true,
        choice: m,
        label: `WebLLM ${m.custom ? m.custom.url : m.modelId} (in this tab, on the GPU)`,
        contextTokens,
      };
    case 'gguf':
      return {
        ok: true,
        choice: m,
        label: `llama.cpp ${m.label ?? ('url' in m.source ? m.source.url : m.source.name)} (in this tab, on the CPU)`,
        contextTokens,
      };
    default: {
      const never: never = m;
      throw new TypeError(`unknown model choice ${JSON.stringify(never)}`);
    }
  }
}

/** An eval while it runs. */
export interface Running {
  readonly evalId: number;
  readonly total: number;
  readonly model: EvalModelInfo;
  /** Date.now() when it started. */
  readonly since: number;
  /** The session in progress, as `task · arm · seed`. */
  readonly current: string | null;
  readonly loading: LoadProgress | null;
}

/** Where the results on the page came from. */
export type ResultsSource = { readonly kind: 'here' } | { readonly kind: 'file'; readonly name: string };

/** Elapsed time and the estimate of what is left, from the sessions finished so far. */
export function estimate(done: number, total: number, elapsedMs: number): { elapsedMs: number; leftMs: number | null } {
  return { elapsedMs, leftMs: done > 0 ? Math.round((elapsedMs / done) * (total - done)) : null };
}

export class EvalState {
  suite = $state.raw<EvalSuiteInfo | null>(null);
  tasks = $state.raw<readonly string[]>([]);
  arms = $state.raw<readonly string[]>(['on', 'off']);
  seeds = $state(1);
  jobs = $state(4);
  maxSteps = $state(25);
  model = $state<'reference' | 'live'>('reference');
  running = $state.raw<Running | null>(null);
  /** The runs so far (live), or those of the results opened. */
  runs = $state.raw<readonly EvalRun[]>([]);
  /** The results once an eval ended, or as opened. */
  results = $state.raw<EvalResults | null>(null);
  /** Sessions by the path the runs name. */
  sessions = $state.raw<Readonly<Record<string, Session>>>({});
  /** Sessions a results file named but did not hold. */
  missing = $state.raw<readonly string[]>([]);
  source = $state.raw<ResultsSource | null>(null);
  error = $state<string | null>(null);
  readonly #client: EngineClient;
  readonly #start: StartReadiness;

  constructor(client: EngineClient, start: StartReadiness) {
    this.#client = client;
    this.#start = start;
  }

  /** The model info of what is on the page (running, or the results'). */
  readonly shownModel: EvalModelInfo | null = $derived(this.running?.model ?? this.results?.model ?? null);
  /** True when the numbers on the page measure nothing (scripted turns, the test model). */
  readonly meaningless: boolean = $derived(this.shownModel ? meaningless(this.shownModel) : false);
  /** The summary per arm: the results', or recomputed from the runs so far. */
  readonly summary = $derived(this.results?.summary ?? summarize(this.runs, this.arms));

  /** The start screen's model as it stands. */
  get live(): LiveChoice {
    return liveChoice(this.#start);
  }

  /** Follows eval events; returns the cleanup for the component's $effect. */
  connect(): () => void {
    return this.#client.onEvalEvent((evalId, event) => {
      const running = this.running;
      if (!running || running.evalId !== evalId) return;
      switch (event.kind) {
        case 'loading':
          this.running = { ...running, loading: event.progress };
          return;
        case 'start':
          this.running = { ...running, loading: null, current: `${event.task} · ${event.arm} · seed ${event.seed}` };
          return;
        case 'run':
          this.runs = [...this.runs, event.run];
          this.sessions = { ...this.sessions, [event.run.session]: event.session };
          return;
        case 'ended':
          this.results = event.results;
          this.runs = event.results.runs;
          this.running = null;
          if (event.error) this.error = `The eval stopped: ${event.error}`;
          return;
        default: {
          const never: never = event;
          throw new TypeError(`eval state: unknown event ${JSON.stringify(never)}`);
        }
      }
    });
  }

  async load(): Promise<void> {
    if (this.suite) return;
    await this.useBuiltin();
  }

  /** Runs the builtin suite from now on. */
  async useBuiltin(): Promise<void> {
    if (this.running) return;
    try {
      this.#useSuite(await this.#client.evalSuite());
    } catch (e) {
      this.error = message(e);
    }
  }

  /** Opens a suite to run from now on: a folder's files (paths as picked) or one .zip of it, checked in the worker. */
  async openSuite(files: readonly { readonly path: string; readonly file: Blob }[]): Promise<void> {
    if (!files.length || this.running) return;
    this.error = null;
    try {
      const opened = await this.#client.openEvalSuite(files);
      if (!opened.ok) {
        this.error = opened.text;
        return;
      }
      this.#useSuite(opened.suite);
      // Results of another suite would sit beside tasks they do not name.
      this.results = null;
      this.runs = [];
      this.sessions = {};
      this.missing = [];
      this.source = null;
    } catch (e) {
      this.error = message(e);
    }
  }

  #useSuite(suite: EvalSuiteInfo): void {
    this.suite = suite;
    this.tasks = suite.tasks.map((t) => t.id);
  }

  /** Sessions planned with the choice as it stands. */
  get planned(): number {
    return this.tasks.length * this.arms.length * this.seeds;
  }

  toggle(list: 'tasks' | 'arms', id: string, on: boolean): void {
    const order = list === 'tasks' ? (this.suite?.tasks ?? []) : (this.suite?.arms ?? []);
    const now = new Set(this[list]);
    if (on) now.add(id);
    else now.delete(id);
    this[list] = order.map((x) => x.id).filter((x) => now.has(x));
  }

  async start(): Promise<void> {
    if (this.running) return;
    const live = this.live;
    if (this.model === 'live' && !live.ok) {
      this.error = `To run the suite on a live model, ${live.reason}.`;
      return;
    }
    const model: EvalModelChoice = this.model === 'live' && live.ok ? live.choice : { kind: 'reference' };
    const contextTokens = this.model === 'live' && live.ok ? live.contextTokens : REFERENCE_CONTEXT_TOKENS;
    this.error = null;
    try {
      const started = await this.#client.startEval({
        tasks: this.tasks,
        arms: this.arms,
        seeds: this.seeds,
        model,
        jobs: this.jobs,
        maxSteps: this.maxSteps,
        contextTokens,
      });
      this.results = null;
      this.runs = [];
      this.sessions = {};
      this.missing = [];
      this.source = { kind: 'here' };
      this.running = {
        evalId: started.evalId,
        total: started.total,
        model: started.model,
        since: Date.now(),
        current: null,
        loading: null,
      };
    } catch (e) {
      this.error = message(e);
    }
  }

  async stop(): Promise<void> {
    const running = this.running;
    if (running) await this.#client.stopEval(running.evalId).catch((e: unknown) => (this.error = message(e)));
  }

  /** Opens results again: this page's export, or an `slm eval` folder's results.json with its sessions. */
  async open(files: readonly { readonly path: string; readonly file: Blob }[]): Promise<void> {
    if (!files.length || this.running) return;
    this.error = null;
    try {
      const opened = await this.#client.openEval(files);
      if (!opened.ok) {
        this.error = opened.text;
        return;
      }
      const { results, sessions } = opened.bundle;
      this.results = results;
      this.runs = results.runs;
      this.sessions = sessions;
      this.missing = opened.missing;
      this.arms = results.arms.map((a) => a.id);
      const first = files.find((f) => /results\.json$|\.eval\.json$/.test(f.path)) ?? files[0]!;
      this.source = { kind: 'file', name: first.path };
    } catch (e) {
      this.error = message(e);
    }
  }

  /** The whole result in one file (results.json's object and every session), or null when there is none. */
  exportText(): string | null {
    return this.results ? evalBundleText({ results: this.results, sessions: this.sessions }) : null;
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
