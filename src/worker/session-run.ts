/**
 * Runs from a recorded session, in the engine worker. One mechanism serves three uses: opening a
 * link or a file (replay every recorded step and check it), restoring a run a reload cut short,
 * and "continue from here" (replay the first steps to rebuild the engine's state — seen files,
 * checkpoints, the loop guard, the context — then let a live model go on).
 *
 * The replayed raw outputs go through the loop again, in a fresh workspace seeded from the
 * record, with the record's engine and agent settings; each step's result and workspace hashes
 * are compared with the record by the same `compareSteps` the CLI's replay uses. The record's
 * header for a new recording is built here too, from the very values the loop is given.
 */
import { LOOP_DEFAULTS, type LoopOptions } from '../agent/loop.ts';
import { ModelError, type ChatMessage, type CompleteOptions, type Completion, type Model } from '../agent/model.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { recordedRunById } from '../agent/scripts/starter-run.ts';
import { stopText, type Step, type Stop } from '../agent/step.ts';
import { createEngine } from '../engine/create.ts';
import type { Engine } from '../engine/engine.ts';
import { isGatedShellCall } from '../engine/tools/run-command.ts';
import { compareSteps, type Divergence } from '../session/divergence.ts';
import { MAX_SESSION_FILE_BYTES, parseSessionFile } from '../session/share-codec.ts';
import { refuseRecord, type SessionCheck } from '../session/validate.ts';
import { modelKind, RECORD_VERSION, RECORD_LIMITS, type AgentSettings, type RecordedStep, type Session } from '../session/record.ts';
import { seedStart, type StartDescription } from '../session/start.ts';
import { engineVersion } from '../session/version.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { MemoryWorkspace, NO_RUNNER_NOTE } from '../workspace/memory/memory-workspace.ts';
import type { ReplayVerdict, SessionHeader, StepCheckView } from './protocol.ts';

/** The loop options an agent-settings record stands for: the one mapping used by recording and replay alike. */
export function loopSettings(agent: AgentSettings): Pick<LoopOptions, 'maxSteps' | 'contextTokens' | 'outputTokens' | 'jsonMode' | 'stallSteps' | 'maxParseFailures' | 'editFormat'> {
  return {
    maxSteps: agent.maxSteps,
    contextTokens: agent.contextTokens,
    outputTokens: agent.outputTokens,
    jsonMode: agent.jsonMode,
    stallSteps: agent.stallSteps,
    maxParseFailures: agent.maxParseFailures,
    ...(agent.editFormat && { editFormat: agent.editFormat }),
  };
}

/** The agent settings of a live run from the start screen: its step limit and context window, the loop's defaults for the rest. */
export function liveAgentSettings(maxSteps: number, contextTokens: number): AgentSettings {
  return {
    maxSteps,
    contextTokens,
    outputTokens: LOOP_DEFAULTS.outputTokens,
    jsonMode: true,
    stallSteps: LOOP_DEFAULTS.stallSteps,
    maxParseFailures: LOOP_DEFAULTS.maxParseFailures,
  };
}

export interface HeaderParts {
  readonly engine: Engine;
  readonly model: Model;
  readonly task: string;
  readonly agent: AgentSettings;
  readonly seed: number;
  readonly temperature: number;
  /** The starting workspace, described before step 1. */
  readonly start: StartDescription;
  readonly createdAt: string;
}

/** The record's header for a run about to start: what `recordRun` writes at the end, known before step 1. */
export async function sessionHeader(p: HeaderParts): Promise<SessionHeader> {
  const settings = p.engine.settings;
  return {
    v: RECORD_VERSION,
    engineVersion: await engineVersion(),
    createdAt: p.createdAt,
    settings: { engine: { ...settings, disabled_rungs: [...settings.disabled_rungs] }, agent: p.agent },
    model: {
      id: p.model.id,
      kind: modelKind(p.model.id),
      params: { family: p.model.family, ...(p.model.contextWindow !== undefined && { contextWindow: p.model.contextWindow }) },
      seed: p.seed,
      temperature: p.temperature,
    },
    task: p.task,
    workspace: p.start.ref,
  };
}

