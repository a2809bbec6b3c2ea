/**
 * Replay: the recorded raw outputs go through the scripted model into a fresh engine, on the
 * recorded starting workspace, with the recorded settings; the run is recorded the same way
 * the original was, and each step's result hash and workspace hash are compared. The answer
 * is ✓ reproduced, or the first divergence with why. Runs in a browser worker and in Node: no
 * DOM, no Node builtins.
 *
 * Replay works in a fresh workspace of its own (memory unless the caller hands another),
 * never in a person's project. A person's recorded approve/deny answers are given again
 * inside that sandbox, so a denied call stays denied.
 */
import { ScriptedModel } from '../agent/models/scripted.ts';
import { stopText, type Step } from '../agent/step.ts';
import { createEngine } from '../engine/create.ts';
import type { Engine } from '../engine/engine.ts';
import type { EngineSettings } from '../engine/settings.ts';
import type { Workspace } from '../engine/workspace.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { compareSteps, type Divergence } from './divergence.ts';
import type { RecordedStep, Session } from './record.ts';
import { recordRun } from './recorder.ts';
import { seedStart } from './start.ts';
import { engineVersion } from './version.ts';

export interface ReplayOptions {
  /** A fresh, empty workspace to replay in (default: a new memory workspace). */
  readonly workspace?: Workspace;
  /** Builds the engine (default: `createEngine`, the coding tool set this build ships). */
  readonly engine?: (ws: Workspace, settings: EngineSettings) => Engine;
  /** Called after each step is compared, in order. */
  readonly onCheck?: (check: StepCheck) => void;
  readonly signal?: AbortSignal;
}

/** One replayed step beside its record. */
export interface StepCheck {
  /** 1-based. */
  readonly index: number;
  /** The tool the replayed step called, when its output parsed to a call. */
  readonly tool?: string;
  /** The step's full result text, as the replay computed it (what the result hash covers). */
  readonly resultText: string;
  /**
   * Exactly the text the model saw of this result: as the next step's prompt carried it, cut
   * to fit the context window when it had to be. For the last step, the result as produced.
   */
  readonly seenText: string;
  /** Absent when the step reproduced. */
  readonly divergence?: Divergence;
}

export interface ReplayReport {
  /** True when every recorded step reproduced. */
  readonly ok: boolean;
  readonly steps: readonly StepCheck[];
  /** The first divergence, with why. */
  readonly divergence?: Divergence;
  /** Steps after the first divergence that differ too (usually its consequences). */
  readonly laterDivergences: number;
  readonly recordedVersion: string;
  readonly replayVersion: string;
  /** The backend the replay ran on. */
  readonly backend: string;
  readonly ms: number;
}

/** Replays `session` and compares every step with its record. */
export async function replaySession(session: Session, opts: ReplayOptions = {}): Promise<ReplayReport> {
  const t0 = performance.now();
  const ws = opts.workspace ?? new MemoryWorkspace();
  const replayVersion = await engineVersion();
  const base = { recordedVersion: session.engineVersion, replayVersion, backend: ws.kind };
  const versionNote = session.engineVersion === replayVersion ? '' : ` The session was recorded with engine ${session.engineVersion} and this is ${replayVersion}, so a changed engine can explain it.`;

  const seeded = await seedStart(ws, session.workspace);
  if (!seeded.ok) {
    const divergence: Divergence = { index: 0, kind: 'start', why: `The replay cannot start: ${seeded.text}.` };
    return { ...base, ok: false, steps: [], divergence, laterDivergences: 0, ms: performance.now() - t0 };
  }

  const engine = (opts.engine ?? createEngine)(ws, session.settings.engine);
  const agent = session.settings.agent;
  const recorded = session.steps;
  const checks: StepCheck[] = [];
  let current = 0;
  // A check is held back until the next step's prompt shows how the model saw its result.
  let held: Omit<StepCheck, 'seenText'> | undefined;
  const emit = (check: StepCheck) => {
    checks.push(check);
    opts.onCheck?.(check);
  };
  const onRecord = (actual: RecordedStep, step: Step) => {
    if (held) emit({ ...held, seenText: step.messages.at(-1)?.content ?? held.resultText });
    const expected = recorded[step.index - 1];
    const divergence = expected ? compareSteps(step.index, expected, actual, step, versionNote, ws.runsCommands !== false) : undefined;
    held = { index: step.index, ...(step.call && { tool: step.call.tool }), resultText: step.observation, ...(divergence && { divergence }) };
  };
  const { result } = await recordRun({
    engine,
    model: new ScriptedModel(recorded.map((s) => s.raw), { name: 'replay', contextWindow: agent.contextTokens, family: String(session.model.params.family ?? 'scripted') }),
    task: session.task,
    seed: session.model.seed,
    temperature: session.model.temperature,
    maxSteps: agent.maxSteps,
    contextTokens: agent.contextTokens,
    outputTokens: agent.outputTokens,
    jsonMode: agent.jsonMode,
    stallSteps: agent.stallSteps,
    maxParseFailures: agent.maxParseFailures,
    ...(agent.editFormat && { editFormat: agent.editFormat }),
    // Ask mode with the recorded answers: what was denied is denied again; the rest ran in the original.
    approval: 'ask',
    approve: async (request) => recorded[request.step - 1]?.approval !== 'denied',
    isGated: () => recorded[current - 1]?.approval !== undefined,
    gate: async (index) => {
      current = index;
    },
    onRecord,
    ...(opts.signal && { signal: opts.signal }),
  });

  if (held) emit({ ...held, seenText: held.resultText });
  const diverged = checks.filter((c) => c.divergence);
  let divergence = diverged[0]?.divergence;
  if (!divergence && checks.length < recorded.length) {
    divergence = {
      index: checks.length + 1,
      kind: 'missing',
      why: `The replay ended after ${checks.length} of the ${recorded.length} recorded steps (${stopText(result.stop)}).${versionNote}`,
    };
  }
  const laterDivergences = Math.max(0, diverged.length - 1);
  return { ...base, ok: !divergence, steps: checks, ...(divergence && { divergence }), laterDivergences, ms: performance.now() - t0 };
}
