// @ts-check
/**
 * The JavaScript sandbox's runtime: the first and only trusted code in the sandbox worker. In
 * the browser the worker is started by the sandbox frame (public/sandbox.html): an opaque
 * origin with no storage, under a Content-Security-Policy that forbids every fetch,
 * connection and load but this runtime's own blob: modules. This file is loaded as source text
 * (plain JavaScript, no imports) and runs one job:
 *
 * - `run`: load the entry file (ES module or CommonJS) with `process`, `console` and timers in
 *   place (node-shims/globals.js), then exit once no timer is pending (as Node exits when its
 *   event loop is empty);
 * - `test`: load each test file with the node:test shim, then print the TAP plan and tally;
 * - `jest`: the same with the Jest-style runner (node-shims/jest.js), whose globals are
 *   installed before each file loads, and Jest's summary instead of TAP.
 *
 * Workspace modules become blob: URLs created here, their specifiers replaced at the offsets
 * the host computed; a CommonJS module is a classic script that wraps it, loaded at once by
 * `io.script` (the frame's policy refuses eval and new Function); each test file gets fresh URLs, so module state does not leak from one
 * file to the next (Node runs each file in its own process). Output is bounded here as it is
 * written (sandbox-output.js: the head is sent as it comes, then a rolling tail every 50 ms) and the host
 * bounds it again.
 *
 * The job arrives on, and every message leaves by, a private MessagePort handed to `serve`
 * before any workspace code runs; the program shares this realm but never sees that port, and
 * the host listens on nothing else (`self.postMessage` reaches no one). What the runtime does
 * after the program has run — write output, post messages, print the tally — uses only the
 * built-ins captured below, at load, so a program that patches prototypes cannot change it.
 */
import { makeOutput } from './sandbox-output.js';

/**
 * @typedef {{ start: number, end: number, target: string, dynamic: boolean }} Dep
 * @typedef {{ id: string, kind: 'esm' | 'cjs' | 'json' | 'error', source: string, deps: Dep[], requires: Record<string, string>, names: string[], error?: { message: string, code: string } }} Mod
 * @typedef {{ mode: 'run' | 'test' | 'jest', entries: string[], argv: string[], cwd: string, env: Record<string, string>, modules: Record<string, Mod>, namePatterns: string[], headChars: number, tailChars: number }} Job
 * @typedef {{ type: 'head', text: string } | { type: 'tail', text: string, total: number } | { type: 'exit', code: number }} OutMessage
 * @typedef {{ url(source: string, type: string): string, script(url: string): void, post(message: OutMessage): void, onUncaught(handler: (error: unknown) => void): void, onBlocked?(handler: (url: string, directive: string) => void): void }} Io
 * @typedef {{ postMessage(message: unknown): void, onmessage: ((event: { data: unknown }) => void) | null }} JobPort
 * @typedef {{ configure(c: { write: (text: string) => void, clean: (text: string) => string, namePatterns: string[], cwd: string }): void, prepare?(): void, drain(file: string): Promise<void>, exitCalled?(code: number): boolean, fileFailed(file: string, error: string): void, finish(): { failed: number } }} TestHooks
 */

// Built-ins the runtime uses once the program has run, captured before it exists.
const { bind: fnBind, call: fnCall } = Function.prototype;
/** `f(this, ...args)` for a method, immune to later changes of Function.prototype. */
const uncurry = (/** @type {Function} */ method) => fnBind.call(fnCall, method);
const strSlice = /** @type {(s: string, start: number, end?: number) => string} */ (uncurry(String.prototype.slice));
const strIndexOf = /** @type {(s: string, search: string, from?: number) => number} */ (
  uncurry(String.prototype.indexOf)
);
const defineProperty = Object.defineProperty;
const reflectDelete = Reflect.deleteProperty;

/**
 * Where a CommonJS module's wrapper script hands over its function: the script runs as a classic
 * script (io.script: importScripts of a blob: URL in the browser, which the frame's policy allows
 * where eval is refused), and a classic script returns nothing. Fixed before any program runs.
 */
