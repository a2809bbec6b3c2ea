/**
 * Sessions in the page, in one place: the saved list (open, rename, delete with undo, export), opening a link
 * (`#s=…`), a file (picked or dropped) or a bundled lesson or example as a replay in the run
 * view, restoring a run a reload cut short (on the run page at once; elsewhere offered, so the
 * start screen stays the start screen), "continue from here", and sharing. Links and files
 * are decoded and checked in the worker; a refusal becomes `notice` (the codec's own message)
 * and the app stays as it was. Only these methods talk to the store and start session runs.
 */
import type { SavedMeta, SessionStore } from '../../session/idb-store.ts';
import type { Lesson } from '../../session/lessons.ts';
import type { EngineClient, ModelChoice, RunSettings, Session, SessionCheck } from '../../worker/client.ts';
import type { Router } from '../router.svelte.ts';
import type { RunState } from '../run/run-state.svelte.ts';
import type { StartState } from '../start/start-state.svelte.ts';
import { bundledExamples, bundledLessons, type BundledSession } from './bundled.ts';
import { downloadText, sessionFileName, sessionFileText } from './download.ts';
import { SessionKeeper, type ShownSource, type TabStorage } from './keeper.svelte.ts';
import { ShareState, type ClipboardLike } from './share.svelte.ts';
import { compareHref, savedSource } from '../compare/compare-state.svelte.ts';
import type { BranchThen } from '../../session/branch.ts';
import { withCutShort } from '../../session/continued.ts';
import { NOTE_CHARS } from '../../session/person-text.ts';
import { searchFields, titledSession } from './session-search.ts';

/** The part of `window` used here (location and history for `#s=…` links). */
export interface SessionWindow {
  readonly location: {
    readonly hash: string;
    readonly href: string;
    readonly pathname: string;
    readonly search: string;
  };
  readonly history: { replaceState(data: unknown, unused: string, url: string): void };
  readonly document: Document;
  addEventListener(type: 'hashchange', listener: () => void): void;
  removeEventListener(type: 'hashchange', listener: () => void): void;
}

export interface SessionsDeps {
  readonly client: EngineClient;
  /** The store, once opened, and why it will not outlive the page when it is the fallback. */
  readonly store: Promise<{ store: SessionStore; warning: string | null }>;
  readonly run: RunState;
  readonly start: StartState;
  readonly router: Router;
  readonly win: SessionWindow;
  readonly tab: TabStorage | null;
  readonly clipboard: () => ClipboardLike | undefined;
}

/** A message for the start screen: a refused link or file, or where sessions are kept. */
export interface Notice {
  readonly tone: 'error' | 'info';
  readonly text: string;
}

/** Which model continues a session, or why none can yet. */
export type ContinueChoice =
  | { readonly ok: true; readonly choice: ModelChoice; readonly label: string }
  | { readonly ok: false; readonly reason: string };

/** True when a URL hash carries a session (`#s=…`, possibly among other parameters). */
export function hashHasSession(hash: string): boolean {
  return /^#(?:.*&)?s=/.test(hash);
}

/** A deleted session, kept until the next delete so it can be put back. */
export interface Deleted {
  readonly meta: SavedMeta;
  readonly session: Session;
}

export class Sessions {
  saved = $state.raw<readonly SavedMeta[]>([]);
  notice = $state.raw<Notice | null>(null);
  /** The session deleted last, which Undo puts back. */
  deleted = $state.raw<Deleted | null>(null);
  /** A run a reload cut short while the page was not on the run view: offered, not opened. */
  interrupted = $state.raw<SavedMeta | null>(null);
  /** What is being opened right now, for a busy line. */
  opening = $state<string | null>(null);
  readonly lessons: readonly BundledSession[] = bundledLessons();
  readonly examples: readonly BundledSession[] = bundledExamples();
  readonly keeper: SessionKeeper;
  readonly share: ShareState;
  readonly #d: SessionsDeps;
  readonly #store: Promise<SessionStore>;

