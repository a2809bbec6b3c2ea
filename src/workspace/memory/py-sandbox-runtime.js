// @ts-check
/**
 * The Python sandbox's runtime: the first and only trusted code in a Python job's worker. In the
 * browser the worker is started by the sandbox frame (public/sandbox.html), as JavaScript's is:
 * an opaque origin with no storage, under a Content-Security-Policy that forbids every fetch and
 * connection (`connect-src 'none'`) and allows WebAssembly to compile (`'wasm-unsafe-eval'`).
 * Pyodide cannot fetch its own files there, so the job brings them: the loader and the
 * Emscripten module become blob: modules, and while Pyodide starts, `fetch` answers its two
 * file requests (the wasm, the standard library) from the job's bytes and nothing else.
 *
 * One job: start Pyodide (as soon as the files arrive, before the job), unpack the wheels the
 * job brings (fetched and checked against Pyodide's lock by the page, py-wheels.ts) into its
 * site-packages, copy the workspace's files into its in-memory filesystem at the same
 * path, run python3's command line (py-sandbox-main.py) with stdin from the job, then send back
 * what changed under the workspace (the host decides what it keeps) and the exit code. Output
 * is bounded as it is written (sandbox-output.js). Python's `js` module is an empty object, so
 * the program cannot reach the worker's globals through it.
 */
import { makeOutput } from './sandbox-output.js';

/**
 * @typedef {{ loader: string, asm: string, wasm: ArrayBuffer, stdlib: ArrayBuffer, lock: string }} PyAssets
 * @typedef {{ assets: PyAssets | null }} PyStart
 * @typedef {{ files: [string, Uint8Array][], wheels: [string, ArrayBuffer][], root: string, cwd: string, argv: string[], env: Record<string, string>, stdin: Uint8Array | null, main: string, headChars: number, tailChars: number, returnBytes: number }} PyJob
 * @typedef {{ type: 'head', text: string } | { type: 'tail', text: string, total: number } | { type: 'exit', code: number } | { type: 'loaded', ms: number } | { type: 'files', changed: [string, Uint8Array][], removed: string[], over: string[] }} PyMessage
 * @typedef {{ post(message: PyMessage): void, load(start: PyStart, options: Record<string, unknown>): Promise<any> }} PyIo
 * @typedef {{ postMessage(message: unknown): void, onmessage: ((event: { data: unknown }) => void) | null }} JobPort
 */

/** Where the command-line driver lives in Pyodide's filesystem (its frames are hidden from tracebacks). */
const MAIN_PATH = '/slmcode/python3-main.py';

const dateNow = Date.now;

/**
 * Creates every missing directory of `path`.
 * @param {any} FS
 * @param {string} path
 */
function mkdirs(FS, path) {
  let at = '';
  for (const part of path.split('/').filter(Boolean)) {
    at += `/${part}`;
    if (!FS.analyzePath(at).exists) FS.mkdir(at);
  }
}

/**
 * The regular files under `dir`, by path relative to `root` (links are not followed).
 * @param {any} FS
 * @param {string} root
 * @param {string} dir
 * @param {Map<string, Uint8Array>} out
 */
function walk(FS, root, dir, out) {
  for (const name of FS.readdir(dir)) {
    if (name === '.' || name === '..') continue;
    const path = `${dir}/${name}`;
    const st = FS.lstat(path);
    if (FS.isDir(st.mode)) walk(FS, root, path, out);
    else if (FS.isFile(st.mode)) out.set(path.slice(root.length + 1), FS.readFile(path));
  }
}

/**
 * @param {Uint8Array} a
 * @param {Uint8Array} b
 */
