/**
 * The what-ifs on the run on screen. "ACI off": for the selected step, what a naive harness
 * would have done with the same raw output, asked of the worker once per step. The settings
 * re-run: the run's raw outputs fed again through a fresh engine with other ACI settings (the
 * result cap, the read window, the ladder's rungs, the loop guard), up to the first step whose
 * result differs. The re-run works on the run's own record: the worker's session header and
 * each step's record entry, as they arrived.
 */
import type {
  AciOff,
  AciSettings,
  EngineClient,
  EvolveTable,
  RerunReport,
  RungInfo,
  Session,
  SessionHeader,
  Step,
} from '../../worker/client.ts';
import { MIN_USEFUL_CAP } from '../../worker/client.ts';
import type { RunState } from './run-state.svelte.ts';

/** Something asked of the worker: on its way, there, or why not. */
export type Loaded<T> =
  | { readonly state: 'loading' }
  | { readonly state: 'ready'; readonly value: T }
  | { readonly state: 'error'; readonly message: string };

/** The re-run form as it is edited: `disabledRungs` as a set of ids. */
export interface AciFields {
  maxToolChars: number;
  readWindowLines: number;
  disabledRungs: string[];
  loopGuard: boolean;
}

export { MIN_USEFUL_CAP };

/** The form's bounds (the record schema checks them again in the worker). */
export const ACI_BOUNDS = {
  maxToolChars: { min: 100, max: 1_000_000 },
  readWindowLines: { min: 1, max: 100_000 },
} as const;

const ACI_LABELS: Readonly<Record<keyof typeof ACI_BOUNDS, string>> = {
  maxToolChars: 'Result cap',
  readWindowLines: 'Read window',
};

/** What is wrong with one number of the re-run form, with what to do; null when it is usable. */
export function aciFieldProblem(key: keyof typeof ACI_BOUNDS, value: number | null): string | null {
  const { min, max } = ACI_BOUNDS[key];
  if (value === null || !Number.isInteger(value) || value < min || value > max)
    return `“${ACI_LABELS[key]}” must be a whole number between ${min} and ${max}.`;
  return null;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

export class RunLab {
  readonly #client: EngineClient;
  readonly #run: RunState;
  /** "ACI off" by `runId:step`. Replaced, never edited, so a view of one entry updates when it lands. */
  aciOff = $state.raw<ReadonlyMap<string, Loaded<AciOff>>>(new Map());
  /** The session header of the latest run that sent one. */
  #header = $state.raw<{ readonly runId: number; readonly header: SessionHeader } | null>(null);
  rungs = $state.raw<Loaded<readonly RungInfo[]> | null>(null);
  /** The re-run form, for the run `formRunId`; filled from that run's own settings. */
  fields = $state<AciFields | null>(null);
  #fieldsRunId = -1;
  rerun = $state.raw<Loaded<RerunReport> | null>(null);

  /** The run's own record, once the run is over and every step's record entry is there; null before. */
  readonly session: Session | null = $derived(this.#session());
  /** Why the re-run cannot start now, or null when it can. */
  readonly rerunBlocked: string | null = $derived(this.#blocked());

  constructor(client: EngineClient, run: RunState) {
    this.#client = client;
    this.#run = run;
  }

  /** Follows the session headers runs send; returns the cleanup for the component's $effect. */
  connect(): () => void {
    return this.#client.onRunEvent((runId, event) => {
      if (event.kind === 'session') this.#header = { runId, header: event.header };
    });
  }

  /** "ACI off" for `step` of run `runId`, when it was asked for. */
  aciOffFor(runId: number, step: number): Loaded<AciOff> | undefined {
    return this.aciOff.get(`${runId}:${step}`);
  }

  /** Asks the worker for "ACI off" of `step`, once per step. */
  async loadAciOff(runId: number, step: Step): Promise<void> {
    const key = `${runId}:${step.index}`;
    if (this.aciOff.has(key)) return;
    this.#setAciOff(key, { state: 'loading' });
    try {
      this.#setAciOff(key, { state: 'ready', value: await this.#client.aciOff(runId, step) });
    } catch (e) {
      this.#setAciOff(key, { state: 'error', message: message(e) });
    }
  }

  /** Prepares the re-run form for the run on screen: the rungs (once) and that run's own settings. */
  async openRerun(): Promise<void> {
    const session = this.session;
    const runId = this.#run.info?.runId;
    if (session && runId !== undefined && this.#fieldsRunId !== runId) {
      const e = session.settings.engine;
      this.fields = {
        maxToolChars: e.max_tool_chars,
        readWindowLines: e.read_window_lines,
        disabledRungs: [...e.disabled_rungs],
        loopGuard: e.loop_guard,
      };
      this.#fieldsRunId = runId;
      this.rerun = null;
    }
    if (this.rungs?.state === 'ready' || this.rungs?.state === 'loading') return;
    this.rungs = { state: 'loading' };
    try {
      this.rungs = { state: 'ready', value: await this.#client.ladderRungs() };
    } catch (e) {
      this.rungs = { state: 'error', message: message(e) };
    }
  }

  /** Switches one rung on or off in the form. */
  setRung(id: string, on: boolean): void {
    const f = this.fields;
    if (!f) return;
    f.disabledRungs = on ? f.disabledRungs.filter((r) => r !== id) : [...new Set([...f.disabledRungs, id])];
  }

  /** Re-runs the run's raw outputs under the form's settings. */
  async rerunNow(): Promise<void> {
    const session = this.session;
    const f = this.fields;
    if (!session || !f || this.rerunBlocked) return;
    const aci: AciSettings = {
      maxToolChars: f.maxToolChars,
      readWindowLines: f.readWindowLines,
      disabledRungs: [...f.disabledRungs],
      loopGuard: f.loopGuard,
    };
    this.rerun = { state: 'loading' };
    try {
      this.rerun = { state: 'ready', value: await this.#client.rerunSettings(session, aci) };
    } catch (e) {
      this.rerun = { state: 'error', message: message(e) };
    }
  }

  /** The edit-format bandit's table as the worker keeps it, with the format the latest live run's prompt recommended. */
  evolveTable(): Promise<EvolveTable> {
    return this.#client.evolveTable();
  }

  #setAciOff(key: string, entry: Loaded<AciOff>): void {
    this.aciOff = new Map(this.aciOff).set(key, entry);
  }

  #session(): Session | null {
    const info = this.#run.info;
    const header = this.#header;
    if (!info || !header || header.runId !== info.runId || this.#run.phase !== 'ended') return null;
    const steps = this.#run.records.map((r) => r.recorded);
    if (!steps.length || steps.some((s) => s === undefined)) return null;
    return { ...header.header, steps: steps as NonNullable<(typeof steps)[number]>[] };
  }

  #blocked(): string | null {
    if (!this.#run.info) return 'Start a run first.';
    if (this.#run.phase !== 'ended') return 'The re-run uses the whole run: wait until it has ended (or stop it).';
    if (!this.session) return "This run's record is not complete, so it cannot be re-run.";
    if (this.rerun?.state === 'loading') return 'Re-running…';
    const f = this.fields;
    if (!f) return null;
    return (
      aciFieldProblem('maxToolChars', f.maxToolChars as number | null) ??
      aciFieldProblem('readWindowLines', f.readWindowLines as number | null)
    );
  }
}
