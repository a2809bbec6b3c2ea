// @ts-check
/**
 * The Jest- and Vitest-style test runner of the offline JavaScript sandbox: `describe`/`it`/
 * `test` with `.skip`, `.only`, `.todo` and `.each`, `xtest`/`xit`/`xdescribe`, `fit`/
 * `fdescribe`, the four hooks (and mocha's `before`/`after`), `done` callbacks, a per-test
 * timeout (5 s, as Jest's; `jest.setTimeout` changes it), and `expect` from Jest's own `expect`
 * package with `jest.fn`/`vi.fn` from jest-mock. The runtime installs them as globals before
 * each spec file loads; they are also what `@jest/globals` and `vitest` export.
 *
 * Each file's tests are collected while it loads and run afterwards, as Jest runs them (so a
 * `.only` anywhere in the file limits the whole file). Output is Jest's default reporter in
 * plain text: a PASS/FAIL line per file with its tests (✓ ✕ ○ ✎), each failure under `●`, and
 * Jest's summary (`Tests: 1 failed, 1 skipped, 5 passed, 7 total`), which the tally parser
 * reads. Sandbox guest code, driven by the runtime through the same hooks as node:test's shim
 * (configure, drain, fileFailed, finish), handed over while this module loads.
 */
import { inspect } from 'node:util';
import * as jestParts from 'node:internal/expect';

const { expect } = jestParts;

/**
 * Jest 30 dropped these aliases; specs written for Jest 29 (and most tutorials) still use them.
 * They are put back as the matchers they stood for, in `expect`'s own matcher table.
 */
const JEST_29_ALIASES = {
  toBeCalled: 'toHaveBeenCalled',
  toBeCalledTimes: 'toHaveBeenCalledTimes',
  toBeCalledWith: 'toHaveBeenCalledWith',
  lastCalledWith: 'toHaveBeenLastCalledWith',
  nthCalledWith: 'toHaveBeenNthCalledWith',
  toReturn: 'toHaveReturned',
  toReturnTimes: 'toHaveReturnedTimes',
  toReturnWith: 'toHaveReturnedWith',
  lastReturnedWith: 'toHaveLastReturnedWith',
  nthReturnedWith: 'toHaveNthReturnedWith',
};
const matchers = /** @type {{ matchers?: Record<string, Function> }} */ (
  /** @type {any} */ (globalThis)[Symbol.for('$$jest-matchers-object')]
)?.matchers;
if (matchers) {
  for (const [alias, name] of Object.entries(JEST_29_ALIASES)) matchers[alias] ??= matchers[name];
  const toThrow = matchers.toThrow;
  // `rejects.toThrow` has a promise variant chosen by its name; the alias hands the rejection over as a throw.
  matchers.toThrowError ??= function (/** @type {unknown} */ received, /** @type {unknown} */ expected) {
    const self = /** @type {{ promise?: string }} */ (this);
    const value =
      self.promise === 'rejects'
        ? () => {
            throw received;
          }
        : received;
    return toThrow?.call(this, value, expected);
  };
}

/** @typedef {(done?: (err?: unknown) => void) => unknown} Fn */
/** @typedef {{ name: string, fn: Fn | undefined, mode: Mode, timeout: number | undefined, parent: Block }} Test */
/** @typedef {'run' | 'skip' | 'only' | 'todo'} Mode */
/**
 * @typedef {{ name: string, mode: Mode, parent: Block | null, children: (Block | Test)[],
 *   hooks: Record<'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach', { fn: Fn, timeout: number | undefined }[]> }} Block
 */

// What the runner uses after the program ran, captured before the program exists.
const realSetTimeout = globalThis.setTimeout;
const realClearTimeout = globalThis.clearTimeout;
const now = Date.now;
const started = now();

const config = {
  /** @type {(text: string) => void} */
  write: (text) => void text,
  /** @type {(text: string) => string} */
  clean: (text) => text,
  /** @type {RegExp[]} */
  namePatterns: [],
  cwd: '/',
  timeout: 5000,
};

