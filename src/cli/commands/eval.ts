/**
 * `slm eval --model SPEC --out DIR [--suite builtin|DIR] [--arms on,off,…] [--seeds N] [--jobs J]`:
 * runs every task × arm × seed as a recorded session (src/eval/runner.ts) and writes, under
 * --out, every session file (`sessions/…`, replayable with `slm replay`), `results.json`
 * (rewritten after every finished session, so Ctrl-C keeps what finished), `results.md` and
 * `report.html`. The tasks' tests and graders run in memory workspaces whose `node` runs in the
 * OS sandbox. A progress bar goes to stderr, the arm table to stdout. Exit 0 when every session
 * ran, 1 when the eval was interrupted, 2 for usage errors.
 */
import { openAsBlob } from 'node:fs';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { metaString, readGgufHeader } from '../../agent/models/gguf-header.ts';
import type { Model } from '../../agent/model.ts';
import { ARMS, chooseArms } from '../../eval/arms.ts';
import { modelInfo, REFERENCE_MODEL } from '../../eval/model-label.ts';
import { referenceModel } from '../../eval/reference-model.ts';
import { markdownReport } from '../../eval/report-md.ts';
import { htmlReport } from '../../eval/report-html.ts';
import { armTable } from '../../eval/report-rows.ts';
import { buildResults } from '../../eval/results.ts';
import type { EvalRun, ModelInfo } from '../../eval/results-schema.ts';
import { nodeOutside } from '../outside.ts';
import { EVAL_DEFAULTS, planRuns, runEval, type EvalLoopSettings, type RunSpec } from '../../eval/runner.ts';
import type { EvalTask } from '../../eval/task.ts';
import { BUILTIN_TASKS } from '../../eval/tasks/index.ts';
import { EXIT, parseOptions, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';
import { loadSuite, pickTasks } from '../eval-suite.ts';
import { shardOf } from '../../eval/merge.ts';
import { runImport } from './eval-import.ts';
import { runMerge } from './eval-merge.ts';
import { sandboxedMemoryWorkspaces } from '../eval-workspace.ts';
import { chooseSandbox, SANDBOX_OPTIONS, SANDBOX_USAGE } from '../sandbox-option.ts';
import { makeModel } from './run.ts';

const USAGE = `slm eval --model SPEC --out DIR [--suite builtin|DIR] [--tasks ID,…] [--arms on,off[,ARM…]] [--seeds N] [--jobs J]
        [--max-steps N] [--context TOKENS] [--temperature T] [--free-text] [--tools-api] [--attempts 1|2] [--shard I/N]
        [--unsandboxed-commands]
slm eval merge DIR… --out DIR
slm eval import exercism DIR --out SUITE [--language javascript|typescript|python]
    Runs every task × arm × seed as a recorded session and writes DIR/sessions/*.session.json (replayable with slm replay),
    DIR/results.json, DIR/results.md (the table) and DIR/report.html. A progress bar goes to stderr; Ctrl-C keeps what finished.
    SPEC is as for slm run (openai:BASE_URL#MODEL, gguf:FILE, scripted:FILE) or ${REFERENCE_MODEL} (scripted turns that apply each
    task's reference solution: a pipeline check). Scripted and test-model runs are labelled: their numbers mean nothing.
    --suite: builtin (the ${BUILTIN_TASKS.length} bundled tasks) or a folder of *.task.json files. --tasks keeps only the named tasks.
    --arms (default on,off): ${ARMS.map((a) => a.id).join(', ')}.
    --seeds (default 1) runs each task and arm with seeds 0…N-1; --jobs (default 1) runs J sessions at once (not with gguf:,
    which holds one model on this machine). --max-steps defaults to ${EVAL_DEFAULTS.maxSteps}, --context to ${EVAL_DEFAULTS.contextTokens}, --temperature to ${EVAL_DEFAULTS.temperature}.
    --attempts 2: a session whose tests fail gets a second one in the workspace it left, shown the failing output
    (Aider's benchmark protocol); results record pass@1 (passedFirst) and pass@2 (passed).
    --shard I/N runs every N-th session of the plan from the I-th (1 ≤ I ≤ N), so N machines share an eval; slm eval merge
    joins their output folders into one results.json and report, refusing shards of different evals and naming missing runs.
    slm eval import writes a suite from a checkout in the Exercism layout (exercises/practice/*/ with .meta/config.json).
    A run whose grader could not start or finish is an infrastructure failure: listed apart, left out of every rate.
    Tests run in the OS sandbox (bubblewrap). ${SANDBOX_USAGE}
    Exit 0 when every session ran and was graded, 1 when interrupted or when any grader could not run, 2 for usage errors.`;

const OPTIONS = {
  model: { type: 'string' },
  out: { type: 'string' },
  suite: { type: 'string' },
  tasks: { type: 'string' },
  arms: { type: 'string' },
  seeds: { type: 'string' },
  jobs: { type: 'string' },
  'max-steps': { type: 'string' },
  context: { type: 'string' },
  temperature: { type: 'string' },
  'free-text': { type: 'boolean' },
  'tools-api': { type: 'boolean' },
  shard: { type: 'string' },
  attempts: { type: 'string' },
  ...SANDBOX_OPTIONS,
} as const;

function usage(message: string): UsageError {
  return new UsageError(`slm eval: ${message}`, USAGE);
}

function whole(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw usage(`${name} must be a whole number ≥ ${min}, not ${JSON.stringify(text)}`);
  return n;
}

interface EvalRequest {
  readonly model: string;
  readonly out: string;
  readonly suite: string;
  readonly tasks?: string;
  readonly arms: string;
  readonly seeds: number;
  readonly jobs: number;
  readonly loop: EvalLoopSettings;
  readonly toolsApi: boolean;
  readonly unsandboxed: boolean;
  readonly shard?: { readonly index: number; readonly count: number };
}

function attempts(text: string | undefined): number {
  if (text === undefined) return 1;
  if (text !== '1' && text !== '2') throw usage(`--attempts must be 1 or 2, not ${JSON.stringify(text)}`);
  return Number(text);
}

function parseShard(text: string): { index: number; count: number } {
  const m = /^(\d+)\/(\d+)$/.exec(text);
  const index = Number(m?.[1]);
  const count = Number(m?.[2]);
  if (!m || count < 1 || index < 1 || index > count)
    throw usage(`--shard must be I/N with 1 ≤ I ≤ N (as in 2/4), not ${JSON.stringify(text)}`);
  return { index, count };
}

function parseCommandLine(argv: readonly string[]): EvalRequest {
  const v = parseOptions(argv, OPTIONS, usage);
  if (v.model === undefined)
    throw usage(`--model SPEC is required: openai:BASE_URL#MODEL, gguf:FILE, scripted:FILE or ${REFERENCE_MODEL}`);
  if (v.out === undefined)
    throw usage('--out DIR is required: the folder the sessions, results.json and the reports go to');
  const temperature = v.temperature === undefined ? EVAL_DEFAULTS.temperature : Number(v.temperature);
  if (!Number.isFinite(temperature) || temperature < 0 || temperature > 2)
    throw usage(`--temperature must be a number from 0 to 2, not ${JSON.stringify(v.temperature)}`);
  const jobs = whole('--jobs', v.jobs, 1, 1);
  if (jobs > 1 && v.model.startsWith('gguf:'))
    throw usage(
      '--jobs above 1 needs an endpoint or a scripted model: a gguf: model runs one session at a time on this machine',
    );
  const toolsApi = v['tools-api'] ?? false;
  if (toolsApi && !v.model.startsWith('openai:'))
    throw usage('--tools-api needs an endpoint: use it with --model openai:BASE_URL#MODEL');
  if (toolsApi && v['free-text']) throw usage('give --tools-api or --free-text, not both');
  return {
    model: v.model,
    out: v.out,
    suite: v.suite ?? 'builtin',
    ...(v.tasks !== undefined && { tasks: v.tasks }),
    arms: v.arms ?? 'on,off',
    seeds: whole('--seeds', v.seeds, 1, 1),
    jobs,
    loop: {
      attempts: attempts(v.attempts),
      maxSteps: whole('--max-steps', v['max-steps'], EVAL_DEFAULTS.maxSteps, 1),
      contextTokens: whole('--context', v.context, EVAL_DEFAULTS.contextTokens, 1024),
      temperature,
      jsonMode: !(v['free-text'] ?? false),
    },
    toolsApi,
    unsandboxed: v['unsandboxed-commands'] ?? false,
    ...(v.shard !== undefined && { shard: parseShard(v.shard) }),
  };
}

/** Models per session: the reference model per task, a fresh scripted or endpoint model per session, one gguf model shared in turn. */
interface ModelSource {
  readonly info: ModelInfo;
  forRun(spec: RunSpec): Promise<{ readonly model: Model }>;
  close(): Promise<void>;
}

async function modelSource(spec: string, req: EvalRequest): Promise<ModelSource> {
  const context = req.loop.contextTokens;
  const made = (s: string) =>
    makeModel(s, context, req.toolsApi, () => {}).catch((e: unknown) => {
      // makeModel speaks for slm run; its messages are about the same --model option.
      throw e instanceof UsageError ? usage(e.message.replace(/^slm run: /, '')) : e;
    });
  if (spec === REFERENCE_MODEL)
    return {
      info: modelInfo(spec),
      forRun: async (s) => ({ model: referenceModel(s.task, context) }),
      close: async () => {},
    };
  if (spec.startsWith('gguf:')) {
    const name = await ggufName(spec.slice('gguf:'.length));
    const shared = await made(spec);
    return {
      info: modelInfo(spec, name),
      forRun: async () => ({ model: shared.model }),
      close: async () => shared.close?.(),
    };
  }
  await made(spec); // the spec is checked (and a scripted file read) before anything runs
  return { info: modelInfo(spec), forRun: async () => ({ model: (await made(spec)).model }), close: async () => {} };
}

async function ggufName(file: string): Promise<string | undefined> {
  try {
    return metaString(await readGgufHeader(await openAsBlob(file)), 'general.name');
  } catch {
    return undefined; // loading the model names what is wrong with the file
  }
}

/** Writes through a temporary file, so an interrupted eval never leaves half a results.json. */
async function writeAtomic(path: string, text: string): Promise<void> {
  const tmp = `${path}.${process.pid}.tmp`;
  await writeFile(tmp, text);
  await rename(tmp, path);
}

/** The progress bar on stderr: redrawn in place on a terminal, one line per finished session otherwise. */
class Progress {
  private finished = 0;
  private passed = 0;
  private msTotal = 0;
  private readonly started = Date.now();

  constructor(
    private readonly io: CliIO,
    private readonly total: number,
    private readonly jobs: number,
  ) {}

  private get tty(): boolean {
    return (this.io.stderr as { isTTY?: boolean }).isTTY === true;
  }

  done(run: EvalRun): void {
    this.finished++;
    if (run.passed) this.passed++;
    this.msTotal += run.ms;
    const width = 30;
    const filled = Math.round((this.finished / this.total) * width);
    const left = ((this.msTotal / this.finished) * (this.total - this.finished)) / this.jobs;
    const bar = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${this.finished}/${this.total} sessions, ${this.passed} passed, ~${Math.ceil(left / 1000)} s left`;
    const last = `${run.task} ${run.arm} s${run.seed}: ${run.passed ? 'passed' : `failed (${run.failure})`}`;
    this.io.stderr.write(this.tty ? `\r\x1b[2K${bar} — ${last}` : `${bar} — ${last}\n`);
  }

  end(): void {
    if (this.tty) this.io.stderr.write('\n');
    this.io.stderr.write(
      `${this.finished} of ${this.total} sessions in ${((Date.now() - this.started) / 1000).toFixed(1)} s\n`,
    );
  }
}

async function runEvalCommand(argv: readonly string[], io: CliIO): Promise<number> {
  if (argv[0] === 'merge') return runMerge(argv.slice(1), io);
  if (argv[0] === 'import') return runImport(argv.slice(1), io);
  const req = parseCommandLine(argv);
  const arms = chooseArms(req.arms);
  if (!arms.ok) throw usage(`--arms: ${arms.text}`);
  const suite = await loadSuite(req.suite);
  if (!suite.ok) throw usage(suite.text);
  const picked = pickTasks(suite.tasks, req.tasks);
  if (!picked.ok) throw usage(picked.text);
  const sandbox = await chooseSandbox('eval', req.unsandboxed, io);
  if (sandbox.kind === 'refused') throw usage(`the tasks' tests cannot run: ${sandbox.note}`);
  const source = await modelSource(req.model, req);
  const tasks: readonly EvalTask[] = picked.tasks;
  if (source.info.label !== 'real') await writeOut(io.stderr, `slm eval: ${source.info.note}\n`);

  await mkdir(join(req.out, 'sessions'), { recursive: true });
  const everyRun = planRuns(tasks, arms.arms, req.seeds);
  const plan = req.shard ? shardOf(everyRun, req.shard.index, req.shard.count) : everyRun;
  const createdAt = new Date().toISOString();
  const finished: EvalRun[] = [];
  const results = (complete: boolean) =>
    buildResults({
      suite: req.suite,
      model: source.info,
      createdAt,
      arms: arms.arms,
      seeds: req.seeds,
      tasks,
      runs: finished,
      complete,
      ...(req.shard && { shard: req.shard }),
      ...(req.loop.attempts !== undefined && req.loop.attempts > 1 && { attempts: req.loop.attempts }),
    });
  const progress = new Progress(io, plan.length, req.jobs);
  const ac = new AbortController();
  const onSigint = () => {
    io.stderr.write('\nslm eval: stopping — the sessions that finished are kept\n');
    ac.abort();
  };
  process.once('SIGINT', onSigint);
  let complete = false;
  let saving: Promise<void> = Promise.resolve();
  try {
    const outcome = await runEval(plan, {
      openWorkspace: sandboxedMemoryWorkspaces(sandbox),
      model: (spec) => source.forRun(spec),
      loop: req.loop,
      jobs: req.jobs,
      outside: nodeOutside(),
      signal: ac.signal,
      onRun: async (run, sessions) => {
        const files = [run.session, ...(run.retrySession !== undefined ? [run.retrySession] : [])];
        for (const [i, session] of sessions.entries()) {
          const file = join(req.out, files[i]!);
          await mkdir(dirname(file), { recursive: true });
          await writeFile(file, `${JSON.stringify(session, null, 2)}\n`);
        }
        finished.push(run);
        // Sessions finish side by side: one write at a time, each with every run finished so far.
        saving = saving.then(() =>
          writeAtomic(join(req.out, 'results.json'), `${JSON.stringify(results(false), null, 2)}\n`),
        );
        await saving;
        progress.done(run);
      },
    });
    complete = outcome.complete;
  } finally {
    process.off('SIGINT', onSigint);
    await source.close();
    progress.end();
    await saving.catch(() => {}); // the final write below replaces it
    // In plan order, whatever order the jobs finished in.
    const order = new Map(plan.map((s, i) => [`${s.task.id}\0${s.arm.id}\0${s.seed}`, i]));
    finished.sort(
      (a, b) => order.get(`${a.task}\0${a.arm}\0${a.seed}`)! - order.get(`${b.task}\0${b.arm}\0${b.seed}`)!,
    );
    const final = results(complete);
    await writeAtomic(join(req.out, 'results.json'), `${JSON.stringify(final, null, 2)}\n`);
    await writeFile(join(req.out, 'results.md'), markdownReport(final));
    await writeFile(join(req.out, 'report.html'), htmlReport(final));
    const table = armTable(final);
    const lines = [
      source.info.label === 'real' ? '' : `NOT A MEASUREMENT (${source.info.label}): ${source.info.note}`,
      table.head.join(' | '),
      ...table.rows.map((r) => r.join(' | ')),
    ];
    await writeOut(
      io.stdout,
      `${lines.filter(Boolean).join('\n')}\nwrote ${join(req.out, 'results.json')}, results.md, report.html and ${finished.length} session file(s)\n`,
    );
  }
  const infrastructure = finished.filter((r) => r.failure === 'infrastructure');
  if (infrastructure.length)
    await writeOut(
      io.stderr,
      `slm eval: ${infrastructure.length} run(s) could not be graded (${infrastructure.map((r) => `${r.task} ${r.arm} s${r.seed}`).join(', ')}): the grader could not start or finish, so they are left out of the rates; see each run's grader excerpt in results.json\n`,
    );
  return complete && !infrastructure.length ? EXIT.ok : EXIT.failed;
}

/** The `eval` subcommand. */
export const evalCommand: CommandEntry = {
  summary: 'runs tasks × arms × seeds as recorded sessions and writes the results table',
  usage: USAGE,
  run: runEvalCommand,
};
