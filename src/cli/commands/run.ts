/**
 * `slm run --model SPEC --task TEXT --root DIR [...]`: runs the agent loop headless over a
 * project directory and, with --out, writes the Session record (src/session/record.ts: the
 * settings, the model, the task, the starting files, every step's raw output with its result
 * and workspace hashes) that `slm replay` verifies. One progress line per step goes to stderr, the
 * reason the run ended to stdout. Exit 0 when the run ended with done, 1 when it ended any
 * other way (step limit, model failure, no usable calls, Ctrl-C), 2 for usage errors.
 */
import { readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { createEngine } from '../../engine/create.ts';
import { nodeOutside } from '../outside.ts';
import { walkTree } from '../../engine/walk.ts';
import { dominantLanguage, EDIT_FORMATS, EditFormatBandit, type EditFormat } from '../../agent/evolve.ts';
import { LOOP_DEFAULTS, runLoop, type LoopOptions } from '../../agent/loop.ts';
import { recordRun } from '../../session/recorder.ts';
import type { Model } from '../../agent/model.ts';
import { OpenAIModel } from '../../agent/models/openai.ts';
import { ScriptedModel } from '../../agent/models/scripted.ts';
import { stopText, type Step } from '../../agent/step.ts';
import { timedModel, type StepSpeed } from '../../agent/models/step-speed.ts';
import type { TrainedContext } from '../../agent/models/gguf-node.ts';
import { EXIT, parseOptions, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';
import { FileBanditStore } from '../evolve-store.ts';
import { openRoot } from '../root.ts';
import { missingPackage, NO_NODE_LLAMA_CPP } from '../optional-package.ts';
import { chooseSandbox, SANDBOX_OPTIONS, SANDBOX_USAGE } from '../sandbox-option.ts';
import { parseSettingsArg } from '../settings-arg.ts';

const USAGE = `slm run --model SPEC --task TEXT --root DIR [--out FILE] [--max-steps N] [--context TOKENS]
        [--seed N] [--temperature T] [--free-text] [--tools-api] [--edit-format FORMAT] [--evolve FILE] [--settings JSON] [--unsandboxed-commands]
    Runs the agent loop headless over DIR and writes the session record (JSON, replayable with slm replay) to --out.
    The model's commands run in the OS sandbox (bubblewrap). ${SANDBOX_USAGE}
    SPEC is openai:BASE_URL#MODEL (an OpenAI-compatible endpoint, e.g. openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b;
    the key comes from SLM_API_KEY or OPENAI_API_KEY), gguf:FILE (a GGUF model run on this machine's CPU by llama.cpp, e.g.
    gguf:qwen2.5-coder-0.5b-instruct-q4_k_m.gguf; each step's line then shows its speed) or scripted:FILE (a JSON array of
    recorded raw outputs).
    --max-steps defaults to ${LOOP_DEFAULTS.maxSteps}, --context to ${LOOP_DEFAULTS.contextTokens} tokens, --seed to ${LOOP_DEFAULTS.seed}, --temperature to ${LOOP_DEFAULTS.temperature}.
    With gguf:, the window is at most the context the file says the model was trained on (<arch>.context_length).
    --free-text turns JSON mode off; --tools-api (openai: only) sends the tool schemas as the server's tools instead of
    response_format, so a server that parses its model's own call format (vLLM, llama.cpp's server, Ollama) returns
    tool_calls; the first is the step's call, the rest are dropped as in any reply with several calls. --edit-format (${EDIT_FORMATS.join('|')}) fixes the recommended edit format;
    --evolve FILE lets the edit-format bandit in FILE choose it and learn from the run.
    Exit 0 when the run ended with done, 1 when it ended otherwise, 2 for usage errors.`;

const OPTIONS = {
  model: { type: 'string' },
  task: { type: 'string' },
  root: { type: 'string' },
  out: { type: 'string' },
  'max-steps': { type: 'string' },
  context: { type: 'string' },
  seed: { type: 'string' },
  temperature: { type: 'string' },
  'free-text': { type: 'boolean' },
  'tools-api': { type: 'boolean' },
  'edit-format': { type: 'string' },
  evolve: { type: 'string' },
  settings: { type: 'string' },
  ...SANDBOX_OPTIONS,
} as const;

interface RunRequest {
  readonly model: string;
  readonly task: string;
  readonly root: string;
  readonly out?: string;
  readonly maxSteps: number;
  readonly context: number;
  /** --context was given (else `context` is the default). */
  readonly contextGiven: boolean;
  readonly seed: number;
  readonly temperature: number;
  readonly jsonMode: boolean;
  readonly toolsApi: boolean;
  readonly editFormat?: EditFormat;
  readonly evolve?: string;
  readonly settings?: string;
  readonly unsandboxed: boolean;
}

function usage(message: string): UsageError {
  return new UsageError(`slm run: ${message}`, USAGE);
}

function parseCommandLine(argv: readonly string[]): RunRequest {
  const v = parseOptions(argv, OPTIONS, usage);
  if (v.model === undefined) throw usage('--model SPEC is required: openai:BASE_URL#MODEL, gguf:FILE or scripted:FILE');
  if (v.task === undefined || !v.task.trim()) throw usage('--task TEXT is required: what the agent should do');
  if (v.root === undefined) throw usage('--root DIR is required: the project directory the agent works in');
  const editFormat = v['edit-format'];
  if (editFormat !== undefined && !(EDIT_FORMATS as readonly string[]).includes(editFormat)) {
    throw usage(`--edit-format must be one of ${EDIT_FORMATS.join(', ')}, not ${JSON.stringify(editFormat)}`);
  }
  const toolsApi = v['tools-api'] ?? false;
  if (toolsApi && !v.model.startsWith('openai:'))
    throw usage('--tools-api needs an endpoint: use it with --model openai:BASE_URL#MODEL');
  if (toolsApi && v['free-text'])
    throw usage(
      'give --tools-api or --free-text, not both: --tools-api sends the call schema as tools, --free-text sends no schema',
    );
  if (editFormat !== undefined && v.evolve !== undefined)
    throw usage('give --edit-format or --evolve, not both: the bandit chooses the format');
  return {
    model: v.model,
    task: v.task,
    root: v.root,
    ...(v.out !== undefined && { out: v.out }),
    maxSteps: intOption('--max-steps', v['max-steps'], LOOP_DEFAULTS.maxSteps, 1),
    context: intOption('--context', v.context, LOOP_DEFAULTS.contextTokens, 1024),
    contextGiven: v.context !== undefined,
    seed: intOption('--seed', v.seed, LOOP_DEFAULTS.seed, 0),
    temperature: numberOption('--temperature', v.temperature, LOOP_DEFAULTS.temperature),
    jsonMode: !(v['free-text'] ?? false),
    toolsApi,
    ...(editFormat !== undefined && { editFormat: editFormat as EditFormat }),
    ...(v.evolve !== undefined && { evolve: v.evolve }),
    ...(v.settings !== undefined && { settings: v.settings }),
    unsandboxed: v['unsandboxed-commands'] ?? false,
  };
}

function intOption(name: string, text: string | undefined, fallback: number, min: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isInteger(n) || n < min)
    throw usage(`${name} must be a whole number ≥ ${min}, not ${JSON.stringify(text)}`);
  return n;
}

function numberOption(name: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const n = Number(text);
  if (!Number.isFinite(n) || n < 0 || n > 2)
    throw usage(`${name} must be a number from 0 to 2, not ${JSON.stringify(text)}`);
  return n;
}

/** The base URL of an `openai:BASE_URL#MODEL` spec (find_models lists that endpoint's own models), else undefined. */
function endpointOf(spec: string): string | undefined {
  if (!spec.startsWith('openai:')) return undefined;
  const rest = spec.slice('openai:'.length);
  const hash = rest.lastIndexOf('#');
  return hash > 0 ? rest.slice(0, hash) : undefined;
}

/** A model for the run; `close` frees what it holds (a local engine). */
export interface RunModel {
  readonly model: Model;
  readonly close?: () => Promise<void>;
  /** What the trained context of a local model's file did to the window asked for (`contextWindow` is the result). */
  readonly trained?: TrainedContext | 'unknown';
}

/** `openai:BASE_URL#MODEL`, `gguf:FILE` or `scripted:FILE`; `onSpeed` hears each step's speed where it is measured (gguf). */
export async function makeModel(
  spec: string,
  context: number,
  toolsApi: boolean,
  onSpeed: (speed: StepSpeed) => void,
): Promise<RunModel> {
  if (spec.startsWith('gguf:')) {
    const file = spec.slice('gguf:'.length);
    if (!file) throw usage(`--model gguf: names no file: write gguf:FILE.gguf`);
    // node-llama-cpp is loaded only for a gguf run, and may not be installed (an optional dependency).
    const { loadGgufNode } = await import('../../agent/models/gguf-node.ts').catch((e: unknown) => {
      throw missingPackage(e) === 'node-llama-cpp' ? usage(`--model ${spec}: ${NO_NODE_LLAMA_CPP}`) : e;
    });
    const model = await loadGgufNode({ file, contextTokens: context }).catch((e: unknown) => {
      throw usage(`--model ${spec}: ${(e as Error).message}`);
    });
    return { model: timedModel(model, onSpeed), close: () => model.dispose(), trained: model.trained ?? 'unknown' };
  }
  return { model: await remoteOrScripted(spec, context, toolsApi) };
}

async function remoteOrScripted(spec: string, context: number, toolsApi: boolean): Promise<Model> {
  if (spec.startsWith('openai:')) {
    const rest = spec.slice('openai:'.length);
    const hash = rest.lastIndexOf('#');
    if (hash < 0 || hash === rest.length - 1)
      throw usage(
        `--model ${spec} names no model: write openai:BASE_URL#MODEL, e.g. openai:http://127.0.0.1:11434/v1#qwen2.5-coder:1.5b`,
      );
    const baseUrl = rest.slice(0, hash);
    if (!/^https?:\/\/[^/]/.test(baseUrl))
      throw usage(`--model ${spec}: the base URL must start with http:// or https://`);
    const apiKey = process.env.SLM_API_KEY ?? process.env.OPENAI_API_KEY;
    return new OpenAIModel({
      baseUrl,
      model: rest.slice(hash + 1),
      contextWindow: context,
      toolsApi,
      ...(apiKey && { apiKey }),
    });
  }
  if (spec.startsWith('scripted:')) {
    const file = spec.slice('scripted:'.length);
    let value: unknown;
    try {
      value = JSON.parse(await readFile(file, 'utf8'));
    } catch (e) {
      throw usage(
        `--model ${spec}: cannot read ${file} as JSON (${(e as Error).message}); give a JSON array of raw model outputs`,
      );
    }
    if (!Array.isArray(value) || !value.every((x) => typeof x === 'string')) {
      throw usage(`--model ${spec}: ${file} must hold a JSON array of strings (the raw outputs, one per step)`);
    }
    return new ScriptedModel(value as string[], { name: file, contextWindow: context });
  }
  throw usage(
    `--model ${JSON.stringify(spec)} is not a model spec: use openai:BASE_URL#MODEL, gguf:FILE or scripted:FILE`,
  );
}

/** The window a GGUF model runs at, in words: the one asked for, or less where the file says the model was trained on less. */
function windowLine(window: number, req: RunRequest, trained: TrainedContext | 'unknown'): string {
  const n = (tokens: number) => tokens.toLocaleString('en-US');
  const asked = req.contextGiven ? `--context ${req.context}` : `the default ${n(req.context)}`;
  if (trained === 'unknown') return `context window: ${n(window)} tokens (${asked}; the file names no trained context)`;
  return window < req.context
    ? `context window: ${n(window)} tokens, the context the model was trained on (${trained.key}), less than ${asked}`
    : `context window: ${n(window)} tokens (${asked}; the model was trained on ${n(trained.tokens)}, ${trained.key})`;
}

/** The session is written after the run: refuse up front a --out whose directory is missing, rather than lose the run. */
async function checkOutDir(out: string): Promise<void> {
  const dir = dirname(resolve(out));
  const st = await stat(dir).catch(() => null);
  if (!st?.isDirectory())
    throw usage(`--out ${out}: the directory ${dir} does not exist; create it or write the session elsewhere`);
}

/** One stderr line per step: index, tool, outcome, notable notes, and the model's speed when measured. */
function progressLine(step: Step, speed: StepSpeed | undefined): string {
  const what = step.call ? step.call.tool : `(no call: ${step.parseError?.kind})`;
  const outcome = step.result
    ? step.result.ok
      ? 'ok'
      : `failed — ${step.result.text.split('\n')[0]!.slice(0, 120)}`
    : 'retry';
  const notes = [
    ...(step.result?.notes ?? []).filter((n) => n.kind !== 'checkpoint'),
    ...step.notes.filter((n) => n.kind !== 'repair'),
  ].map((n) => n.kind);
  return `step ${step.index} ${what} ${outcome}${notes.length ? ` [${notes.join(', ')}]` : ''}${speed ? ` (${speedText(speed)})` : ''}\n`;
}

function speedText(s: StepSpeed): string {
  const tps = (n: number | undefined) => (n === undefined ? '?' : n.toFixed(0));
  return `first token ${s.ttftMs.toFixed(0)} ms, prefill ${tps(s.prefillTps)} tok/s, decode ${tps(s.decodeTps)} tok/s${s.cachedTokens ? `, ${s.cachedTokens} prompt tokens cached` : ''}`;
}

async function runRun(argv: readonly string[], io: CliIO): Promise<number> {
  const req = parseCommandLine(argv);
  const settings = req.settings === undefined ? undefined : parseSettingsArg(req.settings);
  if (settings && !settings.ok) throw usage(settings.text);
  const root = await openRoot(req.root, await chooseSandbox('run', req.unsandboxed, io));
  if (!root.ok) throw usage(root.text);
  if (req.out !== undefined) await checkOutDir(req.out);
  let speed: StepSpeed | undefined;
  const { model, close, trained } = await makeModel(req.model, req.context, req.toolsApi, (s) => (speed = s));
  // A local model's window is at most what it was trained on: the loop budgets for that one.
  const context = Math.min(req.context, model.contextWindow ?? req.context);
  if (trained) io.stderr.write(`${windowLine(context, req, trained)}\n`);
  const store = req.evolve === undefined ? undefined : new FileBanditStore(req.evolve);
  let bandit: EditFormatBandit | undefined;
  try {
    bandit = store && new EditFormatBandit(await store.load(), req.seed + 1);
  } catch (e) {
    throw usage((e as Error).message);
  }

  // The read ceiling (~15% of the window) must follow the window the model really has.
  const engine = createEngine(
    root.ws,
    { context_window_tokens: context, ...settings?.settings },
    { outside: nodeOutside({ sandbox: root.ws.sandbox, root: root.ws.root }, endpointOf(req.model)) },
  );
  const ac = new AbortController();
  const onSigint = () => ac.abort();
  process.once('SIGINT', onSigint);
  const files = bandit
    ? (await walkTree(root.ws, '', { maxEntries: 5000 })).entries.filter((e) => e.type === 'file').map((e) => e.path)
    : [];
  const options: LoopOptions = {
    engine,
    model,
    task: req.task,
    maxSteps: req.maxSteps,
    seed: req.seed,
    temperature: req.temperature,
    contextTokens: context,
    jsonMode: req.jsonMode,
    signal: ac.signal,
    onStep: (step) => {
      io.stderr.write(progressLine(step, speed));
      speed = undefined;
    },
    ...(req.editFormat && { editFormat: req.editFormat }),
    ...(bandit && { evolve: bandit, language: dominantLanguage(files) }),
  };
  // Recording describes the starting files and hashes the tree after every step: only when a session is wanted.
  const running =
    req.out === undefined
      ? runLoop(options).then((result) => ({ result, session: undefined, unrecorded: [] }))
      : recordRun(options);
  const { result, session, unrecorded } = await running.finally(async () => {
    process.off('SIGINT', onSigint);
    await close?.();
  });
  if (store && bandit) await store.save(bandit.toJSON());

  if (req.out !== undefined && session) {
    for (const entry of unrecorded) io.stderr.write(`not in the session: ${entry}\n`);
    await writeFile(req.out, `${JSON.stringify(session, null, 2)}\n`);
  }
  await writeOut(
    io.stdout,
    `${stopText(result.stop)} (${result.steps.length} step${result.steps.length === 1 ? '' : 's'})\n`,
  );
  return result.stop.kind === 'done' ? EXIT.ok : EXIT.failed;
}

/** The `run` subcommand. */
export const runCommand: CommandEntry = {
  summary: 'runs the agent loop headless on a directory and writes the session',
  usage: USAGE,
  run: runRun,
};
