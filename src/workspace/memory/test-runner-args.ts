/**
 * What a `jest …`, `vitest …` or `mocha …` command line asks the Jest-style runner of the
 * JavaScript sandbox for: which spec files run (found as each runner finds them) and which
 * test names. Options that change only how a real runner reports, caches or schedules are
 * accepted and change nothing; any other option is refused with what the runner does support,
 * rather than silently running something else than was asked.
 */
import type { InMemoryFs } from 'just-bash';
import { RE2JS } from 're2js';
import { findTestFiles, walkFiles } from './js-sandbox-args.ts';
import { resolveSpecifier } from './specifiers.ts';

/** The runners that run in the Jest-style runner. */
export type SpecRunner = 'jest' | 'vitest' | 'mocha';

export type SpecPlan =
  | { readonly mode: 'jest'; readonly files: readonly string[]; readonly namePatterns: readonly string[] }
  | { readonly mode: 'print'; readonly text: string; readonly exitCode: number };

/** Flags (no value) each runner accepts that change nothing here. */
const FLAGS: Readonly<Record<SpecRunner, ReadonlySet<string>>> = {
  jest: new Set([
    '--ci',
    '--verbose',
    '--silent',
    '--runInBand',
    '-i',
    '--no-cache',
    '--colors',
    '--no-colors',
    '--passWithNoTests',
    '--detectOpenHandles',
    '--forceExit',
    '--no-watchman',
    '--watchAll=false',
    '--watch=false',
    '--no-coverage',
    '--useStderr',
    '--expand',
    '--errorOnDeprecated',
  ]),
  vitest: new Set(['--run', '--no-watch', '--watch=false', '--silent', '--no-color', '--passWithNoTests', '--globals']),
  mocha: new Set([
    '--recursive',
    '--exit',
    '--no-exit',
    '--color',
    '--no-color',
    '-c',
    '-C',
    '--parallel',
    '--no-parallel',
  ]),
};

/** Options with a value that change nothing here (the value is the next word unless written with `=`). */
const VALUED: Readonly<Record<SpecRunner, ReadonlySet<string>>> = {
  jest: new Set(['--maxWorkers', '-w', '--reporters', '--testTimeout', '--maxConcurrency']),
  vitest: new Set([
    '--reporter',
    '--pool',
    '--testTimeout',
    '--environment',
    '--maxWorkers',
    '--poolOptions.threads.singleThread',
  ]),
  mocha: new Set(['--reporter', '-R', '--timeout', '-t', '--slow', '-s', '--ui', '-u', '--extension']),
};

/** The option naming a test-name pattern. */
const NAME_OPTIONS: Readonly<Record<SpecRunner, ReadonlySet<string>>> = {
  jest: new Set(['-t', '--testNamePattern']),
  vitest: new Set(['-t', '--testNamePattern']),
  mocha: new Set(['-g', '--grep', '-f', '--fgrep']),
};

const SUPPORTS: Readonly<Record<SpecRunner, string>> = {
  jest: '`jest [path patterns] [-t NAME_PATTERN]`',
  vitest: '`vitest run [file filters] [-t NAME_PATTERN]`',
  mocha: '`mocha [files or directories] [--grep PATTERN]`',
};

/** Jest's default testMatch: files under `__tests__`, and `*.spec.*` / `*.test.*`. */
const SPEC_NAME = /(?:^|\/)__tests__\/.+\.[cm]?js$|(?:^|[/.])(?:spec|test)\.[cm]?js$/;
/** The same names in TypeScript, which the sandbox cannot run (it has no compiler). */
const TS_SPEC_NAME = /(?:^|\/)__tests__\/.+\.[cm]?tsx?$|(?:^|[/.])(?:spec|test)\.[cm]?tsx?$/;

function print(text: string, exitCode: number): SpecPlan {
  return { mode: 'print', text, exitCode };
}

