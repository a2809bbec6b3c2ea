/**
 * A run as the page sees it, in one place: what was started, the immutable step records as
 * they arrive, the phase (loading, running, paused, ended), the output being written, an
 * approval question, and which step the inspector shows. Run events are applied here and
 * nowhere else; components read this state and call its methods.
 *
 * The selected step lives in the URL (the router): `step` there, or the latest step when the
 * URL names none, so the inspector follows a live run until a person picks a step.
 */
import type {
  ApprovalAsk,
  ApprovedRun,
  EngineClient,
  EngineStatus,
  LoadProgress,
  ReplayVerdict,
  RunAction,
  RunConfig,
  RunEvent,
  RunInfo,
  SessionRunConfig,
  StepRecord,
  StepSpeed,
  Stop,
} from '../../worker/client.ts';

export type RunPhase = 'idle' | 'starting' | 'loading' | 'running' | 'paused' | 'ended';

/** "Approve and run" on one replayed step: running, its result beside the record, or why it could not run. */
export type ApprovedStep =
  | { readonly state: 'running' }
  | { readonly state: 'done'; readonly run: ApprovedRun }
  | { readonly state: 'failed'; readonly error: string };

/** Where the selected step is kept (the router, in the page). */
export interface StepSelection {
  get(): number | null;
  set(step: number | null): void;
}

/** The output of the step in progress, as it streams in. */
export interface LiveOutput {
  readonly index: number;
  readonly text: string;
  /** When its first piece arrived (ms, Date.now()), for the time it has been writing. */
  readonly since: number;
}

/**
 * Run events that come faster than this after the last shown ones wait and are applied
 * together: a replay streams a step every few milliseconds, and laying the page out for each
 * one cost more than the replay. An event that comes alone (a live model's step) is applied at
 * once, and so are the ones a person must see now (an approval question, the end).
 */
export const EVENT_BATCH_MS = 100;

export class RunState {
  readonly #client: EngineClient;
  readonly #selection: StepSelection;
  info = $state.raw<RunInfo | null>(null);
  /** Immutable records, replaced (never edited) as steps arrive. */
  records = $state.raw<readonly StepRecord[]>([]);
  /** Where the run is in its life; the worker's running/paused applies once the model is there. */
  #life = $state<'idle' | 'starting' | 'started' | 'ended'>('idle');
  #workerPhase = $state<'running' | 'paused'>('running');
  stop = $state.raw<{ stop: Stop; text: string } | null>(null);
  loading = $state.raw<LoadProgress | null>(null);
  /** The loaded model's id, once the worker reports it. */
  modelId = $state<string | null>(null);
  live = $state.raw<LiveOutput | null>(null);
  ask = $state.raw<ApprovalAsk | null>(null);
  /** How fast the live model answered each step, by step index. */
  speeds = $state.raw<ReadonlyMap<number, StepSpeed>>(new Map());
  /** Since when (ms, Date.now()) the run has waited for the model's next step: the start, the last step, or Resume. */
  waitingSince = $state<number | null>(null);
  /** A problem talking to the engine (a refused configuration, a crash). */
  error = $state<string | null>(null);
  /** For a run from a recorded session: the verdict on its replayed part, once it is known. */
  verdict = $state.raw<ReplayVerdict | null>(null);
  /** Replayed gated steps a person pressed "Approve and run" on, by step. */
  approved = $state.raw<ReadonlyMap<number, ApprovedStep>>(new Map());