/** Whether replaying `session` needs a workspace that can run `node` (the JavaScript sandbox). */
export function needsRunner(session: Session): boolean {
  return !session.steps.some((s) => s.shellOutput?.includes(NO_RUNNER_NOTE));
}

export type SessionWorkspace =
  | { readonly ok: true; readonly engine: Engine; readonly backend: string; readonly runsCommands: boolean }
  | { readonly ok: false; readonly text: string };

/** A fresh memory workspace seeded from the record, and an engine with the record's settings. */
export async function openSessionWorkspace(session: Session): Promise<SessionWorkspace> {
  const runner = needsRunner(session);
  const ws = new MemoryWorkspace(undefined, undefined, runner ? sandboxRunner() : undefined);
  const seeded = await seedStart(ws, session.workspace);
  if (!seeded.ok) return { ok: false, text: `The replay cannot start: ${seeded.text}.` };
  return { ok: true, engine: createEngine(ws, session.settings.engine), backend: runner ? 'memory (with the JavaScript sandbox)' : 'memory (no process runner)', runsCommands: runner };
}

/**
 * The model of a session run: the recorded raw outputs first, then the live model. Replay only
 * (no live model): past the recorded outputs the run ends with a message that says where to go.
 */
export class PrefixModel implements Model {
  readonly id: string;
  readonly family: string;
  readonly contextWindow?: number;
  #next = 0;

  constructor(
    private readonly outputs: readonly string[],
    private readonly live: Model | null,
    family: string,
  ) {
    this.id = live?.id ?? 'scripted:replay';
    this.family = live?.family ?? family;
    if (live?.contextWindow !== undefined) this.contextWindow = live.contextWindow;
  }

  complete(messages: readonly ChatMessage[], opts: CompleteOptions): Promise<Completion> {
    if (opts.signal?.aborted) return Promise.reject(new ModelError('aborted', 'The model request was stopped.'));
    const text = this.outputs[this.#next];
    if (text !== undefined) {
      this.#next++;
      opts.onToken?.(text);
      return Promise.resolve({ text });
    }
    if (this.live) return this.live.complete(messages, opts);
    const n = this.outputs.length;
    return Promise.reject(new ModelError('exhausted', `the recording ends here: its ${n} recorded step${n === 1 ? ' was' : 's were'} replayed. To go on, pick a step and press "Continue from here".`));
  }
}

/**
 * The scripted model continuing a record it made: its outputs after the `upTo` already replayed.
 * Other scripts do not fit another run's steps, so they are refused with what to pick instead.
 */
export function scriptedContinuation(recordedId: string, session: Session, upTo: number, contextWindow: number): Model {
  const recorded = recordedRunById(recordedId);
  if (!recorded || session.model.id !== `scripted:${recorded.id}`) {
    throw new Error(`The scripted model has recorded turns only for its own run, not for this session (recorded with ${session.model.id}); to continue it, pick an endpoint or WebLLM on the start screen.`);
  }
  return new ScriptedModel(recorded.outputs.slice(upTo), { name: recorded.id, contextWindow });
}

/** The approval hooks for a session run: recorded answers for replayed steps, the person's for the live ones. */
export interface ReplayApprovals {
  /** Call from the step gate with the index of the step about to run. */
  at(index: number): void;
  isGated(tool: string, args: unknown): Promise<boolean>;
  /** For a replayed step, the recorded answer (what was denied stays denied); else undefined: ask the person. */
  recordedAnswer(step: number): boolean | undefined;
}

export function replayApprovals(recorded: readonly RecordedStep[], upTo: number): ReplayApprovals {
  let current = 0;
  return {
    at: (index) => (current = index),
    // A replayed step goes before the approver exactly when the original asked someone; its answer is the recorded one.
    isGated: async (tool, args) => (current <= upTo ? recorded[current - 1]?.approval !== undefined : isGatedShellCall(tool, args)),
    recordedAnswer: (step) => (step <= upTo ? recorded[step - 1]?.approval !== 'denied' : undefined),
  };
}

/** Compares each replayed step with its record and gives the verdict once the replayed part is over. */
export class ReplayChecker {
  readonly #checks: StepCheckView[] = [];
  readonly #t0 = performance.now();
  #verdict: ReplayVerdict | null = null;

