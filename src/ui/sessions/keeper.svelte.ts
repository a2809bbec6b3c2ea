/**
 * The session behind the run on screen, and its keeping: a live run is recorded into a Session
 * as its events arrive (the worker's header, then each step's record entry) and saved to the
 * store after every step — from its first step on, so a run that ends before one is not kept; a replayed session is shown as the record it replays. While a run
 * is being recorded, the tab remembers its id (sessionStorage), so a reload can find the run
 * it cut short and offer to continue it.
 */
import type { SavedMeta, SavedSource, SessionStore } from '../../session/idb-store.ts';
import type { Lesson } from '../../session/lessons.ts';
import type { EngineClient, RunEvent, RunInfo, Session, SessionHeader } from '../../worker/client.ts';
import { searchFields } from './session-search.ts';
import { taskLine } from '../run/step-view.ts';

/** Where the session on screen came from. */
export type ShownSource = 'run' | 'link' | 'file' | 'example' | 'lesson' | 'saved' | 'restored';

/** The session behind the run on screen. */
export interface Shown {
  readonly runId: number;
  /** The id it is saved under, when it is kept in this browser. */
  readonly id: string | null;
  readonly title: string;
  readonly source: ShownSource;
  /** The run's own record (growing while it is recorded), or the record being replayed; null until the header arrives. */
  readonly session: Session | null;
  /** True while the run is recorded into `id`. */
  readonly recording: boolean;
  readonly lesson?: Lesson;
  /** A bundled lesson's or example's key, which the split view opens it by (a saved session goes by its id). */
  readonly key?: string;
}

/** How to treat a run that is about to send events. */
export type Tracking =
  /** Record it into `id`; the first `floor` steps are already saved (a continued run replays them first). */
  | {
      readonly kind: 'record';
      readonly id: string;
      readonly title: string;
      readonly floor: number;
      readonly source: SavedSource;
      readonly createdAt?: string;
    }
  /** Show `session` as what is replayed. */
  | {
      readonly kind: 'replay';
      readonly id: string | null;
      readonly title: string;
      readonly source: ShownSource;
      readonly session: Session;
      readonly lesson?: Lesson;
      readonly key?: string;
    };

/** The part of sessionStorage the keeper uses. */
export interface TabStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The key under which the tab remembers the id of the run it is recording. */
export const RECORDING_KEY = 'slmcode.recording';

/** The title of a run from the start screen: where it works, with which model, on what task (its first line, cut at 48 characters). */
export function runTitle(info: Pick<RunInfo, 'workspace' | 'model' | 'task'>): string {
  const where = info.workspace.kind === 'template' ? info.workspace.title : `your files (${info.workspace.fileCount})`;
  const task = taskLine(info.task, 48);
  return task ? `${where} · ${info.model.label} · ${task}` : `${where} · ${info.model.label}`;
}

export class SessionKeeper {
  shown = $state.raw<Shown | null>(null);
  /** Steps of the shown recording that are safely stored. */
  savedSteps = $state(0);
  saveError = $state<string | null>(null);
  readonly #tracked = new Map<number, Tracking>();
  #floor = 0;
  #createdAt = '';
  #source: SavedSource = 'run';
  #saving: Promise<void> = Promise.resolve();

  constructor(
    private readonly client: EngineClient,
    private readonly store: SessionStore,
    private readonly tab: TabStorage | null,
    /** The run on screen (a run the keeper was not told about is recorded as a start-screen run). */
    private readonly runInfo: () => RunInfo | null,
    /** Called after each save, so lists can refresh. */
    private readonly onSaved: () => void = () => {},
  ) {}