  readonly phase: RunPhase = $derived.by(() => {
    if (this.#life !== 'started') return this.#life;
    if (this.modelId === null) return this.loading ? 'loading' : 'starting';
    return this.#workerPhase;
  });
  readonly latest: number | null = $derived(
    this.records.length ? this.records[this.records.length - 1]!.step.index : null,
  );
  readonly selected: StepRecord | null = $derived(
    this.records.find((r) => r.step.index === this.selectedIndex) ?? null,
  );
  /** A replay of a recording that stops without done (a run cut short) reached its end: an ending, not a failure. */
  readonly endOfRecording: boolean = $derived(
    !!this.info?.replay &&
      !this.info.replay.continues &&
      this.stop?.stop.kind === 'model-error' &&
      this.stop.stop.code === 'exhausted',
  );
  readonly active: boolean = $derived(
    this.phase === 'starting' || this.phase === 'loading' || this.phase === 'running' || this.phase === 'paused',
  );

  /** The step the inspector shows: the URL's, or the latest. */
  get selectedIndex(): number | null {
    return this.#selection.get() ?? this.latest;
  }

  constructor(client: EngineClient, selection: StepSelection) {
    this.#client = client;
    this.#selection = selection;
  }

  /** Follows run events and the engine's status; returns the cleanup for the component's $effect. */
  connect(): () => void {
    const offEvents = this.#client.onRunEvent((runId, event) => this.#receive(runId, event));
    const offStatus = this.#client.onStatus((s) => this.#onStatus(s));
    return () => {
      offEvents();
      offStatus();
      this.#applyQueued();
    };
  }

  /** Starts a run; the step in the URL is cleared so the inspector follows the new run. */
  start(config: RunConfig): Promise<boolean> {
    return this.#begin(() => this.#client.startRun(config));
  }

  /**
   * Starts a run from a recorded session (replay, then maybe a live model), like `start`; with
   * `step`, the inspector shows that step from the start instead of following the latest.
   */
  startSession(config: SessionRunConfig, step: number | null = null): Promise<boolean> {
    return this.#begin(() => this.#client.startSessionRun(config), step);
  }

  /** The run ended before its first step for a reason other than Stop: it failed, and nothing of it was kept. */
  readonly failedEarly: boolean = $derived(
    this.#life === 'ended' &&
      this.records.length === 0 &&
      !!this.stop &&
      this.stop.stop.kind !== 'stopped' &&
      !this.endOfRecording,
  );

  /**
   * Starting the same run again may help: the model could not be reached or failed to load, or
   * the run failed before its first step (whatever the reason, there is nothing to lose).
   */
  readonly retryable: boolean = $derived(
    this.failedEarly ||
      (this.stop?.stop.kind === 'model-error' &&
        ['connection', 'http', 'load', 'storage'].includes(this.stop.stop.code)),
  );

  /** Starts the latest run again, as it was configured. */
  retry(): Promise<boolean> {
    const again = this.#again;
    return again ? this.#begin(again) : Promise.resolve(false);
  }

  /** How the latest run was started, for Retry. */
  #again: (() => Promise<RunInfo>) | null = null;

  async #begin(request: () => Promise<RunInfo>, step: number | null = null): Promise<boolean> {
    this.#again = request;
    this.#reset();
    this.#life = 'starting';
    this.#selection.set(step);
    try {
      this.info = await request();
      this.#life = 'started';
      this.waitingSince = Date.now();
      return true;
    } catch (e) {
      this.#life = 'idle';
      this.error = message(e);
      return false;
    }
  }

  async control(action: RunAction): Promise<void> {
    const info = this.info;
    if (!info || !this.active) return;
    try {
      await this.#client.controlRun(info.runId, action);
    } catch (e) {
      this.error = message(e);
    }
  }

  async answer(approved: boolean): Promise<void> {
    const info = this.info;
    const ask = this.ask;
    if (!info || !ask) return;
    this.ask = null;
    try {
      await this.#client.answerApproval(info.runId, ask.id, approved);
    } catch (e) {
      this.error = message(e);
    }
  }

