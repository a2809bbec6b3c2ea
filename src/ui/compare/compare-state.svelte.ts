/**
 * The split view's state: two sessions (a bundled lesson or example, a session saved in this
 * browser, a session file, a share link, or a session handed over by the Eval page), each
 * replayed in full in the worker apart from the run on screen, their steps aligned row by row
 * (align.ts), the first divergence, and the selected row. The URL (`#/compare?a=…&b=…&row=…`)
 * names the sides and the row, so a link opens the same comparison; a file or a handed-over
 * session lives only in this tab, and a reload says so.
 */
import type { SavedMeta, SessionStore } from '../../session/idb-store.ts';
import type { EngineClient, ReplayedSession, Session, SessionCheck, StepRecord } from '../../worker/client.ts';
import type { BundledSession } from '../sessions/bundled.ts';
import {
  alignSteps,
  canonicalJson,
  firstDivergence,
  rowState,
  type AlignedRow,
  type AlignStep,
  type FirstDivergence,
  type RowState,
} from './align.ts';

export type SideKey = 'a' | 'b';

/** One side of the comparison. */
export type Side =
  | { readonly state: 'empty' }
  | { readonly state: 'loading'; readonly source: string; readonly title: string }
  | { readonly state: 'error'; readonly source: string; readonly title: string; readonly text: string }
  | {
      readonly state: 'ready';
      readonly source: string;
      readonly title: string;
      /** The record as opened: its result texts are what the model saw when it ran. */
      readonly session: Session;
      readonly replayed: ReplayedSession;
      readonly byIndex: ReadonlyMap<number, StepRecord>;
    };

/** A session the picker offers, by the source text the URL carries. */
export interface SourceChoice {
  readonly source: string;
  readonly label: string;
  readonly group: 'Lessons' | 'Examples' | 'Your sessions';
}

/** What the split view reads of the sessions list. */
export interface SessionLists {
  readonly lessons: readonly BundledSession[];
  readonly examples: readonly BundledSession[];
  readonly saved: readonly SavedMeta[];
}

/** The part of the router the split view uses. */
export interface QueryRoute {
  readonly query: string;
  setQuery(query: string): void;
}

export interface CompareDeps {
  readonly client: EngineClient;
  readonly lists: SessionLists;
  readonly store: Promise<SessionStore>;
  readonly route: QueryRoute;
}

/** The source text of a saved session, for links from the sessions list. */
export const savedSource = (id: string) => `saved:${id}`;

/** The split view's query from its parameters, in a fixed order, with the sources' colons kept readable. */
function queryText(q: URLSearchParams): string {
  return ['a', 'b', 'row']
    .flatMap((k) => (q.has(k) ? [`${k}=${encodeURIComponent(q.get(k)!).replace(/%3A/g, ':')}`] : []))
    .join('&');
}

/** The address of the split view with `a` (and `b`) open, on row `row` (1-based) when given. */
export function compareHref(a: string, b?: string, row?: number): string {
  return `#/compare?${queryText(new URLSearchParams({ a, ...(b !== undefined && { b }), ...(row !== undefined && { row: String(row) }) }))}`;
}

/**
 * What the alignment compares of a step: its call, and the result the model saw — as the record
 * keeps it when it does (a replay here may differ from the run, e.g. where a command's output
 * depends on the machine it ran on), else as the replay computed it.
 */
export function alignStep(record: StepRecord, recordedResult?: string): AlignStep {
  const { step } = record;
  return {
    index: step.index,
    tool: step.call?.tool ?? null,
    call: step.call ? `${step.call.tool} ${canonicalJson(step.call.args)}` : `no call: ${step.raw}`,
    result: recordedResult ?? step.observation,
  };
}

const EMPTY: Side = { state: 'empty' };

/** The longest share link a compare URL carries for one side (the URL holds both; Chromium keeps 2 MB). */
const PORTABLE_LINK_CHARS = 100_000;

export class CompareState {
  a = $state.raw<Side>(EMPTY);
  b = $state.raw<Side>(EMPTY);
  /** The selected row, 0-based. */
  row = $state(0);
  readonly #d: CompareDeps;
  /** Sessions that came from a file or the Eval page: this tab only, by source text. */
  readonly #held = new Map<string, { title: string; session: Session }>();
  #nextHeld = 1;

