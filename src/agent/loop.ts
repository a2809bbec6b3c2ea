/**
 * The agent loop: query → parse → execute → record, until done or a limit. A limit is a value
 * (`Stop`) carrying its reason, decided in one place (`limitAfter`). Runs in a worker and in
 * Node: no DOM, no Node builtins, only the engine. Steps are emitted as they happen
 * (`onStep`); pause/step/stop go through the step gate and the AbortSignal.
 */
import type { Engine } from '../engine/engine.ts';
import type { ApprovalMode, Approver, GateCheck } from './approvals.ts';
import { argsJsonSchema, callJsonSchema, toolSpecs } from './call-schema.ts';
import { buildContext, trimOf, type Budget, type PromptParts, type Turn } from './context.ts';
import { overflowOf } from './models/context-errors.ts';
import { CalibratedCounter, countPrompt, memoCounter } from './tokens.ts';
import type { EditFormat, EditFormatBandit } from './evolve.ts';
import {
  toModelError,
  type ChatMessage,
  type Completion,
  type Model,
  type ModelError,
  type TokenCounter,
} from './model.ts';
import { parseCall, type ParseOutcome } from './parse.ts';
import { buildPrompt, type Skill } from './prompt.ts';
import { refusedAgainStop, unfitStop } from './prompt-fit.ts';
import { skillCards } from '../engine/skills/index.ts';
import { onLoad, type LoadTiming } from '../engine/lazy-load.ts';
import { INITIAL_STALL } from './stall.ts';
import { LOOP_DEFAULTS } from './loop-defaults.ts';
import { freezeStep, stopText, type LoopNote, type Step, type StepTiming, type Stop } from './step.ts';
import { executeTurn, type TurnOutcome, type TurnSettings } from './turn.ts';
import { listMcpTools, type McpListing } from './mcp-cards.ts';

export interface LoopOptions {
  readonly engine: Engine;
  readonly model: Model;
  readonly task: string;
  readonly maxSteps?: number;
  readonly seed?: number;
  readonly temperature?: number;
  /** The context window in tokens (default: the model's, else 4096). */
  readonly contextTokens?: number;
  /** Tokens kept free for each reply (and the model's max_tokens). */
  readonly outputTokens?: number;
  /** The share of its room the history is trimmed to once it no longer fits (default TRIM_TO; 1 trims one step at a time). */
  readonly trimTo?: number;
  /** Constrain output to the call schema (JSON mode); false = free text, parsed leniently. */
  readonly jsonMode?: boolean;
  /** The approval mode, or the mode per step (a session run asks only in its live part: its replayed steps get the replay's answers). */
  readonly approval?: ApprovalMode | ((step: number) => ApprovalMode);
  readonly approve?: Approver;
  readonly isGated?: GateCheck;
  readonly stallSteps?: number;
  /** Consecutive replies without a usable call before the run stops. */
  readonly maxParseFailures?: number;
  /** Skill cards for the prompt; default: the engine's bundled skills when ws_skill is registered. */
  readonly skills?: readonly Skill[];
  /** The edit format the prompt recommends; when absent and `evolve` is given, the bandit chooses. */
  readonly editFormat?: EditFormat;
  readonly evolve?: EditFormatBandit;
  /** The project's main language, the bandit's key with the model family. */
  readonly language?: string;
  readonly signal?: AbortSignal;
  /** Awaited before each step: a UI holds it open to pause and resolves it to step. */
  readonly gate?: (nextIndex: number) => Promise<void>;
  readonly onStep?: (step: Step) => void;
  readonly onToken?: (delta: string, index: number) => void;
  /**
   * The text the model saw of an earlier step's result, when it is not the step's own
   * observation: a replay feeds forward the recorded text of a step that reproduced as
   * equivalent, so later prompts are the ones the model was given and nothing cascades.
   * Asked when each prompt is built (after the step gate).
   */
  readonly seen?: (index: number) => string | undefined;
}

export interface RunResult {
  readonly stop: Stop;
  readonly steps: readonly Step[];
  /** The edit format the prompt recommended, when one was chosen. */
  readonly editFormat?: EditFormat;
}