  /** Runs replayed step `step` once, for real, because a person pressed "Approve and run" on it. */
  async approveStep(step: number): Promise<void> {
    const info = this.info;
    if (!info || this.approved.get(step)?.state === 'running') return;
    const set = (value: ApprovedStep) => {
      // A result that comes back after another run started belongs to nothing on screen.
      if (this.info?.runId === info.runId) this.approved = new Map(this.approved).set(step, value);
    };
    set({ state: 'running' });
    try {
      set({ state: 'done', run: await this.#client.approveStep(info.runId, step) });
    } catch (e) {
      set({ state: 'failed', error: message(e) });
    }
  }

  /** Selects a recorded step (clamped to the recorded ones). */
  select(index: number): void {
    if (!this.records.length) return;
    const first = this.records[0]!.step.index;
    const clamped = Math.min(Math.max(index, first), this.latest ?? first);
    this.#selection.set(clamped);
  }

  /** Moves the selection by `delta` steps; from "following the latest", back from the latest. */
  move(delta: number): void {
    const from = this.selectedIndex ?? this.latest;
    if (from === null) return;
    this.select(from + delta);
  }

  selectFirst(): void {
    if (this.records.length) this.select(this.records[0]!.step.index);
  }

  selectLast(): void {
    if (this.latest !== null) this.select(this.latest);
  }

  /** Events received and not applied yet, and when events were last applied (performance.now()). */
  #queue: { runId: number; event: RunEvent }[] = [];
  #queueTimer: ReturnType<typeof setTimeout> | null = null;
  #appliedAt = -Infinity;

  #receive(runId: number, event: RunEvent): void {
    this.#queue.push({ runId, event });
    if (event.kind === 'approval' || event.kind === 'ended') return this.#applyQueued();
    if (this.#queueTimer !== null) return;
    const wait = this.#appliedAt + EVENT_BATCH_MS - performance.now();
    if (wait <= 0) this.#applyQueued();
    else this.#queueTimer = setTimeout(() => this.#applyQueued(), wait);
  }

  #applyQueued(): void {
    if (this.#queueTimer !== null) clearTimeout(this.#queueTimer);
    this.#queueTimer = null;
    const queued = this.#queue;
    this.#queue = [];
    for (const { runId, event } of queued) this.#apply(runId, event);
    this.#appliedAt = performance.now();
  }

  #apply(runId: number, event: RunEvent): void {
    // Events of an older run (stopped when this one started) are ignored.
    if (!this.info || runId !== this.info.runId) return;
    switch (event.kind) {
      case 'phase':
        if (event.phase === 'running' && this.#workerPhase !== 'running') this.waitingSince = Date.now();
        this.#workerPhase = event.phase;
        return;
      case 'loading':
        this.loading = event.progress;
        return;
      case 'model':
        this.modelId = event.id;
        this.waitingSince = Date.now(); // the wait for an answer starts once the model is loaded
        return;
      case 'token':
        this.live =
          this.live?.index === event.index
            ? { ...this.live, text: this.live.text + event.delta }
            : { index: event.index, text: event.delta, since: Date.now() };
        return;
      case 'speed':
        this.speeds = new Map(this.speeds).set(event.index, event.speed);
        return;
      case 'step':
        this.records = [...this.records, event.record];
        if (this.live?.index === event.record.step.index) this.live = null;
        this.waitingSince = Date.now();
        return;
      case 'approval':
        this.ask = event.ask;
        return;
      case 'verdict':
        this.verdict = event.verdict;
        return;
      case 'session':
        return; // the record's header is the session keeper's business (ui/sessions)
      case 'ended':
        this.stop = { stop: event.stop, text: event.text };
        this.#life = 'ended';
        this.live = null;
        this.ask = null;
        return;
      default: {
        const never: never = event;
        throw new TypeError(`run state: unknown event ${JSON.stringify(never)}`);
      }
    }
  }

  #onStatus(s: EngineStatus): void {
    if (s.state === 'crashed' && this.active) {
      this.#life = 'ended';
      this.error = `The run ended because the engine worker stopped: ${s.reason}.`;
      this.live = null;
      this.ask = null;
    }
  }

  #reset(): void {
    if (this.#queueTimer !== null) clearTimeout(this.#queueTimer);
    this.#queueTimer = null;
    this.#queue = [];
    this.#appliedAt = -Infinity;
    this.info = null;
    this.records = [];
    this.speeds = new Map();
    this.stop = null;
    this.loading = null;
    this.modelId = null;
    this.live = null;
    this.ask = null;
    this.error = null;
    this.waitingSince = null;
    this.verdict = null;
    this.approved = new Map();
    this.#workerPhase = 'running';
  }
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