  /** Follows run events; returns the cleanup for the component's $effect. */
  connect(): () => void {
    return this.client.onRunEvent((runId, event) => this.#apply(runId, event));
  }

  /** Says how to treat run `runId`; call it as soon as the run's id is known, before its events. */
  track(runId: number, tracking: Tracking): void {
    this.#tracked.set(runId, tracking);
    if (tracking.kind === 'replay') {
      const { id, title, source, session, lesson, key } = tracking;
      this.shown = {
        runId,
        id,
        title,
        source,
        session,
        recording: false,
        ...(lesson && { lesson }),
        ...(key && { key }),
      };
      this.saveError = null;
    }
  }

  /** The id of the run this tab was recording when it was last unloaded, if any. */
  interruptedId(): string | null {
    return this.tab?.getItem(RECORDING_KEY) ?? null;
  }

  /** Forgets the interrupted run (it was restored, or cannot be). */
  clearInterrupted(): void {
    this.tab?.removeItem(RECORDING_KEY);
  }

  /** Resolves when every save issued so far has finished. */
  settled(): Promise<void> {
    return this.#saving;
  }

  #apply(runId: number, event: RunEvent): void {
    if (event.kind === 'session') {
      this.#begin(runId, event.header);
      return;
    }
    const shown = this.shown;
    if (!shown || shown.runId !== runId || !shown.recording || !shown.session) return;
    if (event.kind === 'step' && event.record.recorded) {
      const session = { ...shown.session, steps: [...shown.session.steps, event.record.recorded] };
      this.shown = { ...shown, session };
      // A continued run replays steps that are saved already: save again only past them.
      if (session.steps.length > this.#floor) this.#save(this.shown, 'live');
    } else if (event.kind === 'ended') {
      // A run that ended before its first step has nothing to replay: it is not kept.
      if (shown.session.steps.length > 0) this.#save(shown, 'ended', event.text);
      this.tab?.removeItem(RECORDING_KEY);
    }
  }

  /** The header of a run arrived: start recording it, unless it is a replay. */
  #begin(runId: number, header: SessionHeader): void {
    let tracking = this.#tracked.get(runId);
    this.#tracked.delete(runId);
    if (!tracking) {
      const info = this.runInfo();
      // Only the run on screen, and only one from the start screen, is recorded unasked.
      if (!info || info.runId !== runId || info.replay) return;
      tracking = { kind: 'record', id: crypto.randomUUID(), title: runTitle(info), floor: 0, source: 'run' };
    }
    if (tracking.kind !== 'record') return;
    this.#floor = tracking.floor;
    this.#createdAt = tracking.createdAt ?? header.createdAt;
    this.#source = tracking.source;
    this.savedSteps = tracking.floor;
    this.saveError = null;
    this.shown = {
      runId,
      id: tracking.id,
      title: tracking.title,
      source: 'run',
      session: { ...header, steps: [] },
      recording: true,
    };
    this.tab?.setItem(RECORDING_KEY, tracking.id);
  }

  /** The saved session `id` has a new title: later saves of the run on screen keep it. */
  retitle(id: string, title: string): void {
    if (this.shown?.id === id) this.shown = { ...this.shown, title };
  }

  /** The saved session `id` was deleted: the run on screen, if it is that one, is no longer saved. */
  forget(id: string): void {
    if (this.shown?.id === id) this.shown = { ...this.shown, id: null };
  }

  /** Queues a save of `shown` as it is now; saves run one after another, in order. */
  #save(shown: Shown, status: SavedMeta['status'], stopText?: string): void {
    const session = shown.session;
    if (!shown.id || !session) return;
    const meta: SavedMeta = {
      id: shown.id,
      title: shown.title,
      createdAt: this.#createdAt,
      updatedAt: new Date().toISOString(),
      steps: session.steps.length,
      status,
      ...(stopText && { stopText }),
      source: this.#source,
      ...searchFields(session),
    };
    this.#saving = this.#saving.then(async () => {
      try {
        await this.store.put(meta, session);
        if (this.shown?.id === meta.id) this.savedSteps = meta.steps;
        this.onSaved();
      } catch (e) {
        this.saveError = `The session could not be saved (${e instanceof Error ? e.message : String(e)}); export it to keep it.`;
      }
    });
  }
}
