// @ts-check
/**
 * Module hooks of the Jest-style runner on a Node host, registered by driver.mjs inside the
 * sandboxed `node`: `@jest/globals` and `vitest` are the runner (node-shims/jest.js),
 * `node:internal/expect` is the bundle of Jest's `expect` it imports, relative imports without
 * an extension resolve as bundlers (and the browser sandbox) resolve them, and each spec file's
 * workspace modules are fresh: the spec's `?slm-file=N` is carried to every workspace file it
 * imports, so module state does not leak from one spec file to the next (as in Jest).
 */

/** @typedef {{ aliases: Record<string, string>, candidates: string[], root: string, runnerDir: string }} Data */

/** @type {Data} */
let data = { aliases: {}, candidates: [''], root: 'file:///', runnerDir: 'file:///' };

/** @param {Data} d */
export function initialize(d) {
  data = d;
}

const MISSING = new Set(['ERR_MODULE_NOT_FOUND', 'ERR_UNSUPPORTED_DIR_IMPORT']);

/** @param {string} url @param {string | undefined} parent */
function carry(url, parent) {
  const mark = parent ? /[?&]slm-file=(\d+)/.exec(parent) : null;
  if (!mark || !url.startsWith(data.root) || url.startsWith(data.runnerDir) || url.includes('/node_modules/'))
    return url;
  return `${url}${url.includes('?') ? '&' : '?'}slm-file=${mark[1]}`;
}

/**
 * @param {string} specifier
 * @param {{ parentURL?: string, conditions: string[], importAttributes?: Record<string, string> }} context
 * @param {(specifier: string, context?: object) => Promise<{ url: string, format?: string | null }>} next
 */
export async function resolve(specifier, context, next) {
  const alias = data.aliases[specifier];
  if (alias) return { url: alias, shortCircuit: true };
  try {
    const found = await next(specifier, context);
    return { ...found, url: carry(found.url, context.parentURL), shortCircuit: true };
  } catch (e) {
    const code = /** @type {{ code?: string }} */ (e).code ?? '';
    const relative =
      specifier.startsWith('./') || specifier.startsWith('../') || specifier === '.' || specifier === '..';
    if (!relative || !MISSING.has(code) || !context.parentURL?.startsWith('file:')) throw e;
    for (const ext of data.candidates) {
      if (ext === '') continue;
      try {
        const found = await next(specifier.replace(/\/$/, '') + ext, context);
        return { ...found, url: carry(found.url, context.parentURL), shortCircuit: true };
      } catch {
        // the next way of writing it
      }
    }
    throw e;
  }
}