const CJS_SLOT = Symbol.for('slm.cjs');
/** @type {Function | null} */
let handedOver = null;
defineProperty(globalThis, CJS_SLOT, {
  value: (/** @type {Function} */ fn) => {
    handedOver = fn;
  },
});

/** The global the node:test shim hands its hooks to while it loads (removed before the program runs). */
const TEST_HOOKS = Symbol.for('slm.sandbox.test-hooks');

/** Thrown by process.exit to unwind the program; never reported as an error. Frozen: the program may catch one, but not change what `instanceof` says. */
class ExitSignal {
  /** @param {number} code */
  constructor(code) {
    this.code = code;
  }
}
Object.freeze(ExitSignal);
Object.freeze(ExitSignal.prototype);

/** The timer functions as they were before the program's tracked ones replaced them. */
const realSetTimeout = globalThis.setTimeout.bind(globalThis);

/**
 * @param {Job} job
 * @param {Io} io
 * @returns {Promise<void>}
 */
export async function runJob(job, io) {
  const out = makeOutput(io, job.headChars, job.tailChars);
  let exited = false;
  /** @param {number} code */
  const finish = (code) => {
    if (exited) return;
    exited = true;
    out.close();
    io.post({ type: 'exit', code });
  };

  /** URL → module id, to show paths instead of blob URLs in messages and stacks (this runtime's own URL too). */
  const names = new Map([[import.meta.url, 'node:internal/sandbox']]);
  /** @param {string} text */
  const clean = (text) => {
    for (const [url, id] of names) text = text.split(url).join(id);
    return text;
  };

  // In test mode, output from the program is a TAP comment, as node --test shows a child's stdout.
  let atLineStart = true;
  /** @param {string} written */
  const userWrite = (written) => {
    const text = `${written}`;
    if (job.mode !== 'test') return out.write(text);
    let shown = '';
    for (let at = 0; at < text.length;) {
      const nl = strIndexOf(text, '\n', at);
      const end = nl === -1 ? text.length : nl + 1;
      shown += (atLineStart ? '# ' : '') + strSlice(text, at, end);
      atLineStart = nl !== -1;
      at = end;
    }
    out.write(shown);
  };

  const active = new Set();
  /** @type {(() => void) | null} */
  let wake = null;
  const poke = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  /**
   * An uncaught error as Node prints it: `Name [CODE]: message` and the program's own frames
   * (the runtime's and Node's internal ones say nothing about the program).
   * @param {unknown} e
   */
  const describe = (e) => {
    if (!(e instanceof Error)) return `Uncaught ${String(e)}`;
    const code = /** @type {{ code?: unknown }} */ (e).code;
    const title = `${e.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${e.message}`;
    const frames = clean(e.stack ?? '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l) && !/\(?node:[\w/]+:\d+:\d+\)?$/.test(l));
    return clean([title, ...frames].join('\n'));
  };
  let uncaught = 0;
  io.onUncaught((e) => {
    if (e instanceof ExitSignal || exited) return;
    uncaught++;
    // Reading the value runs its getters, which may throw: it is counted and ends the run anyway.
    let text;
    try {
      text = describe(e);
    } catch {
      text = 'Uncaught exception (the thrown value could not be read: reading it threw)';
    }
    userWrite(`${text}\n`);
    if (job.mode === 'run') finish(1);
  });
  // The browser refuses every load and connection; say so where the program's output is (once
  // per refusal: the frame's header and its meta tag each report it).
  let lastBlocked = '';
  io.onBlocked?.((url, directive) => {
    // The browser names a refused eval or new Function "eval": that is no network load.
    const line =
      url === 'eval'
        ? `sandbox: code built from a string (eval, new Function) was blocked (${directive}): the sandbox runs only the workspace's files; put the code in a file and import or require it\n`
        : `sandbox: ${url || 'a load'} was blocked (${directive}): the offline sandbox has no network\n`;
    if (line !== lastBlocked) userWrite(line);
    lastBlocked = line;
  });

  const shared = new Map();
  const shims = new Map();
  /** @type {TestHooks | null} the test runner's hooks (node:test's or the Jest-style one's, as the job's mode says), handed over while the shims load; the program cannot reach them. */
  let testHooks = null;
  defineProperty(globalThis, TEST_HOOKS, {
    value: (/** @type {TestHooks} */ hooks, /** @type {string} */ kind) => {
      if (kind === job.mode) testHooks ??= hooks;
    },
    configurable: true,
  });
  try {
    for (const mod of Object.values(job.modules)) {
      if (mod.id.startsWith('node:')) shared.set(mod.id, link(job, io, shared, names, mod.id, []));
    }
    for (const id of shared.keys()) shims.set(id, await import(shared.get(id)));
  } catch (e) {
    userWrite(`${describe(e)}\n`);
    return finish(70);
  } finally {
    reflectDelete(globalThis, TEST_HOOKS);
  }
  /** The code of a process.exit in test mode: it ends the tests, and the tally is still printed. */
  let exitRequest = /** @type {number | null} */ (null);
  /** Whether the test runner failed the test that was running for that exit (else its file fails). */
  let exitCharged = false;
  shims.get('node:internal/globals').installGlobals({
    argv: job.argv,
    env: job.env,
    cwd: job.cwd,
    write: userWrite,
    active,
    poke,
    exit: (/** @type {number} */ code) => {
      if (job.mode === 'run') finish(code);
      else if (exitRequest === null) {
        exitRequest = code;
        exitCharged = testHooks?.exitCalled?.(code) ?? false;
      }
      throw new ExitSignal(code);
    },
  });

  try {
    const code =
      job.mode !== 'run'
        ? await runTests(job, io, shared, shims, names, /** @type {TestHooks} */ (testHooks), {
            write: out.write,
            clean,
            describe,
            exitRequest: () => (exitRequest === null ? null : { code: exitRequest, charged: exitCharged }),
          })
        : await runMain(job, io, shared, shims, names, active, (w) => (wake = w));
    finish(uncaught && code === 0 ? 1 : code);
  } catch (e) {
    if (e instanceof ExitSignal) return;
    userWrite(`${describe(e)}\n`);
    finish(1);
  }
}

/**
 * The URL of module `id` for one link generation, creating those of its dependencies first.
 * @param {Job} job
 * @param {Io} io
 * @param {Map<string, string>} urls
 * @param {Map<string, string>} names
 * @param {string} id
 * @param {string[]} path
 * @returns {string}
 */
function link(job, io, urls, names, id, path) {
  const known = urls.get(id);
  if (known) return known;
  if (path.includes(id)) {
    throw Object.assign(
      new Error(
        `circular import ${[...path.slice(path.indexOf(id)), id].join(' -> ')} is not supported by the offline sandbox; run it on the Node backend`,
      ),
      { code: 'ERR_SANDBOX_CYCLE' },
    );
  }
  const mod = job.modules[id];
  if (!mod) throw new Error(`the sandbox was not given module ${id}`);
  let source;
  let type = 'text/javascript';
  switch (mod.kind) {
    case 'esm': {
      let text = '';
      let at = 0;
      for (const d of [...mod.deps].sort((a, b) => a.start - b.start)) {
        // A static import that cannot be served fails the importer before any of it runs, as in Node.
        const target = job.modules[d.target];
        if (!d.dynamic && target?.kind === 'error') throw moduleError(target);
        text += mod.source.slice(at, d.start) + JSON.stringify(link(job, io, urls, names, d.target, [...path, id]));
        at = d.end;
      }
      source = `${text}${mod.source.slice(at)}\n//# sourceURL=${id}`;
      break;
    }
    case 'json':
      source = mod.source;
      type = 'application/json';
      break;
    case 'cjs': {
      const exported = mod.names
        .map((n) => `export const ${n} = __m == null ? undefined : __m[${JSON.stringify(n)}];`)
        .join('\n');
      source = `const __m = globalThis[Symbol.for('slm.require')](${JSON.stringify(id)});\nexport default __m;\n${exported}\n`;
      break;
    }
    case 'error':
      source = `throw Object.assign(new Error(${JSON.stringify(mod.error?.message ?? id)}), { code: ${JSON.stringify(mod.error?.code ?? 'ERR_MODULE_NOT_FOUND')} });\nexport default undefined;`;
      break;
  }
  const url = io.url(source, type);
  urls.set(id, url);
  names.set(url, id);
  return url;
}

/**
 * The error a module that cannot be served stands for, with Node's code.
 * @param {Mod} mod
 */
function moduleError(mod) {
  return Object.assign(new Error(mod.error?.message ?? mod.id), { code: mod.error?.code ?? 'ERR_MODULE_NOT_FOUND' });
}

/**
 * A fresh link generation: shims shared, workspace modules new (URLs and CommonJS cache), with
 * `require` installed for it.
 * @param {Job} job
 * @param {Io} io
 * @param {Map<string, string>} shared
 * @param {Map<string, any>} shims
 * @param {Map<string, string>} names
 */
function generation(job, io, shared, shims, names) {
  const urls = new Map(shared);
  /** @type {Map<string, { exports: unknown }>} */
  const cache = new Map();
  /** @param {string} id @returns {unknown} */
  const load = (id) => {
    const shim = shims.get(id);
    if (shim) return shim.default ?? shim;
    const mod = job.modules[id];
    if (!mod) throw Object.assign(new Error(`Cannot find module '${id}'`), { code: 'MODULE_NOT_FOUND' });
    if (mod.kind === 'json') return JSON.parse(mod.source);
    if (mod.kind === 'error') throw moduleError(mod);
    if (mod.kind === 'esm')
      throw Object.assign(new Error(`require() of ES Module ${id} not supported; use import instead`), {
        code: 'ERR_REQUIRE_ESM',
      });
    const hit = cache.get(id);
    if (hit) return hit.exports;
    const module = { exports: /** @type {unknown} */ ({}), id, filename: id, loaded: false };
    cache.set(id, module);
    const dir = id.slice(0, id.lastIndexOf('/')) || '/';
    const req = Object.assign(
      (/** @type {string} */ spec) => {
        const target = mod.requires[spec];
        if (target === undefined)
          throw Object.assign(
            new Error(
              `Cannot find module '${spec}' from ${id}: the offline sandbox resolves require() only for literal specifiers`,
            ),
            { code: 'MODULE_NOT_FOUND' },
          );
        return load(target);
      },
      { cache: {}, main: undefined },
    );
    // A classic script, as Node's wrapper is (sloppy unless the file says 'use strict', loaded at
    // once, as require() is). The wrapper shares the file's first line, so stack frames name the
    // file's own line numbers.
    const url = io.url(
      `globalThis[Symbol.for('slm.cjs')](function (exports, require, module, __filename, __dirname) {${mod.source}\n});\n//# sourceURL=${id}`,
      'text/javascript',
    );
    names.set(url, id);
    handedOver = null;
    io.script(url);
    const fn = handedOver;
    handedOver = null;
    if (typeof fn !== 'function')
      throw new Error(`the CommonJS module ${id} did not load: its wrapper script did not run`);
    fn.call(module.exports, module.exports, req, module, id, dir);
    module.loaded = true;
    return module.exports;
  };
  /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[Symbol.for('slm.require')] = load;
  return {
    /** @param {string} id */
    async start(id) {
      if (job.modules[id]?.kind === 'cjs') return load(id);
      return import(link(job, io, urls, names, id, []));
    },
  };
}

/**
 * @param {Job} job
 * @param {Io} io
 * @param {Map<string, string>} shared
 * @param {Map<string, any>} shims
 * @param {Map<string, string>} names
 * @param {Set<unknown>} active
 * @param {(wake: () => void) => void} onWake
 */
async function runMain(job, io, shared, shims, names, active, onWake) {
  const entry = job.entries[0];
  if (entry === undefined) return 9;
  await generation(job, io, shared, shims, names).start(entry);
  // Node exits once nothing is pending; here: no timer of the program's left after a macrotask turn.
  for (;;) {
    await new Promise((r) => realSetTimeout(r, 0));
    if (active.size === 0) break;
    await new Promise((r) => onWake(() => r(undefined)));
  }
  const code = /** @type {any} */ (globalThis).process.exitCode;
  return typeof code === 'number' ? code : 0;
}

/**
 * Runs each test file, then prints the plan and the tally: always, and always last — a
 * process.exit ends the run early but counts the test that called it (where the runner can
 * tell, as the Jest-style one can) or else its file as failed, so a program cannot stop before
 * the tally it would not like.
 * @param {Job} job
 * @param {Io} io
 * @param {Map<string, string>} shared
 * @param {Map<string, any>} shims
 * @param {Map<string, string>} names
 * @param {TestHooks} t
 * @param {{ write: (text: string) => void, clean: (text: string) => string, describe: (error: unknown) => string, exitRequest: () => { code: number, charged: boolean } | null }} o
 */
async function runTests(job, io, shared, shims, names, t, o) {
  t.configure({ write: o.write, clean: o.clean, namePatterns: job.namePatterns, cwd: job.cwd });
  for (let i = 0; i < job.entries.length; i++) {
    const file = job.entries[i];
    try {
      t.prepare?.();
      await generation(job, io, shared, shims, names).start(file);
      await t.drain(file);
    } catch (e) {
      if (!(e instanceof ExitSignal)) t.fileFailed(file, o.describe(e));
    }
    const exit = o.exitRequest();
    if (exit !== null) {
      // A test the runner failed for it already says so; otherwise the file is what failed.
      if (!exit.charged)
        t.fileFailed(
          file,
          `process.exit(${exit.code}) was called while this file's tests ran: the file counts as failed, and no test after it ran`,
        );
      break;
    }
  }
  return t.finish().failed > 0 ? 1 : 0;
}

/**
 * Serves one job on `port`, the runtime's private channel: the first message on it is the
 * job, and every message the runtime sends goes back on it. Called before any workspace code
 * exists, so the bound postMessage it keeps is the real one.
 * @param {JobPort} port
 * @param {Omit<Io, 'post'>} env how modules become URLs, and where uncaught errors are seen
 */
export function serve(port, env) {
  const post = /** @type {(message: OutMessage) => void} */ (fnBind.call(port.postMessage, port));
  port.onmessage = (e) => {
    port.onmessage = null;
    void runJob(/** @type {Job} */ (e.data), { ...env, post });
  };
}

/**
 * `serve` in a browser worker: modules as blob: URLs, CommonJS by importScripts, uncaught errors
 * from the worker scope.
 * @param {JobPort} port
 */
export function serveWorker(port) {
  const scope = /** @type {any} */ (globalThis);
  const addListener = fnBind.call(scope.addEventListener, scope);
  const createUrl = fnBind.call(URL.createObjectURL, URL);
  const BlobCtor = scope.Blob;
  // The frame starts a classic worker, where importScripts loads a script at once.
  const importScripts = typeof scope.importScripts === 'function' ? fnBind.call(scope.importScripts, scope) : null;
  serve(port, {
    url: (source, type) => createUrl(new BlobCtor([source], { type })),
    script(url) {
      if (!importScripts) throw new Error('CommonJS cannot load here: the sandbox worker is not a classic worker');
      importScripts(url);
    },
    onUncaught(handler) {
      addListener('error', (/** @type {ErrorEvent} */ ev) => (ev.preventDefault(), handler(ev.error ?? ev.message)));
      addListener(
        'unhandledrejection',
        (/** @type {PromiseRejectionEvent} */ ev) => (ev.preventDefault(), handler(ev.reason)),
      );
    },
    onBlocked(handler) {
      addListener('securitypolicyviolation', (/** @type {SecurityPolicyViolationEvent} */ ev) =>
        handler(ev.blockedURI, ev.effectiveDirective),
      );
    },
  });
}