const totals = { suitesPassed: 0, suitesFailed: 0, passed: 0, failed: 0, skipped: 0, todo: 0 };

/*
 * The spec shares this realm's prototypes and may patch them (Array.prototype.push, filter,
 * join, [Symbol.iterator], ...). What decides a test's outcome, the counts and the summary is
 * therefore kept with these, captured before any spec loads: plain index loops, own properties
 * defined with the captured defineProperty, strings joined by concatenation.
 */
const { defineProperty } = Object;

/** Appends `value` to `list` without Array.prototype (no push, no setter on an index). @template T @param {T[]} list @param {T} value */
function keep(list, value) {
  defineProperty(list, list.length, { value, writable: true, enumerable: true, configurable: true });
}

/** A copy of `list`, made without Array.prototype. @template T @param {readonly T[]} list @returns {T[]} */
function copyOf(list) {
  /** @type {T[]} */
  const out = [];
  for (let i = 0; i < list.length; i++) keep(out, list[i]);
  return out;
}

/** Whether `pred` holds for an item of `list`, without Array.prototype. @template T @param {readonly T[]} list @param {(item: T) => boolean} pred */
function anyOf(list, pred) {
  for (let i = 0; i < list.length; i++) if (pred(list[i])) return true;
  return false;
}

/** @returns {Block} */
function newBlock(/** @type {string} */ name, /** @type {Mode} */ mode, /** @type {Block | null} */ parent) {
  return { name, mode, parent, children: [], hooks: { beforeAll: [], afterAll: [], beforeEach: [], afterEach: [] } };
}

/** The file being loaded: its top block, and the block whose body runs now. */
let fileRoot = newBlock('', 'run', null);
let collecting = fileRoot;
/** Set while tests run: a describe or test declared then is an error, as in Jest. */
let runningTest = /** @type {string | null} */ (null);
/**
 * The code of the program's process.exit, once called: the process would end there, so no test,
 * hook or file after it runs (the runtime or the host's driver still has the summary printed).
 */
let exitCode = /** @type {number | null} */ (null);
/** Whether the exit was called while a test (or its hooks) ran: that test is the one failed for it. */
let exitInTest = false;

function isBlock(/** @type {Block | Test} */ n) {
  return 'children' in n;
}

/** @param {Block | Test} n */
function fullName(n) {
  /** @type {string[]} */
  const names = [];
  for (let b = /** @type {Block | Test | null} */ (n); b && b.parent; b = b.parent) names.unshift(b.name);
  return names;
}

function declaredWhileRunning(/** @type {string} */ what) {
  throw new Error(
    `Tests cannot be nested. ${what} cannot be declared inside test "${runningTest}": declare it at the top level or inside a describe block.`,
  );
}

/**
 * @param {Mode} mode
 * @returns {(name: unknown, fn?: Fn, timeout?: number) => void}
 */
function testWith(mode) {
  return (name, fn, timeout) => {
    if (runningTest !== null) declaredWhileRunning(`test "${String(name)}"`);
    if (mode !== 'todo' && mode !== 'skip' && typeof fn !== 'function')
      throw new Error(`Missing second argument of test "${String(name)}": it must be a function.`);
    collecting.children.push({ name: titleOf(name), fn, mode, timeout, parent: collecting });
  };
}

/**
 * @param {Mode} mode
 * @returns {(name: unknown, fn?: () => unknown) => void}
 */
function describeWith(mode) {
  return (name, fn) => {
    if (runningTest !== null) declaredWhileRunning(`describe "${String(name)}"`);
    if (typeof fn !== 'function')
      throw new Error(`Invalid second argument of describe "${String(name)}": it must be a function.`);
    const block = newBlock(titleOf(name), mode, collecting);
    collecting.children.push(block);
    const outer = collecting;
    collecting = block;
    try {
      const r = fn();
      if (r && typeof (/** @type {Promise<unknown>} */ (r).then) === 'function')
        throw new Error(
          `describe "${block.name}" returned a Promise: a describe callback must be synchronous; put async work in a test or a hook.`,
        );
    } finally {
      collecting = outer;
    }
  };
}

