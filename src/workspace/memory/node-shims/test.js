// @ts-check
/**
 * node:test for the offline JavaScript sandbox: test/it, describe/suite, subtests through the
 * context (`t.test`), skip/todo/only, hooks (before, after, beforeEach, afterEach), `done`
 * callbacks and per-test timeouts. Output is TAP version 13 as `node --test` prints it —
 * `# Subtest:` lines, nested indentation, YAML blocks with the error — and ends with the same
 * `# tests / # pass / # fail` tally, so one parser reads both. Sandbox guest code: plain
 * JavaScript, loaded as source text; the sandbox runtime drives it through hooks (configure,
 * drain after each file, report a file that failed to load, finish) handed to it while this
 * module loads, before the program exists — they are not exports, so the program cannot
 * redirect the output or print a tally of its own through them.
 */
import { inspect } from 'node:util';

/** @typedef {{ skip?: boolean | string, todo?: boolean | string, only?: boolean, timeout?: number, concurrency?: unknown }} TestOptions */
/** @typedef {(t: TestContext, done?: (err?: unknown) => void) => unknown} TestFn */
/** @typedef {() => unknown} HookFn */

const config = {
  /** @type {(text: string) => void} */
  write: (text) => void text,
  /** @type {(text: string) => string} */
  clean: (text) => text,
  /** @type {RegExp[]} */
  namePatterns: [],
};

const counters = { tests: 0, suites: 0, pass: 0, fail: 0, cancelled: 0, skipped: 0, todo: 0 };
// The tally is printed after the program ran: what it uses is captured now, before the program exists.
const now = Date.now;
const toFixed = Function.prototype.call.bind(Number.prototype.toFixed);
const started = now();

class TestNode {
  /**
   * @param {string} name
   * @param {TestFn | undefined} fn
   * @param {TestOptions} options
   * @param {TestNode | null} parent
   * @param {boolean} suite
   */
  constructor(name, fn, options, parent, suite) {
    this.name = name;
    this.fn = fn;
    this.options = options;
    this.parent = parent;
    this.suite = suite;
    /** @type {number} */
    this.depth = parent ? parent.depth + 1 : -1;
    /** @type {TestNode[]} */
    this.children = [];
    /** Children numbered as they finish, per parent, as TAP does. */
    this.finished = 0;
    this.failedChildren = 0;
    /** @type {Promise<unknown>} */
    this.chain = Promise.resolve();
    /** @type {Promise<unknown> | null} a suite body that returned a promise */
    this.body = null;
    /** @type {Record<'before' | 'after' | 'beforeEach' | 'afterEach', HookFn[]>} */
    this.hooks = { before: [], after: [], beforeEach: [], afterEach: [] };
  }

  /** Names from the outermost suite down to this one. */
  path() {
    /** @type {string[]} */
    const names = [];
    for (let n = /** @type {TestNode | null} */ (this); n && n.parent; n = n.parent) names.unshift(n.name);
    return names;
  }
}

const root = new TestNode('<root>', undefined, {}, null, true);
/** The suite whose body is being run (describe callbacks register into it). */
let collecting = /** @type {TestNode | null} */ (null);
/** The test whose function is running synchronously (a bare test() inside it is a subtest). */
let running = /** @type {TestNode | null} */ (null);

/** @param {TestNode} node @param {string} line */
function emit(node, line) {
  config.write(`${'    '.repeat(Math.max(0, node.depth))}${line}\n`);
}

/** @param {unknown} v */
function yamlScalar(v) {
  if (typeof v === 'string') return `'${v.replace(/'/g, "''")}'`;
  if (v === null || v === undefined) return '~';
  if (typeof v === 'number' || typeof v === 'boolean' || typeof v === 'bigint') return String(v);
  return `'${inspect(v).replace(/\n\s*/g, ' ').replace(/'/g, "''")}'`;
}

/**
 * @param {(line: string) => void} put
 * @param {string} key
 * @param {string} text
 */
