// @ts-check
/**
 * node:path (POSIX) for the offline JavaScript sandbox: join, resolve (against the sandboxed
 * process.cwd()), normalize, relative, dirname, basename, extname, parse, format. Sandbox
 * guest code: plain JavaScript, loaded as source text.
 */

export const sep = '/';
export const delimiter = ':';

/** @param {string} p @param {boolean} absolute */
function normalizeSegments(p, absolute) {
  /** @type {string[]} */
  const out = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length && out[out.length - 1] !== '..') out.pop();
      else if (!absolute) out.push('..');
    } else out.push(seg);
  }
  return out.join('/');
}

/** @param {string} p */
export function isAbsolute(p) {
  return p.startsWith('/');
}

/** @param {string} p */
export function normalize(p) {
  if (p === '') return '.';
  const abs = isAbsolute(p);
  const body = normalizeSegments(p, abs);
  const trailing = p.endsWith('/') && body !== '' ? '/' : '';
  return (abs ? '/' : '') + (body || (abs ? '' : '.')) + trailing;
}

/** @param {...string} parts */
export function join(...parts) {
  const joined = parts.filter((x) => x !== '').join('/');
  return joined === '' ? '.' : normalize(joined);
}

function cwd() {
  const proc = /** @type {{ cwd?: () => string } | undefined} */ (
    /** @type {Record<string, unknown>} */ (globalThis).process
  );
  return typeof proc?.cwd === 'function' ? proc.cwd() : '/';
}

/** @param {...string} parts */
export function resolve(...parts) {
  let resolved = '';
  for (let i = parts.length - 1; i >= 0 && !isAbsolute(resolved); i--) {
    const part = parts[i];
    if (part) resolved = resolved ? `${part}/${resolved}` : part;
  }
  if (!isAbsolute(resolved)) resolved = `${cwd()}/${resolved}`;
  return `/${normalizeSegments(resolved, true)}`;
}

/** @param {string} from @param {string} to */
export function relative(from, to) {
  const a = resolve(from).split('/').filter(Boolean);
  const b = resolve(to).split('/').filter(Boolean);
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  return [...new Array(a.length - i).fill('..'), ...b.slice(i)].join('/');
}

/** @param {string} p */
export function dirname(p) {
  if (p === '') return '.';
  const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const i = trimmed.lastIndexOf('/');
  if (i < 0) return '.';
  return i === 0 ? '/' : trimmed.slice(0, i);
}

/** @param {string} p @param {string} [ext] */
export function basename(p, ext) {
  const trimmed = p.length > 1 ? p.replace(/\/+$/, '') : p;
  const base = trimmed.slice(trimmed.lastIndexOf('/') + 1);
  return ext && base.endsWith(ext) && base !== ext ? base.slice(0, -ext.length) : base;
}

/** @param {string} p */
export function extname(p) {
  const base = basename(p);
  const i = base.lastIndexOf('.');
  return i <= 0 ? '' : base.slice(i);
}

/** @param {string} p */
export function parse(p) {
  const base = basename(p);
  const ext = extname(p);
  const dir = p.includes('/') ? dirname(p) : '';
  return { root: isAbsolute(p) ? '/' : '', dir, base, ext, name: ext ? base.slice(0, -ext.length) : base };
}

/** @param {{dir?: string, root?: string, base?: string, name?: string, ext?: string}} o */
export function format(o) {
  const base = o.base ?? `${o.name ?? ''}${o.ext ?? ''}`;
  const dir = o.dir ?? o.root ?? '';
  return dir ? (dir.endsWith('/') ? dir + base : `${dir}/${base}`) : base;
}

/** @param {string} p */
export function toNamespacedPath(p) {
  return p;
}

const path = {
  sep,
  delimiter,
  isAbsolute,
  normalize,
  join,
  resolve,
  relative,
  dirname,
  basename,
  extname,
  parse,
  format,
  toNamespacedPath,
};
/** @type {typeof path & { posix: typeof path }} */
export const posix = Object.assign(path, { posix: /** @type {any} */ (null) });
posix.posix = posix;
export default posix;
