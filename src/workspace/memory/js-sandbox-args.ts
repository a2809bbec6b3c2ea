/**
 * What a `node …` command line asks the JavaScript sandbox for: run one script (`node file.js
 * args`) or run tests (`node --test [paths] [--test-name-pattern=…]`), with test files found
 * as Node 20 finds them. Anything else gets Node's own kind of error and exit code, plus what
 * the sandbox does support.
 */
import type { InMemoryFs } from 'just-bash';
import { resolveSpecifier } from './specifiers.ts';

export type NodePlan =
  | { readonly mode: 'run'; readonly entry: string; readonly argv: readonly string[] }
  | { readonly mode: 'test'; readonly files: readonly string[]; readonly namePatterns: readonly string[] }
  | { readonly mode: 'print'; readonly text: string; readonly exitCode: number };

/** Options Node accepts that change nothing the sandbox does (reporters, warnings, source maps). */
const IGNORED = new Set([
  '--test-only',
  '--no-warnings',
  '--enable-source-maps',
  '--experimental-vm-modules',
  '--experimental-test-coverage',
  '--trace-warnings',
  '--test-force-exit',
]);
/** Ignored options that take a value as the next argument. */
/** Options whose value is code to run: Node's, which the offline sandbox does not take (it evaluates no strings). */
const INLINE_CODE = new Set(['-e', '--eval', '-p', '--print', '-pe']);
const IGNORED_WITH_VALUE = new Set([
  '--test-reporter',
  '--test-reporter-destination',
  '--test-concurrency',
  '--test-timeout',
]);

const SUPPORTED =
  'The offline sandbox runs `node FILE.js [args]` and `node --test [files or directories] [--test-name-pattern=PATTERN]`.';

/** The version line `node --version` prints in the sandbox. */
export const SANDBOX_NODE_VERSION =
  'v20.0.0 (slmcode offline sandbox: node:test, node:assert, node:path and node:util shims, not Node itself)';

function bad(text: string, exitCode = 9): NodePlan {
  return { mode: 'print', text: `${text}\n${SUPPORTED}\n`, exitCode };
}

/** Reads `node`'s arguments; `cwd` is absolute in `fs`, and test paths are looked up there. */
export async function planNode(fs: InMemoryFs, root: string, cwd: string, args: readonly string[]): Promise<NodePlan> {
  let test = false;
  const namePatterns: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i]!;
    if (a === '--') {
      i++;
      break;
    }
    if (!a.startsWith('-') || a === '-') break;
    const [flag, inline] = a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (flag === '--test') test = true;
    else if (flag === '--test-name-pattern') {
      const value = inline ?? args[++i];
      if (value === undefined) return bad('node: --test-name-pattern requires an argument');
      namePatterns.push(value);
    } else if (flag === '--version' || flag === '-v')
      return { mode: 'print', text: `${SANDBOX_NODE_VERSION}\n`, exitCode: 0 };
    else if (INLINE_CODE.has(flag))
      return bad(
        `node: ${flag} (code on the command line) does not run in the offline sandbox, which runs only the workspace's files. Write the code to a file with ws_write and run node FILE.js; the Node backend (slm) and WebContainer run ${flag} as Node does`,
      );
    else if (IGNORED.has(flag)) continue;
    else if (IGNORED_WITH_VALUE.has(flag)) {
      if (inline === undefined) i++;
    } else return bad(`node: bad option: ${a}`);
  }
  const rest = args.slice(i);
  if (test) {
    const files = await findTestFiles(fs, root, cwd, rest);
    return 'error' in files ? bad(files.error, 1) : { mode: 'test', files: files.found, namePatterns };
  }
  const [script, ...argv] = rest;
  if (script === undefined)
    return bad(
      'node: no script given; a REPL or a script on stdin cannot run in the offline sandbox. Give a file: node file.js',
    );
  const entry = resolveSpecifier(cwd, script);
  if (!(await isFile(fs, entry))) {
    return bad(
      `node:internal/modules/cjs/loader\n  throw err;\n  ^\n\nError: Cannot find module '${entry}'\n    code: 'MODULE_NOT_FOUND'`,
      1,
    );
  }
  return { mode: 'run', entry, argv: [entry, ...argv] };
}

async function isFile(fs: InMemoryFs, path: string): Promise<boolean> {
  try {
    return (await fs.stat(path)).isFile;
  } catch {
    return false;
  }
}

const JS = /\.[cm]?js$/;
/** Node 20's default test file names: test.js, test-*.js, *.test.js, *-test.js, *_test.js (any of .js/.cjs/.mjs). */
const TEST_NAME = /^(?:test|test-.+|.+[.\-_]test)\.[cm]?js$/;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '.slmcode']);

/**
 * The files `node --test` runs: the named files, and within each named directory (or the
 * working directory when none is named) every file with a test name or under a `test`
 * directory — sorted, node_modules skipped.
 */
export async function findTestFiles(
  fs: InMemoryFs,
  root: string,
  cwd: string,
  paths: readonly string[],
): Promise<{ found: string[] } | { error: string }> {
  const found = new Set<string>();
  for (const p of paths.length ? paths : ['.']) {
    const abs = resolveSpecifier(cwd, p);
    if (abs !== root && !abs.startsWith(`${root}/`))
      return { error: `Could not find '${abs}': it is outside the workspace` };
    let st: { isFile: boolean; isDirectory: boolean };
    try {
      st = await fs.stat(abs);
    } catch {
      return { error: `Could not find '${abs}'` };
    }
    if (st.isFile) found.add(abs);
    else if (st.isDirectory)
      for (const f of await walkFiles(fs, abs))
        if (JS.test(f.path) && (f.underTest || TEST_NAME.test(f.path.slice(f.path.lastIndexOf('/') + 1))))
          found.add(f.path);
  }
  return { found: [...found].sort() };
}

/** A file found by `walkFiles`. */
export interface WalkedFile {
  readonly path: string;
  /** A directory named `test` lies between the walk's start and the file. */
  readonly underTest: boolean;
}

/** Every file under `dir`, sorted by path, the dependency and state directories skipped. */
export async function walkFiles(fs: InMemoryFs, dir: string, underTest = false): Promise<WalkedFile[]> {
  const out: WalkedFile[] = [];
  let entries: { name: string; isFile: boolean; isDirectory: boolean }[];
  try {
    entries = await fs.readdirWithFileTypes(dir);
  } catch {
    return out;
  }
  for (const e of entries) {
    const path = `${dir}/${e.name}`;
    if (e.isDirectory && !SKIPPED_DIRS.has(e.name))
      out.push(...(await walkFiles(fs, path, underTest || e.name === 'test')));
    else if (e.isFile) out.push({ path, underTest });
  }
  return out.sort((x, y) => (x.path < y.path ? -1 : x.path > y.path ? 1 : 0));
}