/** A describe or test title: a function's or class's name, else the text. */
function titleOf(/** @type {unknown} */ name) {
  return typeof name === 'function' ? name.name : String(name);
}

/** @param {'beforeAll' | 'afterAll' | 'beforeEach' | 'afterEach'} kind */
function hook(kind) {
  return (/** @type {Fn} */ fn, /** @type {number | undefined} */ timeout) => {
    if (runningTest !== null) declaredWhileRunning(`a ${kind} hook`);
    collecting.hooks[kind].push({ fn, timeout });
  };
}

/**
 * A title with `.each`'s placeholders filled from one row: printf-style (`%s %d %i %f %j %o %p
 * %#`), or `$name` / `$name.path` for a row that is an object.
 * @param {string} title @param {unknown[]} args @param {number} index @param {boolean} named
 */
function eachTitle(title, args, index, named) {
  if (named) {
    const row = /** @type {Record<string, unknown>} */ (args[0]);
    return title.replace(/\$#/g, String(index)).replace(/\$([A-Za-z_][\w]*(?:\.[A-Za-z_][\w]*)*)/g, (whole, path) => {
      let v = /** @type {unknown} */ (row);
      for (const key of String(path).split('.')) v = v == null ? undefined : /** @type {any} */ (v)[key];
      return v === undefined && !(String(path).split('.')[0] in row) ? whole : inspect(v);
    });
  }
  let i = 0;
  return title.replace(/%[sdifjop#%]/g, (spec) => {
    if (spec === '%%') return '%';
    if (spec === '%#') return String(index);
    if (i >= args.length) return spec;
    const v = args[i++];
    switch (spec) {
      case '%s':
        return typeof v === 'string' ? v : inspect(v);
      case '%d':
      case '%i':
        return String(spec === '%i' ? Math.trunc(Number(v)) : Number(v));
      case '%f':
        return String(Number(v));
      case '%j':
        return JSON.stringify(v);
      default:
        return inspect(v);
    }
  });
}

/**
 * The rows of `.each`: an array (rows of arrays are spread, others passed alone), or a tagged
 * template whose first line names the columns and whose values come in rows.
 * @param {unknown} table @param {unknown[]} values
 * @returns {{ rows: unknown[][], named: boolean }}
 */
function eachRows(table, values) {
  if (Array.isArray(table) && Array.isArray(/** @type {{ raw?: unknown }} */ (table).raw)) {
    const heads = String(table[0])
      .split('|')
      .map((h) => h.trim())
      .filter(Boolean);
    if (heads.length === 0 || values.length % heads.length !== 0)
      throw new Error(
        `.each's table has ${values.length} values for ${heads.length} columns (${heads.join(', ')}): every row needs one value per column.`,
      );
    /** @type {unknown[][]} */
    const rows = [];
    for (let r = 0; r < values.length; r += heads.length)
      rows.push([Object.fromEntries(heads.map((h, c) => [h, values[r + c]]))]);
    return { rows, named: true };
  }
  if (!Array.isArray(table))
    throw new Error(`.each must be called with an array or a tagged template, not ${inspect(table)}.`);
  const arrays = table.every((row) => Array.isArray(row));
  return {
    rows: table.map((row) => (arrays ? /** @type {unknown[]} */ (row) : [row])),
    named: !arrays && table.every((row) => row !== null && typeof row === 'object'),
  };
}

/**
 * `.each` for a test or describe function: one call per row, the title filled from the row.
 * @param {(name: string, fn: Fn, timeout?: number) => void} declare
 */
function each(declare) {
  return (/** @type {unknown} */ table, /** @type {unknown[]} */ ...values) => {
    const { rows, named } = eachRows(table, values);
    return (
      /** @type {unknown} */ title,
      /** @type {(...args: unknown[]) => unknown} */ fn,
      /** @type {number} */ timeout,
    ) =>
      rows.forEach((args, index) =>
        declare(eachTitle(titleOf(title), args, index, named), /** @type {Fn} */ (() => fn(...args)), timeout),
      );
  };
}

