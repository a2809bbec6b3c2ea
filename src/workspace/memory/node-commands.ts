/**
 * `node`, `jest`, `vitest`, `mocha`, `npm` and `npx` inside the offline shell (just-bash has
 * none of them). `node` hands its arguments to a JsEngine — the browser's sandbox or, on a Node
 * host, real Node over a copy of the files — and the three test runners hand theirs to the
 * same engine's Jest-style runner. `npm test` / `npm run NAME` run the package.json script
 * (with its pre- and post-scripts) through its execution plan (script-commands.ts): the one
 * command it names, with its arguments unparsed. Everything that needs a registry or
 * node_modules says plainly that it is not available.
 */
import { defineCommand, type Command, type InMemoryFs, type ResolvedCommandContext } from 'just-bash';
import type { ExecResult, PythonState } from '../../engine/workspace.ts';
import type { SpecRunner } from './test-runner-args.ts';
import { MemoryWorkspace } from './memory-workspace.ts';
import { planScript } from './script-commands.ts';

/** One `node` (or Jest-style runner) invocation for a JsEngine. */
export interface JsRequest {
  /** What was called: `node`, a test runner the Jest-style runner stands in for, or `python3` (a Python engine). */
  readonly program: 'node' | SpecRunner | 'python3';
  readonly fs: InMemoryFs;
  /** The workspace root in `fs`. */
  readonly root: string;
  /** The working directory, absolute in `fs`. */
  readonly cwd: string;
  /** The program's arguments (without its name). */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  /** What the program reads on stdin (a pipe's bytes); nothing when absent. */
  readonly stdin?: Uint8Array;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal;
}

/** Runs JavaScript for the memory workspace; the result's backendNote says where it ran. */
export interface JsEngine {
  /** What `node` runs on, for people and records (`Node v22.1.0`, `the browser's JavaScript sandbox`). */
  readonly runtime?: string;
  run(req: JsRequest): Promise<ExecResult>;
  /** For a Python engine: whether it runs now, would load first, or cannot run (Workspace.pythonState). */
  state?(): PythonState;
  /** For a Python engine that starts a worker per job: resolves when the workers started ahead are ready (Workspace.pythonWarm). */
  warm?(): Promise<void>;
}

