// @ts-check
/**
 * The Jest-style runner on a Node host: the program `node` runs (inside the OS sandbox, over a
 * temporary copy of the workspace) for `jest`, `vitest` and `mocha` in a project without its
 * own. It loads the very runner of the browser sandbox (node-shims/jest.js, here `jest.mjs`)
 * and the same bundle of Jest's `expect` (`expect.mjs`), drives it through the same hooks as
 * the sandbox's runtime does (configure, prepare, drain, exitCalled, fileFailed, finish), and
 * prints Jest's report and summary — also when a spec calls process.exit, which here unwinds
 * the spec instead of ending the process. job.json, next to this file, names the spec files (relative to the
 * workspace, which is two levels up), the test-name patterns and the file the tally goes to.
 *
 * The spec shares this process and its stdout, so what it prints (a summary of its own) and the
 * exit code (process.reallyExit) are its to forge. The runner's own tally goes elsewhere: to
 * the tally file, marked with the key node-runner sends on stdin, which is read to its end here
 * before any spec loads, and written with fs's writer captured now. No spec can read the key,
 * so none can write a tally node-runner takes; a spec that ends the process early leaves none,
 * and node-runner reports the run as not finished.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import Module, { register } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const key = readFileSync(0, 'utf8').trim();
const saveTally = writeFileSync;

const here = new URL('./', import.meta.url);
const root = new URL('../../', here);
/** @type {{ files: string[], namePatterns: string[], candidates: string[], tallyFile: string }} */
const job = JSON.parse(readFileSync(new URL('job.json', here), 'utf8'));
const runner = new URL('jest.mjs', here).href;
const expectBundle = new URL('expect.mjs', here).href;

register(new URL('hooks.mjs', here), {
  data: {
    aliases: { '@jest/globals': runner, vitest: runner, 'node:internal/expect': expectBundle },
    candidates: job.candidates,
    root: root.href,
    runnerDir: here.href,
  },
});
// CommonJS specs `require('@jest/globals')`: the same module instance the ES specs import.
const M =
  /** @type {{ _resolveFilename: (request: string, ...rest: unknown[]) => string, _cache: Record<string, unknown> }} */ (
    /** @type {unknown} */ (Module)
  );
const resolveFilename = M._resolveFilename;
M._resolveFilename = function (request, ...rest) {
  if (request === '@jest/globals' || request === 'vitest') return fileURLToPath(runner);
  return resolveFilename.call(this, request, ...rest);
};

/** The runner's own files (`…/host-jest/jest.mjs` as a URL or a path), named as the sandbox names its own: `node:internal/jest`. */
const escape = (/** @type {string} */ text) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const OWN = new RegExp(`(?:${escape(here.href)}|${escape(fileURLToPath(here))})(\\w+)\\.mjs`, 'g');

/** Paths instead of file URLs, no per-file marks, and the runner's own frames named so that they are left out. */
const clean = (/** @type {string} */ text) =>
  text
    .replace(OWN, 'node:internal/$1')
    .replace(/[?&]slm-file=\d+/g, '')
    .replace(/file:\/\/(?=\/)/g, '');

/** An error as Node prints an uncaught one: `Name [CODE]: message` and the program's own frames. */
function describe(/** @type {unknown} */ e) {
  try {
    if (!(e instanceof Error)) return `Uncaught ${String(e)}`;
    const code = /** @type {{ code?: unknown }} */ (e).code;
    const frames = clean(e.stack ?? '')
      .split('\n')
      .filter((l) => /^\s+at /.test(l) && !/\(?node:[\w/]+:\d+:\d+\)?$/.test(l));
    return clean([`${e.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${e.message}`, ...frames].join('\n'));
  } catch {
    return 'the thrown value could not be read (reading it threw)';
  }
}

const write = (/** @type {string} */ text) => void process.stdout.write(text);

/** @type {{ configure(c: object): void, prepare(): void, drain(file: string): Promise<void>, exitCalled(code: number): boolean, fileFailed(file: string, error: string): void, finish(): { failed: number, tests: { passed: number, failed: number } } } | null} */
let hooks = null;
const CLAIM = Symbol.for('slm.sandbox.test-hooks');
Object.defineProperty(globalThis, CLAIM, {
  value: (/** @type {any} */ h, /** @type {string} */ kind) => {
    if (kind === 'jest') hooks ??= h;
  },
  configurable: true,
});
await import(runner);
Reflect.deleteProperty(globalThis, CLAIM);
if (!hooks) throw new Error('the Jest-style runner did not hand over its hooks');
const t = /** @type {NonNullable<typeof hooks>} */ (hooks);
t.configure({ write, clean, namePatterns: job.namePatterns, cwd: process.cwd() });

/** Thrown by the program's process.exit to unwind it: the run stops, and the summary is still printed. */
class ExitSignal {
  constructor(/** @type {number} */ code) {
    this.code = code;
  }
}
Object.freeze(ExitSignal.prototype);
const realExit = process.exit.bind(process);
/** The program's first process.exit: its code, and whether the runner failed the running test for it. */
let exitRequest = /** @type {{ code: number, charged: boolean } | null} */ (null);
process.exit = (/** @type {string | number | null | undefined} */ code) => {
  const c = Number(code ?? process.exitCode ?? 0);
  exitRequest ??= { code: c, charged: t.exitCalled(c) };
  throw new ExitSignal(c);
};

let uncaught = 0;
const onUncaught = (/** @type {unknown} */ e) => {
  if (e instanceof ExitSignal) return;
  uncaught++;
  write(`${describe(e)}\n`);
};
process.on('uncaughtException', onUncaught);
process.on('unhandledRejection', onUncaught);

const rootPath = fileURLToPath(root);
for (const [i, rel] of job.files.entries()) {
  const file = join(rootPath, rel);
  // CommonJS modules of the workspace are fresh for each spec file, as ES ones are (hooks.mjs).
  for (const key of Object.keys(M._cache))
    if (key.startsWith(rootPath) && !key.includes('/node_modules/')) delete M._cache[key];
  try {
    t.prepare();
    await import(`${pathToFileURL(file).href}?slm-file=${i}`);
    await t.drain(file);
  } catch (e) {
    if (!(e instanceof ExitSignal)) t.fileFailed(file, describe(e));
  }
  if (exitRequest !== null) {
    // A test the runner failed for it already says so; otherwise the file is what failed.
    if (!exitRequest.charged)
      t.fileFailed(
        file,
        `process.exit(${exitRequest.code}) was called while this file's tests ran: the file counts as failed, and no test after it ran`,
      );
    break;
  }
}
const { failed, tests } = t.finish();
const code = failed > 0 || uncaught > 0 ? 1 : 0;
saveTally(new URL(job.tallyFile, root), `${key} ${tests.passed} ${tests.failed} ${code}\n`);
realExit(code);