/** @param {Mode} mode */
function makeTest(mode) {
  const t = testWith(mode);
  return Object.assign(t, { each: each(t) });
}

/** `test`/`it`: with .skip, .only, .todo, .each, .concurrent (run in order here) and .failing left out. */
export const test = Object.assign(makeTest('run'), {
  skip: makeTest('skip'),
  only: makeTest('only'),
  todo: (/** @type {unknown} */ name) => testWith('todo')(name),
  concurrent: makeTest('run'),
});
export const it = test;
export const xtest = test.skip;
export const xit = test.skip;
export const fit = test.only;

function makeDescribe(/** @type {Mode} */ mode) {
  const d = describeWith(mode);
  return Object.assign(d, { each: each(d) });
}
export const describe = Object.assign(makeDescribe('run'), {
  skip: makeDescribe('skip'),
  only: makeDescribe('only'),
});
export const xdescribe = describe.skip;
export const fdescribe = describe.only;
export const beforeAll = hook('beforeAll');
export const afterAll = hook('afterAll');
export const beforeEach = hook('beforeEach');
export const afterEach = hook('afterEach');

/** What `jest` and `vi` offer here: mock functions and the test timeout (no fake timers, no module mocks). */
const helpers = {
  fn: jestParts.fn,
  spyOn: jestParts.spyOn,
  isMockFunction: jestParts.isMockFunction,
  clearAllMocks: jestParts.clearAllMocks,
  resetAllMocks: jestParts.resetAllMocks,
  restoreAllMocks: jestParts.restoreAllMocks,
  setTimeout: (/** @type {number} */ ms) => void (config.timeout = ms),
};
const unavailable = (/** @type {string} */ name) =>
  new Proxy(helpers, {
    get(target, key) {
      if (typeof key === 'string' && key in target) return /** @type {any} */ (target)[key];
      if (typeof key === 'symbol' || key === 'then') return undefined;
      throw new Error(
        `${name}.${key} is not available in the offline sandbox's test runner (it has ${name}.fn, ${name}.spyOn, the mock resets and ${name}.setTimeout); run the project's own Jest or Vitest on a Node host for the rest.`,
      );
    },
  });
export const jest = unavailable('jest');
export const vi = unavailable('vi');
export { expect };

/** Every global a spec file sees (mocha's before/after and context are the same hooks and blocks). */
const GLOBALS = {
  describe,
  xdescribe,
  fdescribe,
  context: describe,
  test,
  it,
  xtest,
  xit,
  fit,
  expect,
  beforeAll,
  afterAll,
  beforeEach,
  afterEach,
  before: beforeAll,
  after: afterAll,
  jest,
  vi,
};

/**
 * Runs `fn` (a test or hook) with a done callback when it takes one, and the timeout.
 * @param {Fn} fn @param {number | undefined} timeout @param {string} what
 */
function invoke(fn, timeout, what) {
  const ms = timeout ?? config.timeout;
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const run = new Promise((resolve, reject) => {
    if (fn.length >= 1) {
      const r = fn((err) =>
        err ? reject(err instanceof Error ? err : new Error(`done(${inspect(err)})`)) : resolve(undefined),
      );
      if (r && typeof (/** @type {Promise<unknown>} */ (r).then) === 'function')
        reject(new Error(`${what} takes a done callback and returns a promise: use one or the other.`));
    } else resolve(fn());
  });
  const limit = new Promise((_, reject) => {
    timer = realSetTimeout(
      () =>
        reject(
          new Error(
            `Exceeded timeout of ${ms} ms for ${what}.\nAdd a timeout value to this test to increase the timeout, if this is a long-running test. See https://jestjs.io/docs/api#testname-fn-timeout.`,
          ),
        ),
      ms,
    );
  });
  return Promise.race([run, limit]).finally(() => realClearTimeout(timer));
}