function sameBytes(a, b) {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * Starts Pyodide as soon as the worker has its files, before any job: the host starts the next
 * worker while it waits, so a job finds Python ready. Settles to Pyodide or to the error.
 * @param {PyStart} start
 * @param {PyIo} io
 * @returns {Promise<{ pyodide: any } | { error: string }>}
 */
async function startPython(start, io) {
  const began = dateNow();
  try {
    const pyodide = await io.load(start, {
      env: { PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' },
      jsglobals: {},
      _sysExecutable: '/usr/bin/python3',
    });
    io.post({ type: 'loaded', ms: dateNow() - began });
    return { pyodide };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

/**
 * @param {PyJob} job
 * @param {Promise<{ pyodide: any } | { error: string }>} started
 * @param {PyIo} io
 */
export async function runJob(job, started, io) {
  const out = makeOutput(io, job.headChars, job.tailChars);
  /** @param {number} code */
  const exit = (code) => {
    out.close();
    io.post({ type: 'exit', code });
  };
  const python = await started;
  if ('error' in python) {
    out.write(`python3: Pyodide could not start in the sandbox: ${python.error}\n`);
    return exit(70);
  }
  const pyodide = python.pyodide;

  /** @param {TextDecoder} decoder */
  const writer = (decoder) => ({
    /** @param {Uint8Array} buffer */
    write(buffer) {
      out.write(decoder.decode(buffer, { stream: true }));
      return buffer.length;
    },
  });
  pyodide.setStdout(writer(new TextDecoder()));
  pyodide.setStderr(writer(new TextDecoder()));
  const input = job.stdin ?? new Uint8Array(0);
  let read = 0;
  pyodide.setStdin({
    /** @param {Uint8Array} buffer */
    read(buffer) {
      const n = Math.min(buffer.length, input.length - read);
      buffer.set(input.subarray(read, read + n));
      read += n;
      return n;
    },
  });

  try {
    if (job.wheels.length) {
      const site = pyodide.runPython('import site; site.getsitepackages()[0]');
      for (const [, bytes] of job.wheels) pyodide.unpackArchive(bytes, 'wheel', { extractDir: site });
      pyodide.runPython('import importlib; importlib.invalidate_caches()');
    }
  } catch (e) {
    out.write(`python3: the packages could not be installed: ${e instanceof Error ? e.message : String(e)}\n`);
    return exit(70);
  }

  const FS = pyodide.FS;
  /** @type {Map<string, Uint8Array>} */
  const given = new Map(job.files);
  for (const [rel, bytes] of job.files) {
    const path = `${job.root}/${rel}`;
    mkdirs(FS, path.slice(0, path.lastIndexOf('/')));
    FS.writeFile(path, bytes);
  }
  mkdirs(FS, job.root);
  mkdirs(FS, job.cwd);
  FS.chdir(job.cwd);
  mkdirs(FS, MAIN_PATH.slice(0, MAIN_PATH.lastIndexOf('/')));
  FS.writeFile(MAIN_PATH, job.main);

  let code;
  try {
    const scope = pyodide.globals.get('dict')();
    scope.set('__file__', MAIN_PATH);
    scope.set('__name__', 'slmcode_python3_main');
    pyodide.runPython(job.main, { globals: scope, filename: MAIN_PATH });
    const env = { ...job.env, HOME: job.root };
    code = Number(scope.get('main')(pyodide.toPy(job.argv), input.length > 0, pyodide.toPy(env)));
  } catch (e) {
    out.write(`python3: the interpreter failed: ${e instanceof Error ? e.message : String(e)}\n`);
    code = 70;
  }

  // What the program changed under the workspace goes back, up to returnBytes in all; the host keeps what its rules allow.
  /** @type {Map<string, Uint8Array>} */
  const now = new Map();
  if (FS.analyzePath(job.root).exists) walk(FS, job.root, job.root, now);
  /** @type {[string, Uint8Array][]} */
  const changed = [];
  /** @type {string[]} */
  const over = [];
  let budget = job.returnBytes;
  for (const [rel, bytes] of now) {
    const before = given.get(rel);
    if (before && sameBytes(before, bytes)) continue;
    if (bytes.length > budget) over.push(rel);
    else {
      budget -= bytes.length;
      changed.push([rel, bytes]);
    }
  }
  const removed = [...given.keys()].filter((rel) => !now.has(rel));
  io.post({ type: 'files', changed, removed, over });
  exit(Number.isInteger(code) && code >= 0 && code < 256 ? code : 1);
}

/**
 * Serves one job on `port`, the runtime's private channel: the first message on it brings
 * Pyodide's files (the worker starts Python at once), the second is the job, and every message
 * the runtime sends goes back on it.
 * @param {JobPort} port
 * @param {Omit<PyIo, 'post'>} env how Pyodide is started here
 */
export function serve(port, env) {
  const io = { ...env, post: port.postMessage.bind(port) };
  port.onmessage = (first) => {
    const started = startPython(/** @type {PyStart} */ (first.data), io);
    port.onmessage = (second) => {
      port.onmessage = null;
      void runJob(/** @type {PyJob} */ (second.data), started, io);
    };
  };
}

/**
 * `serve` in a browser worker: Pyodide from the job's own bytes (blob: modules, and `fetch`
 * answering only its two files while it starts).
 * @param {JobPort} port
 */
export function serveWorker(port) {
  const scope = /** @type {any} */ (globalThis);
  serve(port, {
    async load(start, options) {
      const assets = start.assets;
      if (!assets) throw new Error('the job brought no Pyodide files');
      const url = (/** @type {string} */ source) =>
        URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
      const { loadPyodide } = await import(url(assets.loader));
      const { default: createPyodideModule } = await import(url(assets.asm));
      // A base no request can reach: only the two files below are answered, from the job's bytes.
      const base = 'https://pyodide.invalid/';
      const files = new Map([
        [`${base}pyodide.asm.wasm`, { bytes: assets.wasm, type: 'application/wasm' }],
        [`${base}python_stdlib.zip`, { bytes: assets.stdlib, type: 'application/zip' }],
      ]);
      const realFetch = scope.fetch;
      scope.fetch = async (/** @type {unknown} */ input) => {
        const file = files.get(String(input instanceof Request ? input.url : input));
        if (!file) throw new TypeError(`the Python sandbox has no network (${String(input)})`);
        return new Response(file.bytes, { headers: { 'Content-Type': file.type } });
      };
      try {
        return await loadPyodide({ ...options, indexURL: base, lockFileContents: assets.lock, createPyodideModule });
      } finally {
        scope.fetch = realFetch;
      }
    },
  });
}
