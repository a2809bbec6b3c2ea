// @ts-check
/**
 * node:assert and node:assert/strict for the offline JavaScript sandbox: the assertions tests
 * use most (ok, equal, strictEqual, deepStrictEqual, throws, rejects, match …) with Node's
 * AssertionError shape and message style (`+ actual - expected` diffs), so failures read as
 * they would under `node --test`. Sandbox guest code: plain JavaScript, loaded as source text.
 * `node:assert` is the legacy module (equal/deepEqual are loose); `node:assert/strict` maps
 * them to the strict forms, as Node does.
 */
import { inspect, isDeepEqual } from 'node:util';

export class AssertionError extends Error {
  /** @param {{message?: string, actual?: unknown, expected?: unknown, operator?: string}} options */
  constructor(options) {
    super(options.message ?? 'Failed');
    this.name = 'AssertionError';
    this.code = 'ERR_ASSERTION';
    this.actual = options.actual;
    this.expected = options.expected;
    this.operator = options.operator;
    this.generatedMessage = options.message === undefined;
  }
}

/**
 * Lines of `a` and `b` as Node's diff shows them: common lines indented, the rest marked.
 * @param {string[]} a
 * @param {string[]} b
 */
function lineDiff(a, b) {
  const n = a.length;
  const m = b.length;
  /** @type {number[][]} */
  const lcs = Array.from({ length: n + 1 }, () => new Array(m + 1).fill(0));
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const out = [];
  let i = 0;
  let j = 0;
  while (i < n || j < m) {
    if (i < n && j < m && a[i] === b[j]) (out.push(`  ${a[i++]}`), j++);
    else if (j >= m || (i < n && lcs[i + 1][j] >= lcs[i][j + 1])) out.push(`+ ${a[i++]}`);
    else out.push(`- ${b[j++]}`);
  }
  return out.join('\n');
}

/**
 * @param {string} title
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} op
 */
function comparison(title, actual, expected, op) {
  const a = inspect(actual);
  const e = inspect(expected);
  const simple =
    (typeof actual !== 'object' || actual === null) &&
    typeof actual !== 'string' &&
    !a.includes('\n') &&
    !e.includes('\n');
  if (simple) return `${title}:\n\n${a} ${op} ${e}\n`;
  return `${title}:\n+ actual - expected\n\n${lineDiff(a.split('\n'), e.split('\n'))}\n`;
}

/**
 * @param {unknown} message
 * @param {() => string} generated
 * @param {unknown} actual
 * @param {unknown} expected
 * @param {string} operator
 * @returns {never}
 */
function raise(message, generated, actual, expected, operator) {
  if (message instanceof Error) throw message;
  throw new AssertionError({
    message: message === undefined ? generated() : String(message),
    actual,
    expected,
    operator,
  });
}