/** The blocks from the file's top down to `block`. */
function chainOf(/** @type {Block} */ block) {
  /** @type {Block[]} */
  const out = [];
  for (let b = /** @type {Block | null} */ (block); b; b = b.parent) out.unshift(b);
  return out;
}

/** True when a name pattern (`-t`) leaves this test out. */
function filteredOut(/** @type {Test} */ t) {
  if (config.namePatterns.length === 0) return false;
  const name = fullName(t).join(' ');
  return !config.namePatterns.some((re) => re.test(name));
}

/** @typedef {{ status: 'passed' | 'failed' | 'skipped' | 'todo', test: Test, errors: unknown[], ms: number }} Outcome */

/** Whether `node` runs at all: not skipped, and (when the file has an `.only`) under one. */
function enabled(/** @type {Block | Test} */ node, /** @type {boolean} */ hasOnly, /** @type {boolean} */ underOnly) {
  if (node.mode === 'skip' || node.mode === 'todo') return false;
  const only = underOnly || node.mode === 'only';
  if (!isBlock(node)) return (!hasOnly || only) && !filteredOut(/** @type {Test} */ (node));
  return anyOf(/** @type {Block} */ (node).children, (c) => enabled(c, hasOnly, only));
}

function containsOnly(/** @type {Block | Test} */ node) {
  return node.mode === 'only' || (isBlock(node) && anyOf(/** @type {Block} */ (node).children, containsOnly));
}

/**
 * Runs a block's tests in order: beforeAll, each child, afterAll; a failing beforeAll fails every
 * test under it. Outcomes are pushed in the order the tests are declared.
 * @param {Block} block @param {boolean} hasOnly @param {boolean} underOnly @param {Outcome[]} out @param {unknown[]} inherited
 */
async function runBlock(block, hasOnly, underOnly, out, inherited) {
  const only = underOnly || block.mode === 'only';
  const live = block.mode !== 'skip' && anyOf(block.children, (c) => enabled(c, hasOnly, only));
  const errors = copyOf(inherited);
  if (live && errors.length === 0)
    for (const h of block.hooks.beforeAll) {
      try {
        await invoke(h.fn, h.timeout, 'a beforeAll hook');
      } catch (e) {
        keep(errors, e);
        break;
      }
    }
  for (let i = 0; i < block.children.length; i++) {
    const child = block.children[i];
    if (exitCode !== null) return;
    if (isBlock(child))
      await runBlock(/** @type {Block} */ (child), hasOnly, only, out, block.mode === 'skip' ? [] : errors);
    else
      keep(
        out,
        await runTest(/** @type {Test} */ (child), block.mode !== 'skip' && enabled(child, hasOnly, only), errors),
      );
  }
  if (live && exitCode === null)
    for (const h of block.hooks.afterAll) {
      try {
        await invoke(h.fn, h.timeout, 'an afterAll hook');
      } catch (e) {
        // Jest reports a failing afterAll against the file; here it fails the block's last test.
        const last = out[out.length - 1];
        if (last && last.status !== 'skipped' && last.status !== 'todo') {
          last.status = 'failed';
          keep(last.errors, e);
        }
      }
    }
}

/**
 * @param {Test} t @param {boolean} live @param {unknown[]} hookErrors errors of the beforeAll hooks above it
 * @returns {Promise<Outcome>}
 */