export { LOOP_DEFAULTS } from './loop-defaults.ts';

export async function runLoop(o: LoopOptions): Promise<RunResult> {
  // The configured MCP servers' tools become the prompt's cards (the listing is recorded like a call).
  const run = prepare(o, await listMcpTools(o.engine, o.signal));
  const steps: Step[] = [];
  const end = (stop: Stop): RunResult => ({ stop, steps, ...(run.editFormat && { editFormat: run.editFormat }) });
  let stall = INITIAL_STALL;
  let failures = 0;
  for (let index = 1; ; index++) {
    if (await stoppedBeforeStep(o, index)) return end({ kind: 'stopped' });
    const startedAt = Date.now();
    const t0 = performance.now();
    const asked = await queryFitting(o, run, steps, index);
    if ('stop' in asked) return end(asked.stop);
    const { reply, messages, budget } = asked;
    const t1 = performance.now();
    if (reply.usage) run.calibrate?.observe(messages, reply.usage.promptTokens);
    const parsed = parseCall(reply.text, { tools: run.toolNames, schemas: run.argSchemas });
    // A reply cut at the token limit is not a broken call: the model is told it was cut and to write less.
    const cut = reply.finishReason === 'length' && (!parsed.ok || parsed.repairs.includes('closed-braces'));
    const outcome = cut ? cutReply(reply.text, run.output) : parsed;
    const loads: LoadTiming[] = [];
    const stopListening = onLoad((l) => loads.push(l));
    const turn = await executeTurn(run.turn, outcome, index, stall, cut).finally(stopListening);
    if (!cut) failures = parsed.ok ? 0 : failures + 1;
    stall = turn.stall;
    const stop = turn.stop ?? limitAfter(o, index, failures);
    const timing = { startedAt, modelMs: t1 - t0, toolMs: performance.now() - t1, ...(loads.length > 0 && { loads }) };
    const notes = asked.retried ? [asked.retried] : [];
    const step = record({
      index,
      messages,
      budget,
      reply,
      parsed: outcome,
      turn,
      stop,
      timing,
      notes,
      counter: run.counter,
    });
    steps.push(step);
    o.onStep?.(step);
    o.evolve?.learn(o.model.family, step);
    if (stop) return end(stop);
  }
}

/** The limits checked after every step, in one place. */
function limitAfter(o: LoopOptions, index: number, failures: number): Stop | undefined {
  const maxFailures = o.maxParseFailures ?? LOOP_DEFAULTS.maxParseFailures;
  if (failures >= maxFailures) return { kind: 'parse-failures', count: failures };
  const maxSteps = o.maxSteps ?? LOOP_DEFAULTS.maxSteps;
  if (index >= maxSteps) return { kind: 'max-steps', limit: maxSteps };
  return undefined;
}

interface PreparedRun {
  readonly prompt: PromptParts;
  readonly toolNames: readonly string[];
  /** Each tool's arguments as a JSON schema: the parser reads XML-style text values by it. */
  readonly argSchemas: ReadonlyMap<string, { readonly [key: string]: unknown }>;
  readonly jsonSchema?: object;
  /** The budget's window: the model's, until a refusal for length shrinks it for the rest of the run. */
  window: number;
  /** Counts the prompt: the model's tokenizer, or the calibrated estimate (`calibrate`) it learns from usage. */
  readonly counter: TokenCounter;
  readonly calibrate?: CalibratedCounter;
  readonly output: number;
  readonly editFormat?: EditFormat;
  readonly turn: TurnSettings;
}

