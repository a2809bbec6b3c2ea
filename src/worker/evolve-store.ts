/**
 * The edit-format bandit's table in the browser: one record in IndexedDB, read at the start of
 * a live run and written after every edit step the bandit learns from. The engine worker opens
 * it (`indexedDB` exists in dedicated workers); where there is no IndexedDB (Node, tests, some
 * private windows) the table lives in memory for the life of the worker.
 */
import { EditFormatBandit, parseBanditTable, type BanditStore, type BanditTable } from '../agent/evolve.ts';
import type { Step } from '../agent/step.ts';

/** The database the playground keeps the bandit's table in. */
export const BANDIT_DB = 'slmcode-evolve';
const DB_VERSION = 1;
const TABLES = 'tables';
/** The one record: the table of the edit-format bandit. */
const KEY = 'edit-format';

/** A request's result as a promise; its error as an Error naming the operation. */
function done<T>(request: IDBRequest<T>, what: string): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () =>
      reject(new Error(`${what} failed: ${request.error?.message ?? 'the browser gave no reason'}`));
  });
}

/** The table in IndexedDB. The database is opened on first use, so a worker that never runs a live model never opens it. */
export class IdbBanditStore implements BanditStore {
  #db: Promise<IDBDatabase> | null = null;

  constructor(
    private readonly factory: IDBFactory,
    private readonly name: string = BANDIT_DB,
  ) {}

  /** The stored table; null when none was saved yet, or when what is stored is not a table (a fresh one replaces it). */
  async load(): Promise<BanditTable | null> {
    const db = await this.#open();
    const value: unknown = await done(
      db.transaction(TABLES).objectStore(TABLES).get(KEY),
      'Reading the edit-format table',
    );
    return parseBanditTable(value);
  }

  /** Resolves once the transaction has committed, so a reload finds what was saved. */
  async save(table: BanditTable): Promise<void> {
    const db = await this.#open();
    const tx = db.transaction(TABLES, 'readwrite');
    const committed = new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      const fail = () =>
        reject(new Error(`Saving the edit-format table failed: ${tx.error?.message ?? 'the transaction was aborted'}`));
      tx.onerror = fail;
      tx.onabort = fail;
    });
    tx.objectStore(TABLES).put(table, KEY);
    await committed;
  }

  #open(): Promise<IDBDatabase> {
    // A failed open is not cached: the next run tries again.
    this.#db ??= openDb(this.factory, this.name).catch((e: unknown) => {
      this.#db = null;
      throw e;
    });
    return this.#db;
  }
}

async function openDb(factory: IDBFactory, name: string): Promise<IDBDatabase> {
  const request = factory.open(name, DB_VERSION);
  request.onupgradeneeded = () => {
    if (!request.result.objectStoreNames.contains(TABLES)) request.result.createObjectStore(TABLES);
  };
  // Another tab holding an older version open would block the upgrade forever: say so instead.
  const blocked = new Promise<never>((_, reject) => {
    request.onblocked = () =>
      reject(
        new Error(
          'Opening the edit-format table is blocked by another tab of the playground; close the other tabs and reload.',
        ),
      );
  });
  return Promise.race([done(request, 'Opening the edit-format table'), blocked]);
}

/** The table in memory, as a structured clone (as IndexedDB would keep it): for Node, tests, and browsers without IndexedDB. */
export class MemoryBanditStore implements BanditStore {
  #table: BanditTable | null;

  constructor(table: BanditTable | null = null) {
    this.#table = table && structuredClone(table);
  }

  async load(): Promise<BanditTable | null> {
    return this.#table && structuredClone(this.#table);
  }

  async save(table: BanditTable): Promise<void> {
    this.#table = structuredClone(table);
  }
}

/** The IndexedDB store when `factory` is there, else the in-memory one. */
export function openBanditStore(factory: IDBFactory | undefined): BanditStore {
  return factory ? new IdbBanditStore(factory) : new MemoryBanditStore();
}

/**
 * A bandit that writes its table to `store` after every step it learned from (the loop calls
 * `learn` after each step). Saves run one after another, each with the table as it was when
 * the step was learned; a failed save is kept as `saveError` and does not stop the run.
 */
export class SavingBandit extends EditFormatBandit {
  #saving: Promise<void> = Promise.resolve();
  saveError: string | null = null;

  constructor(
    table: BanditTable | null,
    seed: number,
    private readonly store: BanditStore,
  ) {
    super(table, seed);
  }

  override learn(family: string, step: Step): number | null {
    const reward = super.learn(family, step);
    if (reward !== null) {
      const table = this.toJSON();
      this.#saving = this.#saving.then(() =>
        this.store.save(table).then(
          () => void (this.saveError = null),
          (e: unknown) => void (this.saveError = e instanceof Error ? e.message : String(e)),
        ),
      );
    }
    return reward;
  }

  /** Resolves when every save asked for so far has finished (or failed). */
  saved(): Promise<void> {
    return this.#saving;
  }
}