async function runTest(t, live, hookErrors) {
  if (t.mode === 'todo') return { status: 'todo', test: t, errors: [], ms: 0 };
  if (!live) return { status: 'skipped', test: t, errors: [], ms: 0 };
  if (hookErrors.length) return { status: 'failed', test: t, errors: copyOf(hookErrors), ms: 0 };
  const t0 = now();
  /** @type {unknown[]} */
  const errors = [];
  const chain = chainOf(t.parent);
  const state = /** @type {any} */ (expect);
  state.setState({
    assertionCalls: 0,
    currentTestName: fullName(t).join(' '),
    expectedAssertionsNumber: null,
    isExpectingAssertions: false,
    suppressedErrors: [],
  });
  runningTest = t.name;
  try {
    for (const b of chain) for (const h of b.hooks.beforeEach) await invoke(h.fn, h.timeout, 'a beforeEach hook');
    await invoke(/** @type {Fn} */ (t.fn), t.timeout, 'a test');
  } catch (e) {
    keep(errors, e);
  }
  if (exitCode !== null) {
    runningTest = null;
    const error = new Error(
      `process.exit(${exitCode}) was called while this test ran: the run stopped here, and no test after it ran. End a test by returning (or throwing); set process.exitCode rather than exiting.`,
    );
    error.stack = error.message;
    return { status: 'failed', test: t, errors: [error], ms: now() - t0 };
  }
  for (const b of [...chain].reverse())
    for (const h of b.hooks.afterEach) {
      try {
        await invoke(h.fn, h.timeout, 'an afterEach hook');
      } catch (e) {
        keep(errors, e);
      }
    }
  runningTest = null;
  if (errors.length === 0) {
    const missed = /** @type {{ error: unknown }[]} */ (state.extractExpectedAssertionsErrors());
    for (let i = 0; i < missed.length; i++) keep(errors, missed[i].error);
  }
  return { status: errors.length ? 'failed' : 'passed', test: t, errors, ms: now() - t0 };
}

/** An error as Jest prints it under a failed test: the message, then the program's own frames. */
function describeError(/** @type {unknown} */ e) {
  try {
    if (!(e instanceof Error)) return `thrown: ${inspect(e)}`;
    const head =
      e.name === 'Error' || /^expect\(|^Exceeded timeout/.test(e.message) ? e.message : `${e.name}: ${e.message}`;
    const frames = config
      .clean(e.stack ?? '')
      .split('\n')
      // The program's own frames: not the runner's, the bundle's (node:…) or the engine's (<anonymous>).
      .filter((l) => /^\s+at /.test(l) && !/node:[\w/]+:\d+:\d+\)?$|\(<anonymous>\)$/.test(l))
      .map((l) => `  ${l.trim()}`);
    return config.clean([head, ...(frames.length ? ['', ...frames] : [])].join('\n'));
  } catch {
    return 'the thrown value could not be read (reading it threw)';
  }
}

const indent = (/** @type {string} */ text, /** @type {string} */ by) =>
  text
    .split('\n')
    .map((l) => (l ? by + l : l))
    .join('\n');

/** The file's name as Jest shows it: relative to the working directory. */
function shown(/** @type {string} */ file) {
  return file.startsWith(`${config.cwd}/`) ? file.slice(config.cwd.length + 1) : file;
}

/** @param {string} file @param {Outcome[]} outcomes */
function reportFile(file, outcomes) {
  // Counted first, with plain loops: the lines below are for reading, the counts are the tally.
  const counts = { passed: 0, failed: 0, skipped: 0, todo: 0 };
  /** @type {Outcome[]} */
  const failed = [];
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i];
    counts[o.status]++;
    if (o.status === 'failed') keep(failed, o);
  }
  let text = `${counts.failed ? 'FAIL' : 'PASS'} ${shown(file)}`;
  /** @type {string[]} */
  let open = [];
  for (let i = 0; i < outcomes.length; i++) {
    const o = outcomes[i];
    const names = fullName(o.test);
    const blocks = names.slice(0, -1);
    let same = 0;
    while (same < open.length && same < blocks.length && open[same] === blocks[same]) same++;
    for (let d = same; d < blocks.length; d++) text += `\n${'  '.repeat(d + 1)}${blocks[d]}`;
    open = blocks;
    const mark = { passed: '✓', failed: '✕', skipped: '○ skipped', todo: '✎ todo' }[o.status];
    const time = o.status === 'passed' || o.status === 'failed' ? ` (${o.ms} ms)` : '';
    text += `\n${'  '.repeat(blocks.length + 1)}${mark} ${names[names.length - 1]}${time}`;
  }
  for (let i = 0; i < failed.length; i++) {
    const o = failed[i];
    text += `\n\n  ● ${fullName(o.test).join(' › ')}\n`;
    for (let j = 0; j < o.errors.length; j++) text += `\n${indent(describeError(o.errors[j]), '    ')}\n`;
  }
  config.write(`${text}\n`);
  totals.passed += counts.passed;
  totals.failed += counts.failed;
  totals.skipped += counts.skipped;
  totals.todo += counts.todo;
  if (counts.failed) totals.suitesFailed++;
  else totals.suitesPassed++;
}

