/**
 * Sessions kept in the browser: a small store of session records by id, in IndexedDB. Two
 * object stores, so the start screen can list sessions without reading their steps: `meta`
 * (title, when, how many steps, whether the run finished) and `records` (the session itself,
 * in its file form). A running session is written after every step, one transaction for both,
 * so a reload finds the list and the record in agreement.
 *
 * When IndexedDB is missing or refused (some private windows), `openSessionStore` falls back to
 * a store in memory and says so: sessions then last as long as the page.
 */
import type { Session } from './record.ts';

/** `live`: the run was still going when it was last saved (a reload cut it short, or it runs in another tab). */
export type SavedStatus = 'live' | 'ended';

/** Where a saved session came from. */
export type SavedSource = 'run' | 'file' | 'link';

/** What the list shows of a saved session. */
export interface SavedMeta {
  readonly id: string;
  readonly title: string;
  /** ISO 8601: when the run started or the session was opened here. */
  readonly createdAt: string;
  /** ISO 8601: the last save. */
  readonly updatedAt: string;
  readonly steps: number;
  readonly status: SavedStatus;
  /** Why the run ended, for people (when it did). */
  readonly stopText?: string;
  readonly source: SavedSource;
  /** The session's task (its first TASK_LINE_CHARS characters), which the list can be searched by. */
  readonly task?: string;
  /** A person's note on the session, which travels with its file. */
  readonly note?: string;
}

/** The store the page keeps sessions in. Failures reject with an Error whose message says what the browser refused. */
export interface SessionStore {
  /** Every saved session, newest first. */
  list(): Promise<SavedMeta[]>;
  get(id: string): Promise<Session | null>;
  /** Saves (or replaces) a session and its list entry together. */
  put(meta: SavedMeta, session: Session): Promise<void>;
  remove(id: string): Promise<void>;
}

const DB_VERSION = 1;
const META = 'meta';
const RECORDS = 'records';

/** The name of the database the playground keeps its sessions in. */
export const SESSION_DB = 'slmcode-sessions';

function newestFirst(a: SavedMeta, b: SavedMeta): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/** A request's result as a promise; its error as an Error naming the operation. */
function done<T>(request: IDBRequest<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () =>
      reject(new Error(`${what} failed: ${request.error?.message ?? 'the browser gave no reason'}`));
  });
}

/** Resolves when the transaction has committed (not merely when its requests succeeded). */
function committed(tx: IDBTransaction, what: string): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    const fail = () => reject(new Error(`${what} failed: ${tx.error?.message ?? 'the transaction was aborted'}`));
    tx.onerror = fail;
    tx.onabort = fail;
  });
}

/** The IndexedDB store. */
export class IdbSessionStore implements SessionStore {
  private constructor(private readonly db: IDBDatabase) {}

  /** Opens (creating on first use) the database `name`. */
  static async open(factory: IDBFactory, name: string = SESSION_DB): Promise<IdbSessionStore> {
    const request = factory.open(name, DB_VERSION);
    request.onupgradeneeded = () => {
      const db = request.result;
      if (!db.objectStoreNames.contains(META)) db.createObjectStore(META, { keyPath: 'id' });
      if (!db.objectStoreNames.contains(RECORDS)) db.createObjectStore(RECORDS);
    };
    // Another tab holding an older version open would block the upgrade forever: say so instead.
    const blocked = new Promise<never>((_, reject) => {
      request.onblocked = () =>
        reject(
          new Error(
            'Opening the session store is blocked by another tab of the playground; close the other tabs and reload.',
          ),
        );
    });
    return new IdbSessionStore(await Promise.race([done(request, 'Opening the session store'), blocked]));
  }

  async list(): Promise<SavedMeta[]> {
    const all = await done(
      this.db.transaction(META).objectStore(META).getAll() as IDBRequest<SavedMeta[]>,
      'Listing the saved sessions',
    );
    return all.sort(newestFirst);
  }

  async get(id: string): Promise<Session | null> {
    const value = await done(
      this.db.transaction(RECORDS).objectStore(RECORDS).get(id) as IDBRequest<Session | undefined>,
      'Reading a saved session',
    );
    return value ?? null;
  }

  async put(meta: SavedMeta, session: Session): Promise<void> {
    const tx = this.db.transaction([META, RECORDS], 'readwrite');
    const saved = committed(tx, `Saving the session "${meta.title}"`);
    tx.objectStore(META).put(meta);
    tx.objectStore(RECORDS).put(session, meta.id);
    await saved;
  }

  async remove(id: string): Promise<void> {
    const tx = this.db.transaction([META, RECORDS], 'readwrite');
    const removed = committed(tx, 'Deleting the session');
    tx.objectStore(META).delete(id);
    tx.objectStore(RECORDS).delete(id);
    await removed;
  }
}

/** The fallback when IndexedDB is unavailable: the same store, for the life of the page. */
export class MemorySessionStore implements SessionStore {
  readonly #entries = new Map<string, { meta: SavedMeta; session: Session }>();

  async list(): Promise<SavedMeta[]> {
    return [...this.#entries.values()].map((e) => e.meta).sort(newestFirst);
  }

  async get(id: string): Promise<Session | null> {
    return this.#entries.get(id)?.session ?? null;
  }

  async put(meta: SavedMeta, session: Session): Promise<void> {
    // Stored as a structured clone, as IndexedDB would: later changes to the caller's objects do not leak in.
    this.#entries.set(meta.id, structuredClone({ meta, session }));
  }

  async remove(id: string): Promise<void> {
    this.#entries.delete(id);
  }
}

/** The IndexedDB store, or the in-memory one with the reason sessions will not outlive the page. */
export async function openSessionStore(
  factory: IDBFactory | undefined,
): Promise<{ store: SessionStore; warning: string | null }> {
  if (!factory)
    return {
      store: new MemorySessionStore(),
      warning:
        'This browser offers no IndexedDB here, so sessions are kept only until the page is closed; export the ones you want to keep.',
    };
  try {
    return { store: await IdbSessionStore.open(factory), warning: null };
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    return {
      store: new MemorySessionStore(),
      warning: `Sessions cannot be saved in this browser (${why}), so they are kept only until the page is closed; export the ones you want to keep.`,
    };
  }
}