/** @param {unknown} value @param {unknown} [message] */
export function ok(value, message) {
  if (!value) raise(message, () => `The expression evaluated to a falsy value: ${inspect(value)}\n`, value, true, '==');
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
export function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected))
    raise(
      message,
      () => comparison('Expected values to be strictly equal', actual, expected, '!=='),
      actual,
      expected,
      'strictEqual',
    );
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
export function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected))
    raise(
      message,
      () => `Expected "actual" to be strictly unequal to: ${inspect(expected)}`,
      actual,
      expected,
      'notStrictEqual',
    );
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
function looseEqual(actual, expected, message) {
  if (!(actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))))
    raise(message, () => `${inspect(actual)} == ${inspect(expected)}`, actual, expected, '==');
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
function looseNotEqual(actual, expected, message) {
  if (actual == expected) raise(message, () => `${inspect(actual)} != ${inspect(expected)}`, actual, expected, '!=');
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
export function deepStrictEqual(actual, expected, message) {
  if (!isDeepEqual(actual, expected, true))
    raise(
      message,
      () => comparison('Expected values to be strictly deep-equal', actual, expected, '!=='),
      actual,
      expected,
      'deepStrictEqual',
    );
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
export function notDeepStrictEqual(actual, expected, message) {
  if (isDeepEqual(actual, expected, true))
    raise(
      message,
      () => `Expected "actual" not to be strictly deep-equal to: ${inspect(expected)}`,
      actual,
      expected,
      'notDeepStrictEqual',
    );
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
function looseDeepEqual(actual, expected, message) {
  if (!isDeepEqual(actual, expected, false))
    raise(
      message,
      () => comparison('Expected values to be loosely deep-equal', actual, expected, '!='),
      actual,
      expected,
      'deepEqual',
    );
}

/** @param {unknown} actual @param {unknown} expected @param {unknown} [message] */
function looseNotDeepEqual(actual, expected, message) {
  if (isDeepEqual(actual, expected, false))
    raise(
      message,
      () => `Expected "actual" not to be loosely deep-equal to: ${inspect(expected)}`,
      actual,
      expected,
      'notDeepEqual',
    );
}

/**
 * Whether a thrown `err` satisfies `expected`: a class (instanceof), a RegExp (tested against
 * the error's string form), a validation function, or an object whose every key matches.
 * @param {unknown} err
 * @param {unknown} expected
 */
function matches(err, expected) {
  if (expected === undefined) return true;
  if (expected instanceof RegExp) return expected.test(String(err));
  if (typeof expected === 'function') {
    if (expected.prototype !== undefined && err instanceof expected) return true;
    if (Error.isPrototypeOf(expected) || expected === Error) return false;
    return /** @type {(e: unknown) => unknown} */ (expected)(err) === true;
  }
  if (typeof expected === 'object' && expected !== null) {
    const e = /** @type {Record<string, unknown>} */ (err);
    return Object.entries(expected).every(([k, v]) =>
      v instanceof RegExp && typeof e?.[k] === 'string'
        ? v.test(/** @type {string} */ (e[k]))
        : isDeepEqual(e?.[k], v, true),
    );
  }
  return false;
}

/** @param {unknown} expected */
function expectedName(expected) {
  return typeof expected === 'function' && expected.name ? ` (${expected.name})` : '';
}

/**
 * @param {unknown} err
 * @param {unknown} expected
 * @param {unknown} message
 * @param {string} op
 */
function checkThrown(err, expected, message, op) {
  if (typeof expected === 'string') message = expected;
  else if (!matches(err, expected)) {
    if (
      typeof expected === 'function' &&
      expected.prototype !== undefined &&
      !(err instanceof expected) &&
      (Error.isPrototypeOf(expected) || expected === Error)
    ) {
      raise(
        message,
        () =>
          `The error is expected to be an instance of "${expected.name}". Received "${err instanceof Error ? err.name : inspect(err)}"\n\nError message:\n\n${err instanceof Error ? err.message : ''}`,
        err,
        expected,
        op,
      );
    }
    raise(
      message,
      () =>
        `The error did not match the expected ${expected instanceof RegExp ? `pattern ${expected}` : 'validation'}. Received: ${inspect(err)}`,
      err,
      expected,
      op,
    );
  }
}

/** @param {() => unknown} fn @param {unknown} [expected] @param {unknown} [message] */
export function throws(fn, expected, message) {
  try {
    fn();
  } catch (err) {
    checkThrown(err, expected, message, 'throws');
    return;
  }
  raise(
    typeof expected === 'string' ? expected : message,
    () => `Missing expected exception${expectedName(expected)}.`,
    undefined,
    expected,
    'throws',
  );
}

/** @param {() => unknown} fn @param {unknown} [expected] @param {unknown} [message] */
export function doesNotThrow(fn, expected, message) {
  try {
    fn();
  } catch (err) {
    raise(
      typeof expected === 'string' ? expected : message,
      () => `Got unwanted exception.\nActual message: "${err instanceof Error ? err.message : String(err)}"`,
      err,
      expected,
      'doesNotThrow',
    );
  }
}

/** @param {Promise<unknown> | (() => Promise<unknown>)} promiseOrFn @param {unknown} [expected] @param {unknown} [message] */
export async function rejects(promiseOrFn, expected, message) {
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
  } catch (err) {
    checkThrown(err, expected, message, 'rejects');
    return;
  }
  raise(
    typeof expected === 'string' ? expected : message,
    () => `Missing expected rejection${expectedName(expected)}.`,
    undefined,
    expected,
    'rejects',
  );
}

/** @param {Promise<unknown> | (() => Promise<unknown>)} promiseOrFn @param {unknown} [expected] @param {unknown} [message] */
export async function doesNotReject(promiseOrFn, expected, message) {
  try {
    await (typeof promiseOrFn === 'function' ? promiseOrFn() : promiseOrFn);
  } catch (err) {
    raise(
      typeof expected === 'string' ? expected : message,
      () => `Got unwanted rejection.\nActual message: "${err instanceof Error ? err.message : String(err)}"`,
      err,
      expected,
      'doesNotReject',
    );
  }
}

/** @param {string} actual @param {RegExp} re @param {unknown} [message] */
export function match(actual, re, message) {
  if (typeof actual !== 'string' || !re.test(actual))
    raise(
      message,
      () => `The input did not match the regular expression ${re}. Input:\n\n${inspect(actual)}\n`,
      actual,
      re,
      'match',
    );
}

/** @param {string} actual @param {RegExp} re @param {unknown} [message] */
export function doesNotMatch(actual, re, message) {
  if (typeof actual !== 'string' || re.test(actual))
    raise(
      message,
      () => `The input was expected to not match the regular expression ${re}. Input:\n\n${inspect(actual)}\n`,
      actual,
      re,
      'doesNotMatch',
    );
}

/** @param {unknown} [message] @returns {never} */
export function fail(message) {
  raise(message, () => 'Failed', undefined, undefined, 'fail');
}

/** @param {unknown} value */
export function ifError(value) {
  if (value !== null && value !== undefined)
    raise(
      undefined,
      () => `ifError got unwanted exception: ${value instanceof Error ? value.message : inspect(value)}`,
      value,
      null,
      'ifError',
    );
}

/**
 * An assert function (`assert(value)` is `ok`) carrying every assertion as a property.
 * @param {boolean} strict
 */
function build(strict) {
  /** @param {unknown} value @param {unknown} [message] */
  const assert = (value, message) => ok(value, message);
  Object.assign(assert, {
    ok,
    fail,
    ifError,
    match,
    doesNotMatch,
    throws,
    doesNotThrow,
    rejects,
    doesNotReject,
    strictEqual,
    notStrictEqual,
    deepStrictEqual,
    notDeepStrictEqual,
    equal: strict ? strictEqual : looseEqual,
    notEqual: strict ? notStrictEqual : looseNotEqual,
    deepEqual: strict ? deepStrictEqual : looseDeepEqual,
    notDeepEqual: strict ? notDeepStrictEqual : looseNotDeepEqual,
    AssertionError,
  });
  return assert;
}

/** The strict assert (node:assert/strict, and node:assert's `strict` property). */
export const strict = build(true);
const legacy = build(false);
Object.assign(legacy, { strict });
Object.assign(strict, { strict });

export const equal = looseEqual;
export const notEqual = looseNotEqual;
export const deepEqual = looseDeepEqual;
export const notDeepEqual = looseNotDeepEqual;
export default legacy;