function yamlBlock(put, key, text) {
  const lines = text.replace(/\n+$/, '').split('\n');
  if (lines.length === 1) return put(`  ${key}: ${yamlScalar(lines[0])}`);
  put(`  ${key}: |-`);
  for (const l of lines) put(`    ${l}`);
}

/**
 * @param {TestNode} node
 * @param {{ status: 'pass' | 'fail' | 'skip' | 'todo', error?: unknown, failureType?: string, reason?: string, duration: number }} r
 */
function report(node, r) {
  const parent = /** @type {TestNode} */ (node.parent);
  const n = ++parent.finished;
  // Counted before anything of the thrown value is read: a value whose fields throw when read
  // must not take its failure out of the tally.
  if (r.status === 'fail') parent.failedChildren++;
  if (node.suite) counters.suites++;
  else {
    counters.tests++;
    if (r.status === 'pass') counters.pass++;
    else if (r.status === 'fail') counters.fail++;
    else if (r.status === 'skip') counters.skipped++;
    else counters.todo++;
  }
  if (node.children.length) emit(node, `    1..${node.children.length}`);
  const directive =
    r.status === 'skip'
      ? ` # SKIP${r.reason ? ` ${r.reason}` : ''}`
      : r.status === 'todo'
        ? ` # TODO${r.reason ? ` ${r.reason}` : ''}`
        : '';
  emit(node, `${r.status === 'fail' ? 'not ok' : 'ok'} ${n} - ${node.name}${directive}`);
  emit(node, '  ---');
  emit(node, `  duration_ms: ${r.duration.toFixed(6)}`);
  if (node.suite) emit(node, "  type: 'suite'");
  if (r.status === 'fail') {
    emit(node, `  failureType: '${r.failureType ?? 'testCodeFailure'}'`);
    /** @type {string[]} */
    let lines;
    try {
      lines = failureDetails(r);
    } catch {
      lines = ["  error: 'the thrown value could not be read (reading it threw)'", "  code: 'ERR_TEST_FAILURE'"];
    }
    for (const l of lines) emit(node, l);
  }
  emit(node, '  ...');
}

/**
 * The error lines of a failed test, all built before any is written. Reading the thrown value
 * runs its getters, which may throw: the caller catches that, after the failure is counted.
 * @param {{ status: 'pass' | 'fail' | 'skip' | 'todo', error?: unknown, failureType?: string, reason?: string, duration: number }} r
 * @returns {string[]}
 */
function failureDetails(r) {
  /** @type {string[]} */
  const out = [];
  const put = (/** @type {string} */ line) => void out.push(line);
  const e =
    /** @type {{ message?: unknown, code?: unknown, name?: unknown, expected?: unknown, actual?: unknown, operator?: unknown, stack?: unknown }} */ (
      r.error instanceof Object ? r.error : { message: String(r.error) }
    );
  yamlBlock(put, 'error', config.clean(String(e.message ?? r.error)));
  put(`  code: '${typeof e.code === 'string' ? e.code : 'ERR_TEST_FAILURE'}'`);
  if (r.error instanceof Error && r.error.name !== 'Error') put(`  name: '${r.error.name}'`);
  if (e.operator !== undefined) {
    put(`  expected: ${yamlScalar(e.expected)}`);
    put(`  actual: ${yamlScalar(e.actual)}`);
    put(`  operator: ${yamlScalar(e.operator)}`);
  }
  // The program's own frames only: the shims' and the runtime's (node:…) say nothing about the test.
  const frames =
    typeof e.stack === 'string' && r.failureType === 'testCodeFailure' ? config.clean(e.stack).split('\n') : [];
  const stack = frames
    .filter((l) => /^\s+at /.test(l) && !/\(?node:[\w/]+:\d+:\d+\)?$/.test(l))
    .map((l) => l.trim().slice(3));
  if (stack.length) yamlBlock(put, 'stack', stack.join('\n'));
  return out;
}

