/**
 * The engines for Node hosts (tests, the CLI) using the memory backend: the workspace's files
 * are written to a fresh temporary directory and real `node` (or this machine's `python3`,
 * host-python.ts) runs there — `jest`, `vitest` and `mocha` too, as the project's own runner
 * or the sandbox's Jest-style one (host-jest.ts) — in its own process
 * group with the timeout and the output cap of node-exec.ts, under the host's command sandbox
 * (host-sandbox.ts: bubblewrap with the copy as its only writable directory and no network, or
 * directly where a person accepted that risk, or not at all); the directory is removed after.
 * The result's backendNote says it ran in Node, so a session replayed in the browser (where
 * the sandbox runs instead) can say where its output differs. Files the program writes stay in
 * the temporary copy: the in-memory workspace is not changed by running code.
 */
import { realpathSync } from 'node:fs';
import { mkdtemp, mkdir, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { InMemoryFs } from 'just-bash';
import type { ExecResult, PythonState } from '../../engine/workspace.ts';
import { singleCommand } from '../../engine/workspace.ts';
import { UNSANDBOXED, type CommandSandbox } from '../node/host-sandbox.ts';
import { hostPython, NO_HOST_PYTHON } from '../node/host-python.ts';
import { runPlan } from '../node/node-exec.ts';
import { planHostSpecs, withRunnerTally } from '../node/host-jest.ts';
import { isTimeout, type JsEngine, type JsRequest } from './node-commands.ts';

/**
 * Directories not copied: git data is not code, and dependencies are copied only for a program
 * that runs from them (the project's own test runner).
 */
const SKIPPED = new Set(['node_modules', '.git']);

/** Copies the tree under `dir` (absolute in `fs`) into `to`; symlinks are copied as the files they point at. */
async function materialize(fs: InMemoryFs, dir: string, to: string, modules: boolean): Promise<void> {
  await mkdir(to, { recursive: true });
  for (const e of await fs.readdirWithFileTypes(dir)) {
    if (SKIPPED.has(e.name) && !(modules && e.name === 'node_modules')) continue;
    const from = `${dir}/${e.name}`;
    const st = e.isSymbolicLink ? await fs.stat(from).catch(() => null) : e;
    if (st?.isDirectory) await materialize(fs, from, join(to, e.name), modules);
    else if (st?.isFile) await writeFile(join(to, e.name), await fs.readFileBuffer(from));
  }
}

/** The in-memory shell's exported variables, without those naming its own paths (HOME=/ws, PWD …) or PATH. */
function shellVariables(env: Readonly<Record<string, string>>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (!['HOME', 'PWD', 'OLDPWD', 'PATH', 'SHLVL'].includes(k)) out[k] = v;
  return out;
}

/**
 * What a run adds to the copy: files written over it (paths relative to the root), whether
 * node_modules is copied, and what reads the copy once the program ended, before it is removed.
 */
interface CopyExtras {
  readonly files?: Readonly<Record<string, string>>;
  readonly modules?: boolean;
  readonly settle?: (dir: string, r: ExecResult) => Promise<ExecResult>;
}

/** Runs `argv` (the program first) over a temporary copy of the workspace, under `sandbox`; `where` starts the note. */
async function runOnCopy(
  sandbox: CommandSandbox,
  argv: readonly string[],
  where: string,
  req: JsRequest,
  extras: CopyExtras = {},
): Promise<ExecResult> {
  if (sandbox.kind === 'refused')
    return { exitCode: 126, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: sandbox.note };
  const dir = await realpath(await mkdtemp(join(tmpdir(), `slm-${basename(argv[0] ?? '')}-`)));
  try {
    await materialize(req.fs, req.root, dir, extras.modules ?? false);
    for (const [rel, text] of Object.entries(extras.files ?? {})) {
      await mkdir(dirname(join(dir, rel)), { recursive: true });
      await writeFile(join(dir, rel), text);
    }
    const rel = req.cwd === req.root ? '' : req.cwd.slice(req.root.length + 1);
    const plan = singleCommand(argv, shellVariables(req.env));
    const stage = { ...plan.stages[0]!, stdin: req.stdin ?? ('empty' as const) };
    const r = await runPlan({
      plan: { stages: [stage] },
      root: dir,
      cwd: join(dir, rel),
      timeoutMs: req.timeoutMs,
      maxOutputBytes: req.maxOutputBytes,
      signal: req.signal,
      // The sandbox builds the whole environment from the shell's variables.
      baseEnv: {},
      launch: sandbox.wrap,
    });
    // Paths in the output name the temporary copy; show them as the workspace paths they are.
    const output = r.output.split(dir).join(req.root);
    const inside =
      sandbox.kind === 'bwrap' ? ' inside the bubblewrap sandbox (no network, only the copy writable)' : '';
    const note = `${where} on this machine${inside}, over a temporary copy of the workspace (files it writes are not kept)`;
    // The shell's timeout may abort the run a moment before this engine's own timer: still a timeout.
    const timedOut = r.timedOut || isTimeout(req.signal);
    const why = timedOut ? `killed after ${req.timeoutMs} ms (the whole process group)` : r.backendNote;
    const result = { ...r, output, timedOut, backendNote: why ? `${note}; ${why}` : note };
    return extras.settle ? await extras.settle(dir, result) : result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A result of a program that did not start: `text` is both its output and the note. */
function said(exitCode: number, text: string): ExecResult {
  return {
    exitCode,
    output: `${text}\n`,
    totalBytes: text.length + 1,
    truncated: false,
    timedOut: false,
    backendNote: text,
  };
}

export class NodeJsEngine implements JsEngine {
  readonly runtime = `Node ${process.version}`;

  /** This process's own node, physically (the sandbox mounts its installation, not the links to it). */
  private readonly nodePath = realpathSync(process.execPath);

  /** `sandbox`: what node runs under; tests and scripts that run only their own code may leave it out (no sandbox). */
  constructor(private readonly sandbox: CommandSandbox = UNSANDBOXED) {}

  async run(req: JsRequest): Promise<ExecResult> {
    if (req.program === 'python3') return said(127, 'python3 is not a JavaScript program');
    if (req.program === 'node')
      return runOnCopy(this.sandbox, [this.nodePath, ...req.args], `node ran in Node ${process.version}`, req);
    const plan = await planHostSpecs(req.fs, req.root, req.cwd, req.program, req.args, process.version);
    if (plan.mode === 'print')
      return {
        ...said(plan.exitCode, plan.text.trimEnd()),
        backendNote: `${req.program} ran no tests: the Jest-style runner in Node ${process.version} answered`,
      };
    if (plan.mode === 'own')
      return runOnCopy(this.sandbox, [this.nodePath, plan.bin, ...req.args], plan.note, req, { modules: true });
    return runOnCopy(
      this.sandbox,
      [this.nodePath, ...plan.args],
      plan.note,
      { ...req, stdin: plan.key },
      {
        files: plan.files,
        settle: (dir, r) => withRunnerTally(dir, plan.key, r),
      },
    );
  }
}

/** `python3` for the memory workspace on a Node host: this machine's Python (host-python.ts), run as `node` is. */
export class NodePyEngine implements JsEngine {
  constructor(private readonly sandbox: CommandSandbox = UNSANDBOXED) {}

  state(): PythonState {
    return hostPython() && this.sandbox.kind !== 'refused' ? 'ready' : 'none';
  }

  async run(req: JsRequest): Promise<ExecResult> {
    const python = hostPython();
    if (!python) return said(127, NO_HOST_PYTHON);
    if (req.args[0] === '-m' && req.args[1] === 'pytest' && !python.pytest)
      return said(
        1,
        `pytest is not installed for this machine's Python ${python.version} (${python.executable}); ` +
          "install it there (python3 -m pip install pytest), or run the standard library's runner: python3 -m unittest discover",
      );
    const r = await runOnCopy(
      this.sandbox,
      [python.executable, ...req.args],
      `python3 ran in Python ${python.version}`,
      req,
    );
    return { ...r, runtime: `Python ${python.version}` };
  }
}