function prepare(o: LoopOptions, mcpTools: McpListing | undefined): PreparedRun {
  const specs = toolSpecs(o.engine.tools.values());
  const editFormat = o.editFormat ?? o.evolve?.choose(o.model.family, o.language ?? 'other');
  // The prompt shows the cards of the skills ws_skill can serve, unless the caller chose others.
  const skills = o.skills ?? (o.engine.tools.has('ws_skill') ? skillCards() : []);
  const calibrate = o.model.tokenizer ? undefined : new CalibratedCounter();
  return {
    counter: o.model.tokenizer ? memoCounter(o.model.tokenizer) : calibrate!,
    ...(calibrate && { calibrate }),
    prompt: buildPrompt({
      tools: specs,
      task: o.task,
      ...(editFormat && { editFormat }),
      ...(skills.length && { skills }),
      ...(mcpTools && { mcpTools }),
    }),
    toolNames: specs.map((s) => s.name),
    argSchemas: new Map(specs.map((s) => [s.name, argsJsonSchema(s.schema)])),
    ...((o.jsonMode ?? true) && { jsonSchema: callJsonSchema(specs) }),
    window: o.contextTokens ?? o.model.contextWindow ?? LOOP_DEFAULTS.contextTokens,
    output: o.outputTokens ?? LOOP_DEFAULTS.outputTokens,
    ...(editFormat && { editFormat }),
    turn: {
      engine: o.engine,
      approval: o.approval ?? 'auto',
      stallSteps: o.stallSteps ?? LOOP_DEFAULTS.stallSteps,
      ...(o.approve && { approve: o.approve }),
      ...(o.isGated && { isGated: o.isGated }),
    },
  };
}

interface Asked {
  readonly reply: Completion;
  readonly messages: readonly ChatMessage[];
  readonly budget: Budget;
  /** Present when the model refused the first prompt as too long and a smaller one was sent. */
  readonly retried?: LoopNote;
}

/**
 * Builds the step's prompt within the window and asks the model. A prompt that, trimmed as far
 * as it may be, still leaves no room for the reply is not sent: the run ends as
 * `context-overflow` (prompt-fit.ts). A refusal for length (any engine's, recognised in
 * models/context-errors.ts) rebuilds the prompt once within a smaller budget — the window the
 * refusal named, else three quarters of ours — and the run keeps that budget; a second refusal
 * ends the run as `context-overflow`.
 */
async function queryFitting(
  o: LoopOptions,
  run: PreparedRun,
  steps: readonly Step[],
  index: number,
): Promise<Asked | { stop: Stop }> {
  const turns = steps.map((s) => toTurn(s, o.seen?.(s.index)));
  const previous = steps.length ? trimOf(steps[steps.length - 1]!.budget) : undefined;
  const build = () => buildContext(run.prompt, turns, run.window, run.output, run.counter, previous, o.trimTo);
  const advice = { toolSet: o.engine.settings.tool_set };
  const first = build();
  const unfit = unfitStop(run.counter, first, advice);
  if (unfit) return { stop: unfit };
  const reply = await query(o, run, first.messages, index);
  if (!('error' in reply)) return { reply, ...first };
  if (reply.error.code !== 'context') return { stop: stopFor(o, reply.error) };
  const overflow = overflowOf(reply.error);
  if (overflow.promptTokens !== undefined) run.calibrate?.observe(first.messages, overflow.promptTokens);
  const was = run.window;
  run.window = Math.min(
    Math.floor(was * SHRINK_ON_REFUSAL),
    overflow.window !== undefined ? overflow.window : Infinity,
  );
  const second = build();
  const stillUnfit = unfitStop(run.counter, second, advice, reply.error.message);
  if (stillUnfit) return { stop: stillUnfit };
  const again = await query(o, run, second.messages, index);
  if ('error' in again) {
    if (again.error.code !== 'context') return { stop: stopFor(o, again.error) };
    return { stop: refusedAgainStop(was, run.window, again.error.message) };
  }
  const retried: LoopNote = {
    kind: 'context-retry',
    text: `the model refused a prompt of ${first.budget.window - first.budget.output - first.budget.free} tokens (budget ${was}) as too long for its window; rebuilt within ${run.window} tokens and sent again`,
    detail: String(run.window),
  };
  return { reply: again, ...second, retried };
}

/** The budget a refused prompt is rebuilt within, as a share of the one it had. */
const SHRINK_ON_REFUSAL = 0.75;

function stopFor(o: LoopOptions, err: ModelError): Stop {
  return err.code === 'aborted' || o.signal?.aborted
    ? { kind: 'stopped' }
    : { kind: 'model-error', code: err.code, message: err.message };
}