/** The runtime's hooks: where output goes, run one file's collected tests, a file that did not load, the summary. */
const hooks = {
  /** @param {{ write: (text: string) => void, clean: (text: string) => string, namePatterns: string[], cwd?: string }} c */
  configure(c) {
    config.write = c.write;
    config.clean = c.clean;
    config.cwd = c.cwd ?? '/';
    config.namePatterns = c.namePatterns.map((p) => new RegExp(p));
  },

  /** Installs the globals for the next file and starts collecting its tests. */
  prepare() {
    fileRoot = newBlock('', 'run', null);
    collecting = fileRoot;
    const g = /** @type {Record<string, unknown>} */ (globalThis);
    for (const [name, value] of Object.entries(GLOBALS))
      Object.defineProperty(g, name, { value, configurable: true, writable: true });
  },

  /** Runs the tests the file declared, then prints its block. @param {string} file */
  async drain(file) {
    /** @type {Outcome[]} */
    const outcomes = [];
    await runBlock(fileRoot, containsOnly(fileRoot), false, outcomes, []);
    if (outcomes.length === 0) {
      // Stopped by process.exit before any test: the caller fails the file for the exit.
      if (exitCode === null) hooks.fileFailed(file, 'Your test suite must contain at least one test.');
      return;
    }
    reportFile(file, outcomes);
  },

  /**
   * The program called process.exit (the first call only): the run stops, and a test running now
   * is failed for it. Returns whether a test took it; if not, the caller fails the file.
   * @param {number} code
   */
  exitCalled(code) {
    if (exitCode === null) {
      exitCode = code;
      exitInTest = runningTest !== null;
    }
    return exitInTest;
  },

  /** @param {string} file @param {string} error */
  fileFailed(file, error) {
    config.write(`FAIL ${shown(file)}\n  ● Test suite failed to run\n\n${indent(error, '    ')}\n\n`);
    totals.suitesFailed++;
  },

  /** @returns {{ failed: number, tests: { passed: number, failed: number } }} failed: tests and files; tests: the tests' own counts */
  finish() {
    const t = totals;
    const suites = [t.suitesFailed && `${t.suitesFailed} failed`, t.suitesPassed && `${t.suitesPassed} passed`];
    const tests = [
      t.failed && `${t.failed} failed`,
      t.skipped && `${t.skipped} skipped`,
      t.todo && `${t.todo} todo`,
      t.passed && `${t.passed} passed`,
    ];
    const list = (/** @type {(string | 0)[]} */ parts, /** @type {number} */ total) => {
      let text = '';
      for (let i = 0; i < parts.length; i++) if (parts[i]) text += `${parts[i]}, `;
      return `${text}${total} total`;
    };
    config.write(
      `\nTest Suites: ${list(suites, t.suitesFailed + t.suitesPassed)}\n` +
        `Tests:       ${list(tests, t.failed + t.skipped + t.todo + t.passed)}\n` +
        `Snapshots:   0 total\nTime:        ${((now() - started) / 1000).toFixed(3)} s\nRan all test suites.\n`,
    );
    return { failed: t.failed + t.suitesFailed, tests: { passed: t.passed, failed: t.failed } };
  },
};
const claim = /** @type {Record<symbol, unknown>} */ (/** @type {unknown} */ (globalThis))[
  Symbol.for('slm.sandbox.test-hooks')
];
if (typeof claim === 'function') claim(hooks, 'jest');
