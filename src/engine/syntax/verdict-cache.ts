/**
 * A small least-recently-used cache of syntax verdicts, keyed by a hash of path and text.
 *
 * The post-edit hook parses a file's earlier text whenever an edit leaves it broken, and that
 * earlier text is usually one the hook itself judged when an earlier call wrote it — so a model
 * retrying a broken edit on a 2,000-line file paid for two parses per attempt instead of one.
 * `checkSyntax` is a pure function of the path (which picks the checker) and the text, so a
 * remembered verdict is exactly the verdict a new parse would give. Only decided verdicts are
 * kept: `skipped` depends on timing and on whether a parser was loaded, and may change.
 *
 * An entry keeps a reference to its text (not a copy: the session's file changes hold the same
 * strings), and a hit compares the whole text, so a hash collision can never return a verdict
 * for another text.
 */
import type { CheckOptions, SyntaxVerdict } from './verdict.ts';

/** A checker with `checkSyntax`'s signature. */
type Checker = (path: string, text: string, opts?: CheckOptions) => Promise<SyntaxVerdict | null>;

interface Entry {
  readonly path: string;
  readonly text: string;
  readonly verdict: SyntaxVerdict;
}

/** How many verdicts a cache keeps unless told otherwise: a few files' recent texts. */
export const DEFAULT_VERDICT_CACHE_ENTRIES = 64;

export class VerdictCache {
  /** Map iteration order is insertion order: the first key is the least recently used. */
  readonly #entries = new Map<string, Entry>();
  #hits = 0;
  #misses = 0;

  constructor(readonly capacity: number = DEFAULT_VERDICT_CACHE_ENTRIES) {
    if (!Number.isSafeInteger(capacity) || capacity < 1)
      throw new RangeError(`VerdictCache capacity must be a positive integer, got ${capacity}`);
  }

  /** Lookups answered from the cache, and lookups that were not. */
  get stats(): { readonly hits: number; readonly misses: number; readonly size: number } {
    return { hits: this.#hits, misses: this.#misses, size: this.#entries.size };
  }

  /** The remembered verdict for exactly this path and text, or undefined. */
  get(path: string, text: string): SyntaxVerdict | undefined {
    const key = keyOf(path, text);
    const entry = this.#entries.get(key);
    if (!entry || entry.path !== path || entry.text !== text) {
      this.#misses++;
      return undefined;
    }
    this.#hits++;
    // Re-inserting moves the entry to the most recently used end.
    this.#entries.delete(key);
    this.#entries.set(key, entry);
    return entry.verdict;
  }

  /** Remembers a decided verdict; `skipped` is never kept. */
  set(path: string, text: string, verdict: SyntaxVerdict): void {
    if (verdict.status === 'skipped') return;
    const key = keyOf(path, text);
    this.#entries.delete(key);
    this.#entries.set(key, { path, text, verdict });
    while (this.#entries.size > this.capacity) this.#entries.delete(this.#entries.keys().next().value!);
  }
}

/**
 * `check` answered from `cache` where it can. Only for a checker whose verdict depends on
 * nothing but the path and the text (`checkSyntax`); one that reads the workspace, like
 * `node --check`, must not be wrapped.
 */
export function withVerdictCache(check: Checker, cache: VerdictCache = new VerdictCache()): Checker {
  return async (path, text, opts) => {
    const known = cache.get(path, text);
    if (known) return known;
    const verdict = await check(path, text, opts);
    if (verdict) cache.set(path, text, verdict);
    return verdict;
  };
}

/** The path, the text's length and a 53-bit hash of it (cyrb53): distinct texts rarely share a key, and a shared key only costs a miss. */
function keyOf(path: string, text: string): string {
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  const hash = 4294967296 * (2097151 & h2) + (h1 >>> 0);
  return `${path}\0${text.length}\0${hash}`;
}