  constructor(deps: SessionsDeps) {
    this.#d = deps;
    this.#store = deps.store.then(({ store, warning }) => {
      if (warning) this.notice = { tone: 'info', text: warning };
      return store;
    });
    // The keeper may be asked to save before the store has opened: each call waits for it.
    const deferred: SessionStore = {
      list: async () => (await this.#store).list(),
      get: async (id) => (await this.#store).get(id),
      put: async (meta, session) => (await this.#store).put(meta, session),
      remove: async (id) => (await this.#store).remove(id),
    };
    this.keeper = new SessionKeeper(
      deps.client,
      deferred,
      deps.tab,
      () => deps.run.info,
      () => void this.refresh(),
    );
    this.share = new ShareState(deps.client, deps.clipboard);
  }

  /** Follows run events and `#s=…` links; opens the link the page was loaded with, or restores a run a reload cut short. */
  connect(): () => void {
    const offKeeper = this.keeper.connect();
    const onHash = () => {
      if (hashHasSession(this.#d.win.location.hash)) void this.openLink(this.#d.win.location.href);
    };
    this.#d.win.addEventListener('hashchange', onHash);
    void this.#boot();
    return () => {
      offKeeper();
      this.#d.win.removeEventListener('hashchange', onHash);
    };
  }

  async #boot(): Promise<void> {
    await this.refresh();
    if (hashHasSession(this.#d.win.location.hash)) await this.openLink(this.#d.win.location.href);
    else await this.#restoreInterrupted();
  }

  async refresh(): Promise<void> {
    try {
      this.saved = await (await this.#store).list();
    } catch (e) {
      this.notice = { tone: 'error', text: `The saved sessions could not be listed: ${message(e)}` };
    }
  }

  /**
   * Opens a share link: decoded and checked in the worker, then replayed. A refused link stays in
   * the address bar, to be looked at, with the message on the start screen (the router shows the
   * start screen for a hash it does not know).
   */
  async openLink(link: string): Promise<void> {
    const { win } = this.#d;
    await this.#open(
      'The shared link',
      () => this.#d.client.openLink(link),
      async (session) => {
        // Opened: the link's data leaves the address bar, so a reload or Back does not open it again.
        win.history.replaceState(null, '', `${win.location.pathname}${win.location.search}#/`);
        const title = session.title ?? `Shared link: ${firstLine(session.task)}`;
        return { id: await this.#keep(session, title, 'link', openedFromText({ link })), title, source: 'link' };
      },
    );
  }

  /**
   * Opens the first session file among `files` (picked or dropped), saves it here and replays it;
   * `origin` says where it came from in the list when that is not a file of the person's (an Eval cell).
   */
  async openFiles(files: readonly File[], origin?: string): Promise<void> {
    const file = files.find((f) => f.name.endsWith('.json')) ?? files[0];
    if (!file) return;
    if (!file.name.endsWith('.json')) {
      this.notice = {
        tone: 'error',
        text: `${file.name} is not a session file: session files end in .session.json. To run on your own files, choose "Your own files" under Task.`,
      };
      return;
    }
    await this.#open(
      file.name,
      () => this.#d.client.openFile(file),
      async (session) => {
        // The title it was exported under travels in the file; an older file is named after itself.
        const title = session.title ?? file.name.replace(/\.session\.json$|\.json$/, '');
        const id = await this.#keep(session, title, 'file', origin ?? openedFromText({ file: file.name }));
        return { id, title, source: 'file' };
      },
    );
  }

  /** Opens a bundled lesson or example as a replay. */
  async openBundled(entry: BundledSession): Promise<void> {
    await this.#open(
      entry.title,
      async () => this.#d.client.openFile(new Blob([await entry.load()])),
      async () => ({
        id: null,
        title:
          entry.group === 'lesson' ? `Lesson ${entry.lesson?.order ?? ''}: ${entry.title}` : `Example: ${entry.title}`,
        source: entry.group,
        key: entry.key,
        ...(entry.lesson && { lesson: entry.lesson }),
      }),
    );
  }

  /** The lesson after `lesson` on the path, if it is bundled. */
  nextLesson(lesson: Lesson): BundledSession | null {
    return this.lessons.find((e) => (e.lesson?.order ?? 0) > lesson.order) ?? null;
  }

  /** Opens a saved session; one that was cut short can be continued into the same entry. */
  async openSaved(meta: SavedMeta): Promise<void> {
    await this.#open(
      meta.title,
      async (): Promise<SessionCheck> => {
        const session = await (await this.#store).get(meta.id);
        return session
          ? { ok: true, session }
          : {
              ok: false,
              kind: 'schema',
              text: `The saved session "${meta.title}" is gone from this browser's storage.`,
            };
      },
      async () => ({ id: meta.id, title: meta.title, source: meta.status === 'live' ? 'restored' : 'saved' }),
    );
  }

  /** Deletes a saved session; it can be put back with `undoRemove` until the next delete. */
  async remove(meta: SavedMeta): Promise<void> {
    try {
      const store = await this.#store;
      const session = await store.get(meta.id);
      await store.remove(meta.id);
      this.keeper.forget(meta.id);
      this.deleted = session ? { meta, session } : null;
      if (this.interrupted?.id === meta.id) this.interrupted = null;
    } catch (e) {
      this.notice = { tone: 'error', text: message(e) };
    }
    await this.refresh();
  }

  /** Puts the session deleted last back into the list, as it was. */
  async undoRemove(): Promise<void> {
    const deleted = this.deleted;
    if (!deleted) return;
    try {
      await (await this.#store).put(deleted.meta, deleted.session);
      this.deleted = null;
    } catch (e) {
      this.notice = { tone: 'error', text: `The session could not be put back: ${message(e)}` };
    }
    await this.refresh();
  }

  /** Gives a saved session a new title (blank keeps the old one); a run still being recorded keeps it too. */
  async rename(meta: SavedMeta, title: string): Promise<void> {
    const name = title.trim();
    if (!name || name === meta.title) return;
    try {
      const store = await this.#store;
      const session = await store.get(meta.id);
      if (!session) throw new Error(`the saved session "${meta.title}" is gone from this browser's storage`);
      this.keeper.retitle(meta.id, name);
      await store.put({ ...meta, title: name }, session);
    } catch (e) {
      this.notice = { tone: 'error', text: `The session could not be renamed: ${message(e)}` };
    }
    await this.refresh();
  }

  async exportSaved(meta: SavedMeta): Promise<void> {
    const session = await (await this.#store).get(meta.id).catch(() => null);
    if (session)
      downloadText(
        this.#d.win.document,
        sessionFileName(meta.title),
        sessionFileText(titledSession(session, meta.title, meta.note)),
      );
  }

  /** Gives a saved session a note (blank removes it); it travels with the session's file. */
  async setNote(meta: SavedMeta, note: string): Promise<void> {
    const text = note.trim();
    if (text === (meta.note ?? '')) return;
    try {
      const store = await this.#store;
      const session = await store.get(meta.id);
      if (!session) throw new Error(`the saved session "${meta.title}" is gone from this browser's storage`);
      const { note: _old, ...rest } = meta;
      await store.put(text ? { ...rest, note: text.slice(0, NOTE_CHARS) } : rest, session);
    } catch (e) {
      this.notice = { tone: 'error', text: `The note could not be saved: ${message(e)}` };
    }
    await this.refresh();
  }

  /** Downloads the session behind the run on screen. */
  exportShown(): void {
    const shown = this.keeper.shown;
    if (shown?.session)
      downloadText(
        this.#d.win.document,
        sessionFileName(shown.title),
        sessionFileText(titledSession(shown.session, shown.title, this.#noteOf(shown.id))),
      );
  }

  /** Makes the share link of the session on screen, for this page's address, with its title when the link has room. */
  async shareShown(): Promise<void> {
    const shown = this.keeper.shown;
    if (shown?.session) await this.share.make(shown.session, this.#d.win.location.href, shown.title);
  }

  #noteOf(id: string | null): string | undefined {
    return id === null ? undefined : this.saved.find((m) => m.id === id)?.note;
  }

  /** The model that would continue `session`: its own script when it was scripted, else the start screen's live model. */
  continueChoice(session: Session): ContinueChoice {
    const { start } = this.#d;
    const script = start.options?.recorded.find((r) => session.model.id === `scripted:${r.id}`);
    if (script)
      return {
        ok: true,
        choice: { kind: 'scripted', recordedId: script.id },
        label: `the rest of its recorded script (${script.title})`,
      };
    const ready = start.readiness;
    if (!ready.ok)
      return {
        ok: false,
        reason: `To continue with a live model, finish the choice on the start screen: ${ready.reason}`,
      };
    const model = ready.config.model;
    switch (model.kind) {
      case 'scripted':
        return {
          ok: false,
          reason:
            'To continue, pick llama.cpp in this tab, a WebLLM model or an OpenAI-compatible endpoint on the start screen: the scripted model has recorded turns only for its own run.',
        };
      case 'openai':
        return { ok: true, choice: model, label: `${model.model} at ${model.baseUrl}` };
      case 'webllm':
        return {
          ok: true,
          choice: model,
          label: model.custom
            ? `WebLLM custom model at ${model.custom.url}`
            : `WebLLM ${start.webllmModel?.label ?? model.modelId}`,
        };
      case 'gguf':
        return {
          ok: true,
          choice: model,
          label: `llama.cpp (CPU) ${model.label ?? ('file' in model.source ? model.source.name : model.source.url)}`,
        };
      default: {
        const never: never = model;
        throw new TypeError(`unknown model choice ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * Forks the session on screen after `step` into a live run: its first `step` outputs are
   * replayed to rebuild the state, then the continuing model goes on. A run a reload cut short,
   * continued from its last step, keeps its saved entry, and its record says where it was cut;
   * any other fork is a new one.
   */
  async continueFrom(step: number): Promise<void> {
    const shown = this.keeper.shown;
    const session = shown?.session;
    if (!shown || !session) return;
    const choice = this.continueChoice(session);
    if (!choice.ok) {
      this.#d.run.error = choice.reason;
      return;
    }
    const resume = shown.source === 'restored' && shown.id !== null && step === session.steps.length;
    const saved = resume ? this.saved.find((m) => m.id === shown.id) : undefined;
    const settings = await this.#settings();
    this.#d.router.go('run');
    // Resumed, the record says where the reload cut it short; the new record keeps that (session/continued.ts).
    const kept = resume ? withCutShort(session) : session;
    const started = await this.#d.run.startSession({
      session: { ...kept, steps: session.steps.slice(0, step) },
      upTo: step,
      model: choice.choice,
      settings,
    });
    const info = this.#d.run.info;
    if (!started || !info) return;
    this.keeper.track(info.runId, {
      kind: 'record',
      id: resume ? shown.id! : crypto.randomUUID(),
      title: resume ? shown.title : `${shown.title} — continued from step ${step}`,
      floor: resume ? step : 0,
      source: saved?.source ?? 'run',
      ...(saved && { createdAt: saved.createdAt }),
    });
  }

  /**
   * Branches the session on screen at `step`: `raw` replaces the model's output there, and the
   * run goes on with the record's later outputs (`then: 'record'`) or the continuing model, as a
   * new session whose record names its parent and the step (session/branch.ts). A refusal
   * (the text as recorded, an empty one) is said in the run's error line.
   */
  async branchFrom(step: number, raw: string, then: BranchThen): Promise<void> {
    const shown = this.keeper.shown;
    const session = shown?.session;
    if (!shown || !session) return;
    const choice = then === 'model' ? this.continueChoice(session) : null;
    if (choice && !choice.ok) {
      this.#d.run.error = choice.reason;
      return;
    }
    const parentId = shown.id !== null ? savedSource(shown.id) : shown.key;
    const settings = await this.#settings();
    this.#d.router.go('run');
    const started = await this.#d.run.startSession({
      session,
      upTo: step - 1,
      model: choice?.ok ? choice.choice : null,
      settings,
      edit: { raw, then, ...(parentId !== undefined && { parentId }) },
    });
    const info = this.#d.run.info;
    if (!started || !info) return;
    this.keeper.track(info.runId, {
      kind: 'record',
      id: crypto.randomUUID(),
      title: `${shown.title} — branch at step ${step}`,
      floor: 0,
      source: 'run',
    });
  }

  /**
   * The split view of a branch on screen beside its parent, opened on the branch point; null
   * when the session is not a branch, is not saved here, or its parent is not kept where the
   * split view can open it.
   */
  branchCompareHref(): string | null {
    const shown = this.keeper.shown;
    const branch = shown?.session?.branch;
    if (!shown?.id || !branch?.parentId) return null;
    return compareHref(branch.parentId, savedSource(shown.id), branch.step);
  }

  /**
   * The tab was recording a run when it was reloaded. On the run view, replay what was saved and
   * offer to continue; on any other page, offer to open it (the address a person loaded wins).
   */
  async #restoreInterrupted(): Promise<void> {
    const id = this.keeper.interruptedId();
    if (!id) return;
    this.keeper.clearInterrupted();
    const meta = this.saved.find((m) => m.id === id);
    if (!meta || meta.steps === 0) return;
    if (this.#d.router.page === 'run') await this.openSaved(meta);
    else this.interrupted = meta;
  }

  /** Opens the run a reload cut short, as offered on the start screen. */
  async openInterrupted(): Promise<void> {
    const meta = this.interrupted;
    this.interrupted = null;
    if (meta) await this.openSaved(meta);
  }

  /** Checks the session (in the worker), then replays it in the run view; a refusal becomes the notice. */
  async #open(
    what: string,
    check: () => Promise<SessionCheck>,
    describe: (
      session: Session,
    ) => Promise<{ id: string | null; title: string; source: ShownSource; lesson?: Lesson; key?: string }>,
  ): Promise<void> {
    this.opening = what;
    this.notice = null;
    try {
      const checked = await check();
      if (!checked.ok) {
        this.notice = { tone: 'error', text: `${what} could not be opened. ${checked.text}` };
        return;
      }
      const session = checked.session;
      if (session.steps.length === 0) {
        this.notice = {
          tone: 'error',
          text: `${what} has no steps to replay: the run it records stopped before its first step.`,
        };
        return;
      }
      const shown = await describe(session);
      const settings = await this.#settings();
      this.#d.router.go('run');
      // A lesson or an example is read from its first step; any other session opens on its last.
      const firstStep = shown.source === 'lesson' || shown.source === 'example' ? 1 : null;
      const started = await this.#d.run.startSession(
        { session, upTo: session.steps.length, model: null, settings },
        firstStep,
      );
      const info = this.#d.run.info;
      if (started && info) this.keeper.track(info.runId, { kind: 'replay', session, ...shown });
    } catch (e) {
      this.notice = { tone: 'error', text: `${what} could not be opened: ${message(e)}` };
    } finally {
      this.opening = null;
    }
  }

  /** Saves a session from outside in this browser, so it stays in the list with where it came from (`origin`); returns its id. */
  async #keep(session: Session, title: string, source: 'file' | 'link', origin: string): Promise<string | null> {
    const id = crypto.randomUUID();
    const now = new Date().toISOString();
    try {
      await (
        await this.#store
      ).put(
        {
          id,
          title,
          createdAt: now,
          updatedAt: now,
          steps: session.steps.length,
          status: 'ended',
          source,
          stopText: origin,
          ...searchFields(session),
        },
        session,
      );
      await this.refresh();
      return id;
    } catch (e) {
      this.notice = { tone: 'info', text: `The session opens, but could not be saved in this browser: ${message(e)}` };
      return null;
    }
  }

  /** The run settings for a session run: the start screen's when they are usable, else the defaults. */
  async #settings(): Promise<RunSettings> {
    const ready = this.#d.start.readiness;
    if (ready.ok) return ready.config.settings;
    return (this.#d.start.options ?? (await this.#d.client.runOptions())).defaults;
  }
}

/**
 * Where a session from outside came from, for the sessions list: the file's name, or the share
 * link's site (a link's data is no name a person can read; a bare `#s=…` has no site).
 */
export function openedFromText(from: { readonly file: string } | { readonly link: string }): string {
  if ('file' in from) return `opened from the file ${from.file}`;
  let site = '';
  try {
    site = new URL(from.link.trim()).host;
  } catch {
    // A bare hash or the data alone: no site to name.
  }
  return site ? `opened from a share link (${site})` : 'opened from a share link';
}

function firstLine(text: string): string {
  const line = text.split('\n', 1)[0]!.trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
