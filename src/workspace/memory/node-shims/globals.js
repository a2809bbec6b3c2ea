// @ts-check
/**
 * Node's globals for the offline JavaScript sandbox: `process` (argv, env, cwd, exit,
 * exitCode, stdout/stderr, nextTick, hrtime …), `console` (formatted as Node formats it), and
 * timers tracked so the runtime knows when a program has nothing left pending — Node exits
 * then. Storage globals are removed before the program runs (the worker's opaque origin
 * already denies it storage; this keeps the program from even trying). The network is not
 * removed here but forbidden by the sandbox frame's Content-Security-Policy, which the worker
 * inherits: a program that tries gets the browser's own refusal. Sandbox guest code: plain
 * JavaScript, loaded as source text; the runtime calls `installGlobals` once, before the
 * program's first module loads.
 */
import { format } from 'node:util';

/** Storage globals, and the channel to other jobs of the same frame: removed before workspace code runs. */
const REMOVED_GLOBALS = ['BroadcastChannel', 'indexedDB', 'caches', 'navigator'];

/**
 * Installs the globals; `write` takes the program's output, `active` tracks its pending timers
 * (`poke` is called when one ends), `exit` ends the run with a code and does not return.
 * @param {{ argv: string[], env: Record<string, string>, cwd: string, write: (text: string) => void, active: Set<unknown>, poke: () => void, exit: (code: number) => never }} o
 */
export function installGlobals({ argv, env, cwd, write, active, poke, exit }) {
  const g = /** @type {Record<string, any>} */ (globalThis);
  for (const name of REMOVED_GLOBALS) {
    try {
      Object.defineProperty(g, name, { value: undefined, configurable: true, writable: true });
    } catch {
      // A non-configurable global stays; the opaque origin still denies it storage.
    }
  }
  const { setTimeout: st, setInterval: si, clearTimeout: ct, clearInterval: ci } = g;
  const define = (/** @type {string} */ name, /** @type {unknown} */ value) =>
    Object.defineProperty(g, name, { value, configurable: true, writable: true });
  define('setTimeout', (/** @type {Function} */ fn, /** @type {number} */ ms, /** @type {unknown[]} */ ...args) => {
    const id = st(() => {
      try {
        fn(...args);
      } finally {
        active.delete(id);
        poke();
      }
    }, ms);
    active.add(id);
    return id;
  });
  define('setInterval', (/** @type {Function} */ fn, /** @type {number} */ ms, /** @type {unknown[]} */ ...args) => {
    const id = si(() => fn(...args), ms);
    active.add(id);
    return id;
  });
  const clear = (/** @type {Function} */ real) => (/** @type {unknown} */ id) => {
    real(id);
    if (active.delete(id)) poke();
  };
  define('clearTimeout', clear(ct));
  define('clearInterval', clear(ci));
  define('setImmediate', (/** @type {Function} */ fn, /** @type {unknown[]} */ ...args) =>
    g.setTimeout(fn, 0, ...args),
  );
  define('clearImmediate', (/** @type {unknown} */ id) => g.clearTimeout(id));
  define('global', g);

  let indent = '';
  const line = (/** @type {unknown[]} */ args) => write(`${format(...args).replace(/^/gm, indent)}\n`);
  const counts = new Map();
  const timers = new Map();
  define('console', {
    log: (/** @type {unknown[]} */ ...a) => line(a),
    info: (/** @type {unknown[]} */ ...a) => line(a),
    debug: (/** @type {unknown[]} */ ...a) => line(a),
    warn: (/** @type {unknown[]} */ ...a) => line(a),
    error: (/** @type {unknown[]} */ ...a) => line(a),
    trace: (/** @type {unknown[]} */ ...a) => line(['Trace:', ...a]),
    dir: (/** @type {unknown} */ v) => line([v]),
    table: (/** @type {unknown} */ v) => line([v]),
    assert: (/** @type {unknown} */ ok, /** @type {unknown[]} */ ...a) => ok || line(['Assertion failed', ...a]),
    group: (/** @type {unknown[]} */ ...a) => (a.length && line(a), (indent += '  ')),
    groupEnd: () => (indent = indent.slice(2)),
    count: (/** @type {string} */ label = 'default') => (
      counts.set(label, (counts.get(label) ?? 0) + 1),
      line([`${label}: ${counts.get(label)}`])
    ),
    time: (/** @type {string} */ label = 'default') => timers.set(label, performance.now()),
    timeEnd: (/** @type {string} */ label = 'default') =>
      line([`${label}: ${(performance.now() - (timers.get(label) ?? 0)).toFixed(3)}ms`]),
  });

  const stream = {
    write: (/** @type {unknown} */ s) => (write(String(s)), true),
    isTTY: false,
    columns: 80,
    on: () => stream,
    once: () => stream,
  };
  const proc = {
    argv: ['/usr/local/bin/node', ...argv],
    argv0: 'node',
    execArgv: [],
    env: { ...env },
    exitCode: /** @type {number | undefined} */ (undefined),
    platform: 'linux',
    arch: 'x64',
    pid: 1,
    ppid: 0,
    version: 'v20.0.0',
    versions: { node: '20.0.0', sandbox: 'slmcode offline sandbox' },
    release: { name: 'node' },
    cwd: () => cwd,
    chdir: () => {
      throw new Error('process.chdir() is not supported in the offline sandbox');
    },
    exit: (/** @type {number | undefined} */ code) => exit(code ?? proc.exitCode ?? 0),
    nextTick: (/** @type {Function} */ fn, /** @type {unknown[]} */ ...args) => queueMicrotask(() => fn(...args)),
    stdout: stream,
    stderr: stream,
    hrtime: Object.assign(
      (/** @type {[number, number] | undefined} */ prev) => {
        const ns = Math.round(performance.now() * 1e6) - (prev ? prev[0] * 1e9 + prev[1] : 0);
        return [Math.floor(ns / 1e9), ns % 1e9];
      },
      { bigint: () => BigInt(Math.round(performance.now() * 1e6)) },
    ),
    uptime: () => performance.now() / 1000,
    memoryUsage: () => ({ rss: 0, heapTotal: 0, heapUsed: 0, external: 0, arrayBuffers: 0 }),
    emitWarning: (/** @type {unknown} */ w) => line([`(node) Warning: ${w instanceof Error ? w.message : String(w)}`]),
    on: () => proc,
    once: () => proc,
    off: () => proc,
    removeListener: () => proc,
  };
  define('process', proc);
}
