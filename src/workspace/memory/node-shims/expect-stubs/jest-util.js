/**
 * The three parts of jest-util that `expect` uses, for the sandbox's bundle of it: the real
 * package also reads the filesystem, the CI environment and glob libraries at load, which a
 * worker without Node has no use for. Behaviour copied from jest-util 30 (MIT).
 */

/** @param {unknown} candidate */
export function isPromise(candidate) {
  return (
    candidate != null &&
    (typeof candidate === 'object' || typeof candidate === 'function') &&
    typeof (/** @type {{ then?: unknown }} */ (candidate).then) === 'function'
  );
}

/** @param {string} word @param {number} count @param {string} [ending] */
export function pluralize(word, count, ending = 's') {
  return `${count} ${word}${count === 1 ? '' : ending}`;
}

/** An Error whose stack starts at `callsite`, as jest-util's. */
export class ErrorWithStack extends Error {
  /** @param {string | undefined} message @param {Function} [callsite] @param {number} [stackLimit] */
  constructor(message, callsite, stackLimit) {
    const limit = Error.stackTraceLimit;
    if (stackLimit) Error.stackTraceLimit = Math.max(stackLimit, limit || 10);
    super(message);
    const capture = /** @type {{ captureStackTrace?: (o: object, f?: Function) => void }} */ (Error).captureStackTrace;
    if (capture) capture(this, callsite);
    Error.stackTraceLimit = limit;
  }
}