/** @param {TestNode} node */
function filteredOut(node) {
  if (node.suite || config.namePatterns.length === 0) return false;
  const names = node.path();
  // Index loops, not Array.prototype.some: the program may have patched the prototypes.
  const patterns = config.namePatterns;
  for (let i = 0; i < patterns.length; i++)
    for (let j = 0; j < names.length; j++) if (patterns[i].test(names[j])) return false;
  return true;
}

/** @param {TestNode} node @param {'beforeEach' | 'afterEach'} kind */
async function runEachHooks(node, kind) {
  /** @type {TestNode[]} */
  const chain = [];
  for (let n = node.parent; n; n = n.parent) chain.unshift(n);
  if (kind === 'afterEach') chain.reverse();
  for (let i = 0; i < chain.length; i++) await runHooks(chain[i].hooks[kind]);
}

/**
 * Runs hooks in order. Children and hooks are walked with index loops throughout, not for-of:
 * the program may have patched Array.prototype[Symbol.iterator] to leave a failing one out.
 * @param {HookFn[]} list
 */
async function runHooks(list) {
  for (let i = 0; i < list.length; i++) await list[i]();
}

/**
 * Runs `fn` with `t`, honouring a `done` callback and the timeout option.
 * @param {TestNode} node
 * @param {TestContext} t
 */
function invoke(node, t) {
  const fn = /** @type {TestFn} */ (node.fn);
  const call = () =>
    fn.length >= 2
      ? new Promise((resolve, reject) => {
          const r = fn(t, (err) => (err ? reject(err) : resolve(undefined)));
          if (r && typeof (/** @type {Promise<unknown>} */ (r).then) === 'function')
            reject(new Error('a test function must take a done callback or return a promise, not both'));
        })
      : fn(t);
  running = node;
  let result;
  try {
    result = call();
  } finally {
    running = null;
  }
  const timeout = node.options.timeout;
  if (timeout === undefined || !Number.isFinite(timeout)) return Promise.resolve(result);
  return Promise.race([
    Promise.resolve(result),
    new Promise((_, reject) =>
      setTimeout(
        () =>
          reject(
            Object.assign(new Error(`test timed out after ${timeout}ms`), {
              code: 'ERR_TEST_FAILURE',
              failureType: 'testTimeoutFailure',
            }),
          ),
        timeout,
      ),
    ),
  ]);
}

/** @param {TestNode} node */
async function runNode(node) {
  const t0 = performance.now();
  const done = (/** @type {Parameters<typeof report>[1]} */ r) =>
    report(node, { ...r, duration: performance.now() - t0 });
  const skip = node.options.skip;
  const todo = node.options.todo;
  if (skip || filteredOut(node)) {
    emit(node, `# Subtest: ${node.name}`);
    return done({
      status: 'skip',
      reason: typeof skip === 'string' ? skip : skip ? '' : 'test name does not match pattern',
      duration: 0,
    });
  }
  emit(node, `# Subtest: ${node.name}`);
  if (node.suite) {
    try {
      if (node.body) await node.body;
      await runHooks(node.hooks.before);
      for (let i = 0; i < node.children.length; i++) await runNode(node.children[i]);
      await runHooks(node.hooks.after);
    } catch (error) {
      return done({ status: 'fail', error, failureType: 'hookFailed', duration: 0 });
    }
    if (node.failedChildren)
      return done({
        status: 'fail',
        error: subtestsFailed(node.failedChildren),
        failureType: 'subtestsFailed',
        duration: 0,
      });
    return done({ status: 'pass', duration: 0 });
  }
  if (!node.fn)
    return done({ status: todo ? 'todo' : 'pass', reason: typeof todo === 'string' ? todo : '', duration: 0 });
  const t = new TestContext(node);
  try {
    await runEachHooks(node, 'beforeEach');
    await invoke(node, t);
    await node.chain;
    await runHooks(node.hooks.after);
    await runEachHooks(node, 'afterEach');
  } catch (error) {
    await node.chain.catch(() => undefined);
    if (todo) return done({ status: 'todo', reason: typeof todo === 'string' ? todo : '', duration: 0 });
    return done({ status: 'fail', error, failureType: ownFailureType(error) ?? 'testCodeFailure', duration: 0 });
  }
  if (t.skipped !== null) return done({ status: 'skip', reason: t.skipped, duration: 0 });
  if (todo || t.todoReason !== null)
    return done({ status: 'todo', reason: typeof todo === 'string' ? todo : (t.todoReason ?? ''), duration: 0 });
  if (node.failedChildren)
    return done({
      status: 'fail',
      error: subtestsFailed(node.failedChildren),
      failureType: 'subtestsFailed',
      duration: 0,
    });
  return done({ status: 'pass', duration: 0 });
}