async function query(
  o: LoopOptions,
  run: PreparedRun,
  messages: readonly ChatMessage[],
  index: number,
): Promise<Completion | { error: ModelError }> {
  try {
    return await o.model.complete(messages, {
      seed: o.seed ?? LOOP_DEFAULTS.seed,
      temperature: o.temperature ?? LOOP_DEFAULTS.temperature,
      maxTokens: run.output,
      ...(run.jsonSchema && { jsonSchema: run.jsonSchema }),
      ...(o.signal && { signal: o.signal }),
      ...(o.onToken && { onToken: (d: string) => o.onToken!(d, index) }),
    });
  } catch (e) {
    return { error: toModelError(e) };
  }
}

/** Waits at the step gate; true when the run was stopped before or while waiting. */
async function stoppedBeforeStep(o: LoopOptions, index: number): Promise<boolean> {
  if (o.signal?.aborted) return true;
  if (!o.gate) return false;
  const signal = o.signal;
  if (!signal) {
    await o.gate(index);
    return false;
  }
  let onAbort: (() => void) | undefined;
  const aborted = new Promise<void>((resolve) => {
    onAbort = resolve;
    signal.addEventListener('abort', onAbort, { once: true });
  });
  await Promise.race([o.gate(index), aborted]);
  signal.removeEventListener('abort', onAbort!);
  return signal.aborted;
}

interface StepParts {
  readonly index: number;
  readonly counter: TokenCounter;
  /** The loop's own notes about the query (a rebuilt prompt). */
  readonly notes: readonly LoopNote[];
  readonly messages: readonly ChatMessage[];
  readonly budget: Budget;
  readonly reply: Completion;
  readonly parsed: ParseOutcome;
  readonly turn: TurnOutcome;
  readonly stop: Stop | undefined;
  readonly timing: StepTiming;
}

/** Assembles the immutable record of one step; a stop other than done is noted on the step that hit it. */
function record(p: StepParts): Step {
  const { parsed, turn, reply } = p;
  const limit =
    p.stop && p.stop.kind !== 'done' ? [{ kind: 'limit' as const, text: stopText(p.stop), detail: p.stop.kind }] : [];
  return freezeStep({
    index: p.index,
    messages: p.messages,
    raw: reply.text,
    ...(reply.exchange && { exchange: reply.exchange }),
    kept: parsed.ok ? parsed.kept : keptFailure(reply.text),
    ...(parsed.ok ? { call: parsed.call } : { parseError: { kind: parsed.error, message: parsed.message } }),
    ...(turn.result && { result: turn.result }),
    observation: turn.observation,
    notes: [...p.notes, ...turn.notes, ...limit],
    ...(turn.approval && { approval: turn.approval }),
    ...(turn.tally && { tally: turn.tally }),
    timing: p.timing,
    // The model's tokenizer when it reports usage; otherwise the budget's own count, flagged unless counted.
    tokens: reply.usage
      ? { prompt: reply.usage.promptTokens, completion: reply.usage.completionTokens, estimated: false }
      : {
          prompt: countPrompt(p.counter, p.messages),
          completion: p.counter.text(reply.text),
          estimated: p.counter.counting !== 'counted',
        },
    budget: p.budget,
  });
}

/** The outcome of a reply cut at the token limit before its call was complete: nothing runs, and the model is told why. */
function cutReply(raw: string, maxTokens: number): ParseOutcome {
  return {
    ok: false,
    error: 'truncated',
    message:
      `Your reply was cut off at the limit of ${maxTokens} tokens for one reply, after ${raw.length} characters, before its call was complete, so nothing ran. ` +
      'Write a smaller change: ws_edit or ws_patch for the lines that change instead of ws_write of a whole file; write a long new file in parts (ws_write a first part, then add the rest with ws_edit).',
  };
}

function toTurn(step: Step, seen: string | undefined): Turn {
  return { index: step.index, call: step.kept, observation: seen ?? step.observation };
}

/** An unparseable reply stays in the history (the model should see what it sent), cut if long. */
const KEPT_FAILURE_CHARS = 1000;

function keptFailure(raw: string): string {
  return raw.length <= KEPT_FAILURE_CHARS ? raw : `${raw.slice(0, KEPT_FAILURE_CHARS)}… [rest of this reply dropped]`;
}