/** Reads a runner's arguments; `cwd` is absolute in `fs`, and specs are looked for under it. */
export async function planSpecs(
  fs: InMemoryFs,
  root: string,
  cwd: string,
  runner: SpecRunner,
  args: readonly string[],
): Promise<SpecPlan> {
  const rest = runner === 'vitest' && (args[0] === 'run' || args[0] === 'related') ? args.slice(1) : args;
  if (runner === 'vitest' && ['watch', 'dev', 'bench', 'init', 'list'].includes(rest[0] ?? ''))
    return print(`vitest ${rest[0]} does not run in the offline sandbox; it runs ${SUPPORTS.vitest}.\n`, 1);
  const namePatterns: string[] = [];
  const positional: string[] = [];
  for (let i = 0; i < rest.length; i++) {
    const a = rest[i]!;
    if (a === '--') {
      positional.push(...rest.slice(i + 1));
      break;
    }
    if (!a.startsWith('-') || a === '-') {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const [flag, inline] = eq > 0 ? [a.slice(0, eq), a.slice(eq + 1)] : [a, undefined];
    if (NAME_OPTIONS[runner].has(flag)) {
      const value = inline ?? rest[++i];
      if (value === undefined) return print(`${runner}: ${flag} needs a pattern\n`, 1);
      namePatterns.push(flag === '-f' || flag === '--fgrep' ? value.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : value);
    } else if (FLAGS[runner].has(a)) continue;
    else if (VALUED[runner].has(flag)) {
      if (inline === undefined) i++;
    } else
      return print(
        `${runner}: option ${a} is not supported by the offline sandbox's test runner; it runs ${SUPPORTS[runner]}.\n`,
        1,
      );
  }
  const found =
    runner === 'mocha' ? await mochaFiles(fs, root, cwd, positional) : await specFiles(fs, cwd, runner, positional);
  if ('error' in found) return print(`${found.error}\n`, 1);
  if (found.files.length === 0) {
    const ts = runner === 'mocha' ? [] : (await walk(fs, cwd)).filter((f) => TS_SPEC_NAME.test(f));
    const why = ts.length
      ? ` ${ts.length} TypeScript spec file${ts.length === 1 ? '' : 's'} (${ts[0]}${ts.length > 1 ? ', …' : ''}) cannot run: the offline sandbox has no TypeScript compiler.`
      : '';
    return print(
      `No tests found in ${cwd}: the runner looks for *.spec.js, *.test.js and files under __tests__ (also .mjs/.cjs)${positional.length ? ` matching ${positional.join(' ')}` : ''}.${why}\n`,
      1,
    );
  }
  return { mode: 'jest', files: found.files, namePatterns };
}

/**
 * Jest's and Vitest's spec files under `cwd`; positional words filter them (a regex for Jest, a
 * substring for Vitest). Jest's regex runs on RE2: it is tried here, in the workspace's own
 * thread, where a backtracking `(a|aa)+$` beside a long spec name would block past any timeout.
 */
async function specFiles(
  fs: InMemoryFs,
  cwd: string,
  runner: SpecRunner,
  filters: readonly string[],
): Promise<{ files: string[] } | { error: string }> {
  const specs = (await walk(fs, cwd)).filter((f) => SPEC_NAME.test(f));
  if (filters.length === 0) return { files: specs };
  const tests = filters.map((f): ((path: string) => boolean) => {
    if (runner === 'vitest') return (path) => path.includes(f.replace(/^\.\//, ''));
    try {
      const re = RE2JS.compile(f);
      return (path) => re.test(path);
    } catch {
      return (path) => path.includes(f);
    }
  });
  return { files: specs.filter((path) => tests.some((t) => t(path))) };
}

/** mocha's files: the named files and directories, else `./test` (top level, or all of it with --recursive: all of it here). */
async function mochaFiles(
  fs: InMemoryFs,
  root: string,
  cwd: string,
  paths: readonly string[],
): Promise<{ files: string[] } | { error: string }> {
  const named = paths.length ? paths : ['test'];
  const files: string[] = [];
  for (const p of named) {
    const abs = resolveSpecifier(cwd, p);
    const st = await fs.stat(abs).catch(() => null);
    if (st?.isDirectory) files.push(...(await walk(fs, abs)).filter((f) => /\.[cm]?js$/.test(f)));
    else if (st?.isFile) files.push(abs);
    else if (paths.length) {
      const found = await findTestFiles(fs, root, cwd, [p]);
      if ('error' in found) return { error: `Error: No test files found: "${p}"` };
      files.push(...found.found);
    }
  }
  return { files: [...new Set(files)].sort() };
}

/** Every file under `dir`, sorted, the dependency and state directories skipped. */
async function walk(fs: InMemoryFs, dir: string): Promise<string[]> {
  return (await walkFiles(fs, dir)).map((f) => f.path);
}