/**
 * The failure type this runner put on its own errors (a timeout), read so that a thrown value
 * whose properties throw when read (a Proxy, a getter) still counts as the failure it is.
 * @param {unknown} error
 * @returns {string | undefined}
 */
function ownFailureType(error) {
  try {
    const v = /** @type {{ failureType?: unknown }} */ (error)?.failureType;
    return typeof v === 'string' ? v : undefined;
  } catch {
    return undefined;
  }
}

/** @param {number} n */
function subtestsFailed(n) {
  return Object.assign(new Error(`${n} subtest${n === 1 ? '' : 's'} failed`), { code: 'ERR_TEST_FAILURE' });
}

/**
 * Queues `node` under its parent: a suite's children wait for the suite to run; a test's
 * subtests and top-level tests start now, one after another.
 * @param {TestNode} node
 * @returns {Promise<void>}
 */
function schedule(node) {
  const parent = /** @type {TestNode} */ (node.parent);
  parent.children.push(node);
  if (parent.suite && parent !== root) return Promise.resolve();
  const p = parent.chain.then(() => runNode(node));
  parent.chain = p.catch(() => undefined);
  return p.then(() => undefined);
}

/**
 * test(name?, options?, fn?) in any of TestNode's argument orders.
 * @param {unknown[]} args
 * @returns {[string, TestOptions, TestFn | undefined]}
 */
function normalize(args) {
  let [name, options, fn] = args;
  if (typeof name === 'function') [name, options, fn] = [name.name || '<anonymous>', {}, name];
  else if (typeof options === 'function') [options, fn] = [{}, options];
  return [
    typeof name === 'string' ? name : '<anonymous>',
    /** @type {TestOptions} */ (options ?? {}),
    /** @type {TestFn | undefined} */ (fn),
  ];
}

/** The parent a new test or suite attaches to. */
function currentParent() {
  return collecting ?? running ?? root;
}

class TestContext {
  /** @param {TestNode} node */
  constructor(node) {
    this.node = node;
    this.name = node.name;
    this.signal = new AbortController().signal;
    /** @type {string | null} */
    this.skipped = null;
    /** @type {string | null} */
    this.todoReason = null;
  }

  get fullName() {
    return this.node.path().join(' > ');
  }

  /** @param {...unknown} args */
  test(...args) {
    const [name, options, fn] = normalize(args);
    return schedule(new TestNode(name, fn, options, this.node, false));
  }

  /** @param {string} [message] */
  skip(message) {
    this.skipped = message ?? '';
  }

  /** @param {string} [message] */
  todo(message) {
    this.todoReason = message ?? '';
  }

  /** @param {string} message */
  diagnostic(message) {
    emit(this.node, `  # ${message}`);
  }

  // Hooks for this test's subtests: `before` runs now and the subtests queue behind it; `after`
  // runs once they are done; the *Each hooks wrap every subtest below this one.
  /** @param {HookFn} fn */
  before(fn) {
    this.node.chain = this.node.chain.then(() => fn());
  }

  /** @param {HookFn} fn */
  after(fn) {
    this.node.hooks.after.push(fn);
  }

  /** @param {HookFn} fn */
  beforeEach(fn) {
    this.node.hooks.beforeEach.push(fn);
  }

  /** @param {HookFn} fn */
  afterEach(fn) {
    this.node.hooks.afterEach.push(fn);
  }
}

/**
 * @param {TestOptions} extra
 * @returns {(...args: unknown[]) => Promise<void>}
 */
