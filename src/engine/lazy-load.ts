/**
 * Parts of the engine loaded on first use (a dynamic `import()`, a wasm grammar): the shell's
 * parser, git, the syntax checkers. Each loads once per runtime; the load is timed, and whoever
 * listens while it happens (the agent loop, around one tool call) hears what loaded and how long
 * it took, so the step that paid for it can say so.
 */

/** One first-use load: what loaded, in words, and how long it took. */
export interface LoadTiming {
  /** e.g. `git (isomorphic-git)`. */
  readonly what: string;
  readonly ms: number;
}

type Listener = (load: LoadTiming) => void;
const listeners = new Set<Listener>();

/** Calls `listener` for every load that finishes until the returned function is called. */
export function onLoad(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Times `load` and tells the listeners; a load that fails tells nobody. `what` may be said from
 * the loaded value (how many files, how many bytes).
 */
export async function timedLoad<T>(what: string | ((value: T) => string), load: () => Promise<T>): Promise<T> {
  const t0 = performance.now();
  const value = await load();
  const timing: LoadTiming = { what: typeof what === 'string' ? what : what(value), ms: performance.now() - t0 };
  for (const l of listeners) l(timing);
  return value;
}

/**
 * `load`, run on the first call and shared by every later one. A load that fails is tried
 * again on the next call (a chunk that could not be fetched may be fetched later).
 */
export function loadOnce<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let pending: Promise<T> | null = null;
  return () => {
    pending ??= timedLoad(what, load).catch((e: unknown) => {
      pending = null;
      throw e;
    });
    return pending;
  };
}