/** True when `signal` was aborted because the run's timeout fired (the shell aborts with a TimeoutError). */
export function isTimeout(signal: AbortSignal): boolean {
  return signal.aborted && (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
}

/** What the commands of one shell run share: the files, the time left, and where notes go. */
export interface CommandRun {
  readonly fs: InMemoryFs;
  readonly root: string;
  readonly signal: AbortSignal;
  /** `Date.now()` at which the run's timeout fires. */
  readonly deadline: number;
  readonly maxOutputBytes: number;
  /** Records a backend note once (where node ran, what was unavailable). */
  note(text: string): void;
  /** Records output bytes a JsEngine counted but did not keep, so the run's total stays true. */
  omitted(bytes: number): void;
  /** Keeps what a program printed before the run was aborted (just-bash drops an aborted command's output). */
  interrupted(output: string): void;
  /** Records what a program ran on, when its engine says (python3's interpreter). */
  ranOn(runtime: string): void;
}

export type Out = { stdout: string; stderr: string; exitCode: number };

/** The test runners `npx NAME` runs here (the sandbox's Jest-style runner). */
export const SPEC_RUNNERS: ReadonlySet<string> = new Set(['jest', 'vitest', 'mocha']);

/**
 * The npm commands that run a package.json script here, each with the script it runs (`test`,
 * `start` …) or null when the next argument names it (`npm run NAME`); every other npm command
 * says it is not available offline.
 */
export const NPM_SCRIPT_COMMANDS: Readonly<Record<string, string | null>> = {
  test: 'test',
  t: 'test',
  tst: 'test',
  start: 'start',
  stop: 'stop',
  restart: 'restart',
  run: null,
  'run-script': null,
  rum: null,
  urn: null,
};

const OFFLINE_NPM =
  'is not available in the offline workspace: there is no registry and no node_modules here. ' +
  'npm runs package.json scripts only (npm test, npm run NAME).';

function envOf(ctx: ResolvedCommandContext): Record<string, string> {
  return ctx.exportedEnv ? { ...ctx.exportedEnv } : Object.fromEntries(ctx.env);
}

/** Runs one program invocation in `engine` for a just-bash command, with the run's time left, cap and notes. */
export async function runInEngine(
  engine: JsEngine,
  run: CommandRun,
  program: JsRequest['program'],
  args: readonly string[],
  ctx: ResolvedCommandContext,
): Promise<Out> {
  // A ByteString is a latin1 string at run time (one char a byte); the browser bundle of just-bash does not export latin1FromBytes.
  const stdin = ctx.stdin as unknown as string;
  const r = await engine.run({
    program,
    fs: run.fs,
    root: run.root,
    cwd: ctx.cwd,
    args,
    env: envOf(ctx),
    ...(stdin ? { stdin: Uint8Array.from(stdin, (c) => c.charCodeAt(0)) } : {}),
    timeoutMs: Math.max(0, run.deadline - Date.now()),
    maxOutputBytes: run.maxOutputBytes,
    signal: run.signal,
  });
  if (r.backendNote) run.note(r.backendNote);
  if (r.runtime) run.ranOn(r.runtime);
  if (r.truncated) run.omitted(r.totalBytes - new TextEncoder().encode(r.output).length);
  if (r.exitCode === null) run.interrupted(r.output);
  // A killed program has no exit code; 124 is what `timeout` reports for the same event.
  return { stdout: r.output, stderr: '', exitCode: r.exitCode ?? 124 };
}

/** The commands to register in just-bash for one run. */
export function nodeCommands(engine: JsEngine, run: CommandRun): Command[] {
  const js = (program: JsRequest['program']) =>
    defineCommand(program, (args, ctx) => runInEngine(engine, run, program, args, ctx));

  const npm = defineCommand('npm', async (args, ctx): Promise<Out> => npmCommand(run, args, ctx));

  // `npx jest …`: with no packages here, npx can only mean the workspace's own runner of that name.
  const npx = defineCommand('npx', async (args, ctx): Promise<Out> => {
    const [name, ...rest] = args;
    if (name !== undefined && SPEC_RUNNERS.has(name) && ctx.exec) {
      const r = await ctx.exec(`${name} 2>&1`, { cwd: ctx.cwd, signal: run.signal, args: rest });
      return { stdout: r.stdout + r.stderr, stderr: '', exitCode: r.exitCode };
    }
    run.note('npx is not available offline');
    return {
      stdout: '',
      stderr: `npx ${name ?? ''} ${OFFLINE_NPM.replace('npm runs', 'Run tests with jest, vitest run, mocha or node --test, or npm')}\n`,
      exitCode: 127,
    };
  });
  return [js('node'), js('jest'), js('vitest'), js('mocha'), npm, npx];
}

/** The script name an npm command line runs, and the arguments passed on to it. */
function scriptOf(args: readonly string[]): { name: string | null; extra: string[] } | { unsupported: string } {
  const [sub, ...rest] = args;
  const extra = (r: string[]) => (r[0] === '--' ? r.slice(1) : r);
  if (sub === undefined || !Object.hasOwn(NPM_SCRIPT_COMMANDS, sub)) return { unsupported: sub ?? '' };
  const script = NPM_SCRIPT_COMMANDS[sub];
  if (script) return { name: script, extra: extra(rest) };
  const [name, ...more] = rest;
  return { name: name ?? null, extra: extra(more) };
}

async function readPackage(
  run: CommandRun,
  cwd: string,
): Promise<{ dir: string; pkg: Record<string, unknown> } | { error: string }> {
  for (let dir = cwd; dir === run.root || dir.startsWith(`${run.root}/`); dir = dir.slice(0, dir.lastIndexOf('/'))) {
    let text: string;
    try {
      text = await run.fs.readFile(`${dir}/package.json`, 'utf8');
    } catch {
      continue;
    }
    try {
      const pkg: unknown = JSON.parse(text);
      return pkg && typeof pkg === 'object' && !Array.isArray(pkg)
        ? { dir, pkg: pkg as Record<string, unknown> }
        : { error: `npm error ${dir}/package.json is not a JSON object` };
    } catch (e) {
      return { error: `npm error code EJSONPARSE\nnpm error JSON.parse Invalid package.json: ${(e as Error).message}` };
    }
  }
  return {
    error: `npm error code ENOENT\nnpm error Could not read package.json: no package.json in ${cwd} or above it in the workspace`,
  };
}

/** Quotes one argument for the line npm shows before a script. */
function quote(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

async function npmCommand(run: CommandRun, args: readonly string[], ctx: ResolvedCommandContext): Promise<Out> {
  const wanted = scriptOf(args);
  if ('unsupported' in wanted) {
    run.note(`npm ${wanted.unsupported} is not available offline`);
    return { stdout: '', stderr: `npm ${wanted.unsupported} ${OFFLINE_NPM}\n`, exitCode: 1 };
  }
  const found = await readPackage(run, ctx.cwd);
  if ('error' in found) return { stdout: '', stderr: `${found.error}\n`, exitCode: 254 };
  const { dir, pkg } = found;
  const scripts = (pkg.scripts && typeof pkg.scripts === 'object' ? pkg.scripts : {}) as Record<string, unknown>;
  if (wanted.name === null) {
    const names = Object.keys(scripts);
    return {
      stdout: names.length
        ? `Scripts available via \`npm run\`:\n${names.map((n) => `  ${n}\n    ${String(scripts[n])}`).join('\n')}\n`
        : '',
      stderr: '',
      exitCode: 0,
    };
  }
  const name = wanted.name;
  if (typeof scripts[name] !== 'string') {
    return {
      stdout: '',
      stderr: `npm error Missing script: "${name}"\nnpm error\nnpm error To see a list of scripts, run:\nnpm error   npm run\n`,
      exitCode: 1,
    };
  }
  if (!ctx.exec) return { stdout: '', stderr: 'npm: the shell cannot run scripts here\n', exitCode: 1 };

  let stdout = '';
  const ws = new MemoryWorkspace(run.fs, run.root);
  const pkgDir = dir === run.root ? '' : dir.slice(run.root.length + 1);
  for (const event of [`pre${name}`, name, `post${name}`]) {
    const script = scripts[event];
    if (typeof script !== 'string') continue;
    const extra = event === name ? wanted.extra : [];
    stdout += `\n> ${String(pkg.name ?? '')}${pkg.version ? `@${String(pkg.version)}` : ''} ${event}\n> ${[script, ...extra.map(quote)].join(' ')}\n\n`;
    const planned = await planScript(ws, pkgDir, script);
    if ('refused' in planned) {
      run.note(`npm ${event}: the script did not run`);
      return {
        stdout: `${stdout}npm error the "${event}" script ${JSON.stringify(script)} could not run in the memory workspace: ${planned.refused.replace(/\.$/, '')}.\nnpm error Make the script one test-runner command (e.g. "jest", "vitest run", "node --test", "mocha") with ws_edit, or run the tests directly with ws_shell.\n`,
        stderr: '',
        exitCode: 1,
      };
    }
    const [program, ...args] = planned.stage.argv;
    // Only the program's quoted name is read by the shell; its arguments reach it unparsed.
    const r = await ctx.exec(`'${program!.replace(/'/g, `'\\''`)}' 2>&1`, {
      cwd: dir,
      signal: run.signal,
      args: [...args, ...extra],
      env: { ...planned.stage.env, npm_lifecycle_event: event, npm_package_name: String(pkg.name ?? '') },
    });
    stdout += r.stdout + r.stderr;
    if (r.exitCode !== 0) return { stdout, stderr: '', exitCode: r.exitCode };
  }
  return { stdout, stderr: '', exitCode: 0 };
}