  private constructor(
    private readonly recorded: readonly RecordedStep[],
    readonly upTo: number,
    private readonly versions: { readonly recorded: string; readonly replay: string },
    private readonly backend: string,
    private readonly runsCommands: boolean,
  ) {}

  /** `backend` names the replay's workspace for people; `runsCommands` says whether it can run a command at all. */
  static async create(session: Session, upTo: number, backend: string, runsCommands: boolean): Promise<ReplayChecker> {
    return new ReplayChecker(session.steps, upTo, { recorded: session.engineVersion, replay: await engineVersion() }, backend, runsCommands);
  }

  /** The check of a step within the replayed part; undefined for a live step. */
  check(actual: RecordedStep, step: Step): StepCheckView | undefined {
    const expected = this.recorded[step.index - 1];
    if (step.index > this.upTo || !expected) return undefined;
    const divergence = compareSteps(step.index, expected, actual, step, this.#versionNote(), this.runsCommands);
    const view: StepCheckView = divergence ? { reproduced: false, divergence } : { reproduced: true };
    this.#checks.push(view);
    return view;
  }

  /** True once every step of the replayed part has been checked. */
  get complete(): boolean {
    return this.#checks.length >= this.upTo;
  }

  /** The verdict (once): after the last replayed step, or when the run ended before it with `stop`. */
  verdict(stop?: Stop): ReplayVerdict | null {
    if (this.#verdict) return null;
    const diverged = this.#checks.flatMap((c) => (c.reproduced ? [] : [c.divergence]));
    let divergence: Divergence | undefined = diverged[0];
    if (!divergence && !this.complete) {
      const n = this.#checks.length;
      divergence = { index: n + 1, kind: 'missing', why: `The replay ended after ${n} of the ${this.upTo} recorded steps (${stop ? stopText(stop) : 'it stopped'}).${this.#versionNote()}` };
    }
    this.#verdict = {
      ok: !divergence,
      checked: this.#checks.length,
      expected: this.upTo,
      ...(divergence && { divergence }),
      laterDivergences: Math.max(0, diverged.length - 1),
      recordedVersion: this.versions.recorded,
      replayVersion: this.versions.replay,
      backend: this.backend,
      ms: performance.now() - this.#t0,
    };
    return this.#verdict;
  }

  #versionNote(): string {
    const { recorded, replay } = this.versions;
    return recorded === replay ? '' : ` The session was recorded with engine ${recorded} and this is ${replay}, so a changed engine can explain it.`;
  }
}

/**
 * Why a run ended, for people: a replay-only run that used up a recording which stops without
 * done (a run cut short) has not failed, it has reached the end of what was recorded.
 */
export function endText(stop: Stop, replay: { readonly continues: boolean } | undefined): string {
  if (replay && !replay.continues && stop.kind === 'model-error' && stop.code === 'exhausted') return stop.message;
  return stopText(stop);
}

/** How many steps a continuation may take in all: the replayed ones plus the live budget, within the record's bound. */
export function continuationSteps(upTo: number, liveSteps: number): number {
  return Math.min(RECORD_LIMITS.steps, upTo + liveSteps);
}

/** Checks a session file the page handed over; a file over the cap is refused before it is read. */
export async function openSessionFile(file: Blob): Promise<SessionCheck> {
  if (file.size > MAX_SESSION_FILE_BYTES) {
    const n = (x: number) => x.toLocaleString('en-US');
    return refuseRecord('too-large', `The file is ${n(file.size)} bytes, more than the ${n(MAX_SESSION_FILE_BYTES)} a session file may have, so it was not read. Is it a session file (.session.json)?`);
  }
  return parseSessionFile(await file.text());
}