function testWith(extra) {
  return (...args) => {
    const [name, options, fn] = normalize(args);
    return schedule(new TestNode(name, fn, { ...options, ...extra }, currentParent(), false));
  };
}

/**
 * @param {TestOptions} extra
 * @returns {(...args: unknown[]) => Promise<void>}
 */
function suiteWith(extra) {
  return (...args) => {
    const [name, options, fn] = normalize(args);
    const node = new TestNode(name, undefined, { ...options, ...extra }, currentParent(), true);
    const outer = collecting;
    collecting = node;
    try {
      const r = fn?.(/** @type {TestContext} */ (/** @type {unknown} */ ({ name })));
      if (r && typeof (/** @type {Promise<unknown>} */ (r).then) === 'function')
        node.body = /** @type {Promise<unknown>} */ (r);
    } catch (error) {
      node.body = Promise.reject(error);
    } finally {
      collecting = outer;
    }
    return schedule(node);
  };
}

/**
 * `fn` with `.skip`, `.todo` and `.only` variants made by `make`.
 * @template {object} F
 * @param {F} fn
 * @param {(o: TestOptions) => F} make
 */
function withModifiers(fn, make) {
  return Object.assign(fn, { skip: make({ skip: true }), todo: make({ todo: true }), only: make({ only: true }) });
}

export const test = withModifiers(testWith({}), testWith);
export const it = test;
export const describe = withModifiers(suiteWith({}), suiteWith);
export const suite = describe;

/** @param {'before' | 'after' | 'beforeEach' | 'afterEach'} kind */
function hook(kind) {
  return (/** @type {HookFn} */ fn) => void currentParent().hooks[kind].push(fn);
}
export const before = hook('before');
export const after = hook('after');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');

/** `mock` is not part of the sandbox: say so where it is used. */
export const mock = new Proxy(
  {},
  {
    get() {
      throw new Error('node:test mock is not available in the offline sandbox; run the tests under TestNode for mocks');
    },
  },
);

export default test;

/**
 * The runtime's hooks. configure: where output goes and which names run; drain: wait until
 * every test queued so far has finished; fileFailed: a test file that did not load counts as
 * one failed test, as under `node --test`; finish: the plan and the tally.
 */
const hooks = {
  /** @param {{ write: (text: string) => void, clean: (text: string) => string, namePatterns: string[] }} c */
  configure(c) {
    config.write = c.write;
    config.clean = c.clean;
    config.namePatterns = c.namePatterns.map((p) => {
      const m = /^\/(.*)\/([a-z]*)$/.exec(p);
      return m ? new RegExp(m[1], m[2]) : new RegExp(p);
    });
    config.write('TAP version 13\n');
  },

  async drain() {
    for (;;) {
      const chain = root.chain;
      await chain;
      // A test may queue more top-level tests while it runs; wait until the queue is stable.
      if (chain === root.chain) return;
    }
  },

  /** @param {string} file @param {string} error what loading it threw, as the runtime prints it */
  fileFailed(file, error) {
    for (const line of error.split('\n')) config.write(`# ${line}\n`);
    const node = new TestNode(file, undefined, {}, root, false);
    root.children.push(node);
    emit(node, `# Subtest: ${file}`);
    report(node, {
      status: 'fail',
      error: Object.assign(new Error('test failed'), { code: 'ERR_TEST_FAILURE' }),
      duration: 0,
    });
  },

  /** @returns {{ failed: number }} */
  finish() {
    const c = counters;
    config.write(
      `1..${root.finished}\n# tests ${c.tests}\n# suites ${c.suites}\n# pass ${c.pass}\n# fail ${c.fail}\n# cancelled ${c.cancelled}\n# skipped ${c.skipped}\n# todo ${c.todo}\n` +
        `# duration_ms ${toFixed(now() - started, 3)}\n`,
    );
    return { failed: c.fail };
  },
};
const claim = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[
  Symbol.for('slm.sandbox.test-hooks')
];
if (typeof claim === 'function') claim(hooks, 'test');
