// @ts-check
/**
 * node:util for the offline JavaScript sandbox: `inspect` and `format` as Node prints values
 * (single-quoted strings, `{ a: 1 }`, `[ 1, 2 ]`, `Map(1) { 'k' => 1 }`, `[Circular *1]`),
 * and `isDeepStrictEqual`. This file is sandbox guest code: it is loaded as source text into
 * an opaque-origin worker, so it is plain JavaScript with no imports of its own.
 */

const MAX_DEPTH = 2;
const BREAK_LENGTH = 72;

/** @param {string} s */
function quoteString(s) {
  const q = !s.includes("'") ? "'" : !s.includes('"') ? '"' : !s.includes('`') ? '`' : "'";
  const body = s.replace(
    /[\\\n\r\t\b\f\v\0]/g,
    (c) =>
      ({ '\\': '\\\\', '\n': '\\n', '\r': '\\r', '\t': '\\t', '\b': '\\b', '\f': '\\f', '\v': '\\v', '\0': '\\0' })[
        c
      ] ?? c,
  );
  return q + (q === "'" ? body.replace(/'/g, "\\'") : body) + q;
}

/** @param {string} key */
function formatKey(key) {
  return /^[A-Za-z_$][\w$]*$/.test(key) ? key : quoteString(key);
}

/** @param {unknown} v */
function constructorName(v) {
  const proto = Object.getPrototypeOf(v);
  if (proto === null) return '[Object: null prototype]';
  const name = proto.constructor && proto.constructor.name;
  return typeof name === 'string' ? name : 'Object';
}

/**
 * @param {string[]} entries
 * @param {string} open
 * @param {string} close
 * @param {number} indent
 */
function wrap(entries, open, close, indent) {
  if (entries.length === 0) return `${open}${close}`;
  const one = `${open} ${entries.join(', ')} ${close}`;
  if (one.length + indent <= BREAK_LENGTH && !entries.some((e) => e.includes('\n'))) return one;
  const pad = ' '.repeat(indent + 2);
  return `${open}\n${entries.map((e) => pad + e).join(',\n')}\n${' '.repeat(indent)}${close}`;
}

/**
 * @param {unknown} value
 * @param {number} depth
 * @param {Map<object, number>} seen
 * @param {number} indent
 * @returns {string}
 */
function fmt(value, depth, seen, indent) {
  switch (typeof value) {
    case 'string':
      return quoteString(value);
    case 'number':
      return Object.is(value, -0) ? '-0' : String(value);
    case 'bigint':
      return `${value}n`;
    case 'boolean':
    case 'undefined':
      return String(value);
    case 'symbol':
      return value.toString();
    case 'function': {
      const src = Function.prototype.toString.call(value);
      if (src.startsWith('class')) return `[class ${value.name || '(anonymous)'}]`;
      return value.name ? `[Function: ${value.name}]` : '[Function (anonymous)]';
    }
  }
  if (value === null) return 'null';
  const obj = /** @type {object} */ (value);
  if (seen.has(obj)) return '[Circular *1]';
  if (obj instanceof Error) return obj.stack || `${obj.name}: ${obj.message}`;
  if (obj instanceof Date) return isNaN(obj.getTime()) ? 'Invalid Date' : obj.toISOString();
  if (obj instanceof RegExp) return String(obj);
  if (obj instanceof Promise) return 'Promise { <unknown> }';
  if (depth > MAX_DEPTH) return Array.isArray(obj) ? '[Array]' : `[${constructorName(obj)}]`;
  seen.set(obj, 1);
  try {
    const inner = (/** @type {unknown} */ v) => fmt(v, depth + 1, seen, indent + 2);
    if (Array.isArray(obj)) {
      const items = obj.slice(0, 100).map(inner);
      if (obj.length > 100) items.push(`... ${obj.length - 100} more items`);
      return wrap(items, '[', ']', indent);
    }
    if (obj instanceof Map) {
      return wrap(
        [...obj].map(([k, v]) => `${inner(k)} => ${inner(v)}`),
        `Map(${obj.size}) {`,
        '}',
        indent,
      );
    }
    if (obj instanceof Set) return wrap([...obj].map(inner), `Set(${obj.size}) {`, '}', indent);
    if (ArrayBuffer.isView(obj) && !(obj instanceof DataView)) {
      const arr = /** @type {ArrayLike<unknown>} */ (/** @type {unknown} */ (obj));
      return wrap(Array.from(arr).slice(0, 100).map(inner), `${constructorName(obj)}(${arr.length}) [`, ']', indent);
    }
    const entries = Object.keys(obj).map(
      (k) => `${formatKey(k)}: ${inner(/** @type {Record<string, unknown>} */ (obj)[k])}`,
    );
    const name = constructorName(obj);
    return wrap(entries, name === 'Object' ? '{' : `${name} {`, '}', indent);
  } finally {
    seen.delete(obj);
  }
}

/**
 * A value as Node's util.inspect shows it (depth 2, lines broken past 72 columns).
 * @param {unknown} value
 * @returns {string}
 */
export function inspect(value) {
  return fmt(value, 0, new Map(), 0);
}

/**
 * printf-style formatting as console.log does it: %s %d %i %f %j %o %O %c %%, then the rest
 * of the arguments joined with spaces (strings as they are, anything else inspected).
 * @param {...unknown} args
 * @returns {string}
 */
export function format(...args) {
  const [first, ...rest] = args;
  if (typeof first !== 'string') return args.map((a) => (typeof a === 'string' ? a : inspect(a))).join(' ');
  let i = 0;
  const out = first.replace(/%([sdifjoOc%])/g, (whole, c) => {
    if (c === '%') return '%';
    if (i >= rest.length) return whole;
    const a = rest[i++];
    switch (c) {
      case 's':
        return typeof a === 'string'
          ? a
          : typeof a === 'bigint'
            ? `${a}n`
            : typeof a === 'object' && a !== null
              ? inspect(a)
              : String(a);
      case 'd':
      case 'i': {
        const n = typeof a === 'bigint' ? a : Number(a);
        return typeof n === 'bigint' ? `${n}n` : String(c === 'i' ? Math.trunc(n) : n);
      }
      case 'f':
        return String(Number(a));
      case 'j':
        try {
          return JSON.stringify(a);
        } catch {
          return '[Circular]';
        }
      case 'c':
        return '';
      default:
        return inspect(a);
    }
  });
  return [out, ...rest.slice(i).map((a) => (typeof a === 'string' ? a : inspect(a)))].join(' ');
}

/**
 * @param {unknown} a
 * @param {unknown} b
 * @param {boolean} strict
 * @param {Map<object, object>} memo
 * @returns {boolean}
 */
function deepEq(a, b, strict, memo) {
  if (strict ? Object.is(a, b) : a == b || (Number.isNaN(a) && Number.isNaN(b))) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (strict && Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  if (Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
  if (memo.get(a) === b) return true;
  memo.set(a, b);
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  if (a instanceof Error && b instanceof Error && (a.message !== b.message || a.name !== b.name)) return false;
  if (a instanceof Map && b instanceof Map) {
    if (a.size !== b.size) return false;
    for (const [k, v] of a) if (!b.has(k) || !deepEq(v, b.get(k), strict, memo)) return false;
    return true;
  }
  if (a instanceof Set && b instanceof Set) {
    if (a.size !== b.size) return false;
    outer: for (const v of a) {
      if (b.has(v)) continue;
      for (const w of b) if (deepEq(v, w, strict, memo)) continue outer;
      return false;
    }
    return true;
  }
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  const ra = /** @type {Record<string, unknown>} */ (a);
  const rb = /** @type {Record<string, unknown>} */ (b);
  for (const k of ka)
    if (!Object.prototype.hasOwnProperty.call(b, k) || !deepEq(ra[k], rb[k], strict, memo)) return false;
  return true;
}

/**
 * Node's deep equality: strict (Object.is, same prototypes) or loose (==, prototypes ignored).
 * @param {unknown} a
 * @param {unknown} b
 * @param {boolean} [strict]
 */
export function isDeepEqual(a, b, strict = true) {
  return deepEq(a, b, strict, new Map());
}

/** @param {unknown} a @param {unknown} b */
export function isDeepStrictEqual(a, b) {
  return isDeepEqual(a, b, true);
}

export default { inspect, format, isDeepStrictEqual };
