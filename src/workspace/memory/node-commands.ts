/**
 * `node`, `npm` and `npx` inside the offline shell (just-bash has none of them). `node` hands
 * its arguments to a JsEngine — the browser's sandbox or, on a Node host, real Node over a
 * copy of the files. `npm test` / `npm run NAME` run the package.json script (with its pre- and
 * post-scripts) back through the same shell, so a script's `node --test` reaches the engine
 * too. Everything that needs a registry or node_modules says plainly that it is not available.
 */
import { defineCommand, type Command, type InMemoryFs, type ResolvedCommandContext } from 'just-bash';
import type { ExecResult } from '../../engine/workspace.ts';

/** One `node` invocation for a JsEngine. */
export interface JsRequest {
  readonly fs: InMemoryFs;
  /** The workspace root in `fs`. */
  readonly root: string;
  /** The working directory, absolute in `fs`. */
  readonly cwd: string;
  /** node's arguments (without "node"). */
  readonly args: readonly string[];
  readonly env: Readonly<Record<string, string>>;
  readonly timeoutMs: number;
  readonly maxOutputBytes: number;
  readonly signal: AbortSignal;
}

/** Runs JavaScript for the memory workspace; the result's backendNote says where it ran. */
export interface JsEngine {
  /** What `node` runs on, for people and records (`Node v22.1.0`, `the browser's JavaScript sandbox`). */
  readonly runtime?: string;
  run(req: JsRequest): Promise<ExecResult>;
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
}

type Out = { stdout: string; stderr: string; exitCode: number };

const OFFLINE_NPM =
  'is not available in the offline workspace: there is no registry and no node_modules here. ' +
  'npm runs package.json scripts only (npm test, npm run NAME).';

function envOf(ctx: ResolvedCommandContext): Record<string, string> {
  return ctx.exportedEnv ? { ...ctx.exportedEnv } : Object.fromEntries(ctx.env);
}

/** The commands to register in just-bash for one run. */
export function nodeCommands(engine: JsEngine, run: CommandRun): Command[] {
  const node = defineCommand('node', async (args, ctx): Promise<Out> => {
    const r = await engine.run({
      fs: run.fs,
      root: run.root,
      cwd: ctx.cwd,
      args,
      env: envOf(ctx),
      timeoutMs: Math.max(0, run.deadline - Date.now()),
      maxOutputBytes: run.maxOutputBytes,
      signal: run.signal,
    });
    if (r.backendNote) run.note(r.backendNote);
    if (r.truncated) run.omitted(r.totalBytes - new TextEncoder().encode(r.output).length);
    if (r.exitCode === null) run.interrupted(r.output);
    // A killed program has no exit code; 124 is what `timeout` reports for the same event.
    return { stdout: r.output, stderr: '', exitCode: r.exitCode ?? 124 };
  });

  const npm = defineCommand('npm', async (args, ctx): Promise<Out> => npmCommand(run, args, ctx));

  const npx = defineCommand('npx', async (args): Promise<Out> => {
    run.note('npx is not available offline');
    return {
      stdout: '',
      stderr: `npx ${args[0] ?? ''} ${OFFLINE_NPM.replace('npm runs', 'Run tests with node --test, or npm')}\n`,
      exitCode: 127,
    };
  });
  return [node, npm, npx];
}

/** The script name an npm command line runs, and the arguments passed on to it. */
function scriptOf(args: readonly string[]): { name: string | null; extra: string[] } | { unsupported: string } {
  const [sub, ...rest] = args;
  const extra = (r: string[]) => (r[0] === '--' ? r.slice(1) : r);
  switch (sub) {
    case 'test':
    case 't':
    case 'tst':
      return { name: 'test', extra: extra(rest) };
    case 'start':
    case 'stop':
    case 'restart':
      return { name: sub, extra: extra(rest) };
    case 'run':
    case 'run-script':
    case 'rum':
    case 'urn': {
      const [name, ...more] = rest;
      return { name: name ?? null, extra: extra(more) };
    }
    default:
      return { unsupported: sub ?? '' };
  }
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

/** Quotes one argument for the shell line a script is run as. */
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
  for (const event of [`pre${name}`, name, `post${name}`]) {
    const script = scripts[event];
    if (typeof script !== 'string') continue;
    const line = event === name && wanted.extra.length ? `${script} ${wanted.extra.map(quote).join(' ')}` : script;
    stdout += `\n> ${String(pkg.name ?? '')}${pkg.version ? `@${String(pkg.version)}` : ''} ${event}\n> ${line}\n\n`;
    // A group, so stderr joins stdout for the whole script, and a trailing `# comment` stays on its line.
    const r = await ctx.exec(`{ ${line}\n} 2>&1`, {
      cwd: dir,
      signal: run.signal,
      env: { npm_lifecycle_event: event, npm_package_name: String(pkg.name ?? '') },
    });
    stdout += r.stdout + r.stderr;
    if (r.exitCode !== 0) return { stdout, stderr: '', exitCode: r.exitCode };
  }
  return { stdout, stderr: '', exitCode: 0 };
}