  constructor(deps: CompareDeps) {
    this.#d = deps;
  }

  readonly #steps = $derived.by(() => ({ a: stepsOf(this.a), b: stepsOf(this.b) }));
  readonly rows: readonly AlignedRow[] = $derived(alignSteps(this.#steps.a, this.#steps.b));
  readonly states: readonly RowState[] = $derived.by(() => {
    const a = new Map(this.#steps.a.map((s) => [s.index, s]));
    const b = new Map(this.#steps.b.map((s) => [s.index, s]));
    return this.rows.map((r) => rowState(r, a, b));
  });
  /** Null until both sides are ready, and when the runs never part. */
  readonly divergence: FirstDivergence | null = $derived(
    this.a.state === 'ready' && this.b.state === 'ready'
      ? firstDivergence(this.rows, this.#steps.a, this.#steps.b)
      : null,
  );
  readonly selected: AlignedRow | null = $derived(this.rows[this.row] ?? null);

  /** The sessions the pickers offer. */
  get choices(): SourceChoice[] {
    const { lessons, examples, saved } = this.#d.lists;
    return [
      ...lessons.map((e) => ({
        source: e.key,
        label: `${e.lesson?.order ?? ''}. ${e.title}`,
        group: 'Lessons' as const,
      })),
      ...examples.map((e) => ({ source: e.key, label: e.title, group: 'Examples' as const })),
      ...saved.map((m) => ({
        source: savedSource(m.id),
        label: `${m.title} (${m.steps} step${m.steps === 1 ? '' : 's'})`,
        group: 'Your sessions' as const,
      })),
    ];
  }

  /** Follows the URL: opens the sides it names (when they changed) and selects its row. */
  async sync(query: string): Promise<void> {
    const q = new URLSearchParams(query);
    const row = Number(q.get('row'));
    const wanted = { a: q.get('a'), b: q.get('b') };
    const loads = (['a', 'b'] as const).map((key) => {
      const source = wanted[key];
      const side = this[key];
      if (!source) {
        this[key] = EMPTY;
        return Promise.resolve();
      }
      return side.state !== 'empty' && side.source === source ? Promise.resolve() : this.#load(key, source);
    });
    if (Number.isInteger(row) && row >= 1) this.row = row - 1;
    await Promise.all(loads);
    this.row = Math.min(this.row, Math.max(0, this.rows.length - 1));
  }

  /** Opens `source` on one side (a new URL, which the page follows). */
  pick(key: SideKey, source: string): void {
    this.#write({ [key]: source, row: 1 });
  }

  /** Opens a session file on one side; it lives in this tab only. */
  async pickFile(key: SideKey, file: File): Promise<void> {
    const checked = await this.#d.client
      .openFile(file)
      .catch((e: unknown) => ({ ok: false as const, text: message(e) }));
    if (!checked.ok) {
      this[key] = {
        state: 'error',
        source: `file:${file.name}`,
        title: file.name,
        text: `${file.name} could not be opened. ${checked.text}`,
      };
      return;
    }
    this.pick(key, this.hold(file.name.replace(/\.session\.json$|\.json$/, ''), checked.session));
  }

  /** Opens a share link on one side (decoded and checked in the worker). */
  pickLink(key: SideKey, link: string): void {
    this.pick(key, `link:${link.trim()}`);
  }

  /** Keeps a session for this tab (a file, a cell of the Eval page) and returns the source text that opens it. */
  hold(title: string, session: Session): string {
    const source = `tab:${this.#nextHeld++}`;
    this.#held.set(source, { title, session });
    return source;
  }

  /**
   * The source text that opens `session` on a side in any tab: its share link (with `title`),
   * which the URL then carries whole; a session whose link would pass `PORTABLE_LINK_CHARS`, or
   * whose link cannot be made, is held in this tab instead (`tab:N`), and the page says so.
   */
  async portable(title: string, session: Session, base: string): Promise<string> {
    try {
      const { url } = await this.#d.client.shareLink({ ...session, title }, base);
      if (url.length <= PORTABLE_LINK_CHARS) return `link:${url}`;
    } catch {
      // Held in this tab instead; the compare page says a tab-held side opens only here.
    }
    return this.hold(title, session);
  }

  /** True when a side shows a session held in this tab (a file or an Eval cell): a link to the view opens it only here. */
  heldHere(key: SideKey): boolean {
    const side = this[key];
    return side.state !== 'empty' && side.source.startsWith('tab:');
  }

  /** The two sides swap places. */
  swap(): void {
    const q = new URLSearchParams(this.#d.route.query);
    const a = q.get('a');
    const b = q.get('b');
    this.#write({ a: b, b: a });
  }

  select(row: number): void {
    if (!this.rows.length) return;
    this.row = Math.min(Math.max(row, 0), this.rows.length - 1);
    this.#write({ row: this.row + 1 });
  }

  move(delta: number): void {
    this.select(this.row + delta);
  }

  selectFirst(): void {
    this.select(0);
  }

  selectLast(): void {
    this.select(this.rows.length - 1);
  }

  #write(changes: Record<string, string | number | null>): void {
    const q = new URLSearchParams(this.#d.route.query);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) q.delete(k);
      else q.set(k, String(v));
    }
    this.#d.route.setQuery(queryText(q));
  }

  async #load(key: SideKey, source: string): Promise<void> {
    const title = this.#title(source);
    this[key] = { state: 'loading', source, title };
    let side: Side;
    try {
      const checked = await this.#session(source);
      if (!checked.ok) side = { state: 'error', source, title, text: `${title} could not be opened. ${checked.text}` };
      else if (checked.session.steps.length === 0)
        side = {
          state: 'error',
          source,
          title,
          text: `${title} has no steps to compare: the run it records stopped before its first step.`,
        };
      else {
        const replayed = await this.#d.client.replayRecords(checked.session);
        side = {
          state: 'ready',
          source,
          // A link carries the title it was made with (an Eval cell's), when it had room for one.
          title: source.startsWith('link:') && checked.session.title ? checked.session.title : title,
          session: checked.session,
          replayed,
          byIndex: new Map(replayed.records.map((r) => [r.step.index, r])),
        };
      }
    } catch (e) {
      side = { state: 'error', source, title, text: `${title} could not be opened: ${message(e)}` };
    }
    // A side picked again meanwhile keeps the later choice.
    if (this[key].state === 'loading' && (this[key] as { source: string }).source === source) this[key] = side;
  }

  async #session(source: string): Promise<SessionCheck> {
    const { client, lists, store } = this.#d;
    const bundled = [...lists.lessons, ...lists.examples].find((e) => e.key === source);
    if (bundled) return client.openFile(new Blob([await bundled.load()]));
    if (source.startsWith('saved:')) {
      const session = await (await store).get(source.slice('saved:'.length));
      return session
        ? { ok: true, session }
        : refusal('It is not among the sessions saved in this browser (it may have been deleted).');
    }
    if (source.startsWith('link:')) return client.openLink(source.slice('link:'.length));
    const held = this.#held.get(source);
    if (held) return { ok: true, session: held.session };
    return refusal(
      source.startsWith('tab:')
        ? 'It was opened from a file or the Eval page in this tab before a reload; open it again.'
        : `"${source}" names no session this page knows.`,
    );
  }

  #title(source: string): string {
    const { lessons, examples, saved } = this.#d.lists;
    const bundled = [...lessons, ...examples].find((e) => e.key === source);
    if (bundled)
      return bundled.group === 'lesson'
        ? `Lesson ${bundled.lesson?.order ?? ''}: ${bundled.title}`
        : `Example: ${bundled.title}`;
    if (source.startsWith('saved:')) return saved.find((m) => savedSource(m.id) === source)?.title ?? 'A saved session';
    if (source.startsWith('link:')) return 'Shared link';
    return this.#held.get(source)?.title ?? 'A session';
  }
}

function stepsOf(side: Side): AlignStep[] {
  return side.state === 'ready'
    ? side.replayed.records.map((r) => alignStep(r, side.session.steps[r.step.index - 1]?.resultText))
    : [];
}

function refusal(text: string): SessionCheck {
  return { ok: false, kind: 'schema', text };
}

function message(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}
