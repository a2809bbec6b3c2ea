/**
 * Replay: the recorded raw outputs go through the scripted model into a fresh engine, on the
 * recorded starting workspace, with the recorded settings and the recorded harness; the run is recorded the same way
 * the original was, and each step's result hash and workspace hash are compared. The answer
 * is ✓ reproduced, or the first divergence with why. Runs in a browser worker and in Node: no
 * DOM, no Node builtins.
 *
 * Replay works in a fresh workspace of its own (memory unless the caller hands another),
 * never in a person's project. It approves nothing: a recorded denial is given again, and a
 * recorded approval is history — a gated command does not run unless a person approved that
 * step for this replay (`approved`), and the check says it cannot be reproduced without one.
 */
import { ScriptedModel } from '../agent/models/scripted.ts';
import type { Step } from '../agent/step.ts';
import type { Engine } from '../engine/engine.ts';
import type { EngineSettings } from '../engine/settings.ts';
import type { Workspace } from '../engine/workspace.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import type { Divergence } from './divergence.ts';
import type { Equivalence } from './equivalence.ts';
import { harnessEngine } from './naive-engine.ts';
import type { RecordedStep, Session } from './record.ts';
import { loopSettings, recordRun } from './recorder.ts';
import { ReplayChecker, replayApprovals, type ReplayVerdict } from './replay-check.ts';
import { seedStart } from './start.ts';
import { recordedOutside } from './recorded-outside.ts';
import { boundsText, clampTimeouts, deadlineText, REPLAY_DEADLINE_MS } from './replay-bounds.ts';

export interface ReplayOptions {
  /** A fresh, empty workspace to replay in (default: a new memory workspace). */
  readonly workspace?: Workspace;
  /** Builds the engine (default: the coding tool set this build ships, answered by the harness the record names). */
  readonly engine?: (ws: Workspace, settings: EngineSettings) => Engine;
  /** Called after each step is compared, in order. */
  readonly onCheck?: (check: StepCheck) => void;
  readonly signal?: AbortSignal;
  /** Steps whose gated command a person approved for this replay (never taken from the record). */
  readonly approved?: ReadonlySet<number>;
  /** Engine settings to replay with instead of the record's (a what-if): a difference they explain is said to be theirs. */
  readonly settings?: EngineSettings;
  /** The whole replay's deadline in ms (default REPLAY_DEADLINE_MS). */
  readonly deadlineMs?: number;
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
  /** A shell step's command output, as the replay computed it (what a record's `shellOutput` keeps). */
  readonly shellOutput?: string;
  /** How many web requests of this step were answered from the record instead of the network. */
  readonly webFromRecord?: number;
  /** How many MCP listings and calls of this step were answered from the record instead of the server. */
  readonly mcpFromRecord?: number;
  /** Present when the call was put before an approver: the replay's answer (never the recorded one). */
  readonly approval?: Step['approval'];
  /** Absent when the step reproduced. */
  readonly divergence?: Divergence;
  /** Present when the step reproduced as equivalent, not identical: why, and the diff of the outputs. */
  readonly equivalent?: Equivalence;
  /** The engine's notes on the step (`kind: text`), as a what-if compares them. */
  readonly notes: readonly string[];
  /** False when the call failed (or no call was made). */
  readonly ok: boolean;
}

/** The verdict on the whole record (`checked` of `expected` steps), and every step beside its record. */
export interface ReplayReport extends ReplayVerdict {
  readonly steps: readonly StepCheck[];
  /** Web requests answered from the record (none reached the network). */
  readonly webFromRecord?: number;
  /** MCP listings and calls answered from the record (no server was contacted). */
  readonly mcpFromRecord?: number;
}

/** Replays `session` and compares every step with its record. */
export async function replaySession(session: Session, opts: ReplayOptions = {}): Promise<ReplayReport> {
  const ws = opts.workspace ?? new MemoryWorkspace();
  const recorded = session.steps;
  // A record's timeouts are clamped to this build's defaults, and the whole replay has a deadline.
  const bounded = clampTimeouts(opts.settings ?? session.settings.engine);
  const settings = bounded.settings;
  const deadlineMs = opts.deadlineMs ?? REPLAY_DEADLINE_MS;
  const deadline = AbortSignal.timeout(deadlineMs);
  const signal = opts.signal ? AbortSignal.any([opts.signal, deadline]) : deadline;
  const checker = await ReplayChecker.create(
    session,
    recorded.length,
    ws.runtime ? `${ws.kind} with ${ws.runtime}` : ws.kind,
    ws.runsCommands !== false,
    opts.settings ?? (bounded.clamped.length ? settings : undefined),
  );
  const seeded = await seedStart(ws, session.workspace);
  if (!seeded.ok) return { ...checker.cannotStart(seeded.text), steps: [] };

  // The web requests and MCP calls the record kept are answered from it: a replay never reaches the network.
  const outside = recordedOutside(recorded);
  const engine = opts.engine ? opts.engine(ws, settings) : harnessEngine(ws, settings, session.harness, outside);
  const agent = session.settings.agent;
  const approvals = replayApprovals(recorded, recorded.length, opts.approved);
  const checks: StepCheck[] = [];
  // A check is held back until the next step's prompt shows how the model saw its result.
  let held: Omit<StepCheck, 'seenText'> | undefined;
  const emit = (check: StepCheck) => {
    checks.push(check);
    opts.onCheck?.(check);
  };
  // Checks are async (hashes); they run one after another, in step order.
  let checking: Promise<void> = Promise.resolve();
  const onRecord = (actual: RecordedStep, step: Step) => {
    checking = checking.then(async () => {
      if (held) emit({ ...held, seenText: step.messages.at(-1)?.content ?? held.resultText });
      const check = await checker.check(actual, step);
      held = {
        index: step.index,
        ...(step.call && { tool: step.call.tool }),
        resultText: step.observation,
        notes: step.notes.map((n) => `${n.kind}${n.detail ? ` (${n.detail})` : ''}: ${n.text}`),
        ok: step.result?.ok ?? false,
        ...(actual.shellOutput !== undefined && { shellOutput: actual.shellOutput }),
        ...(actual.web?.length && { webFromRecord: actual.web.length }),
        ...(actual.mcp?.length && { mcpFromRecord: actual.mcp.length }),
        ...(step.approval && { approval: step.approval }),
        ...(check && !check.reproduced && { divergence: check.divergence }),
        ...(check?.reproduced && check.equivalent && { equivalent: check.equivalent }),
      };
    });
  };
  const { result } = await recordRun({
    engine,
    model: new ScriptedModel(
      recorded.map((s) => s.raw),
      { name: 'replay', contextWindow: agent.contextTokens, family: String(session.model.params.family ?? 'scripted') },
    ),
    task: session.task,
    seed: session.model.seed,
    temperature: session.model.temperature,
    ...loopSettings(agent),
    // Every step is replayed: the replay's own answers, never a recorded approval.
    approval: 'auto',
    approve: async (request) => approvals.answer(request) ?? 'unapproved',
    isGated: approvals.isGated,
    // The check of the step before decides what its result reads as in the next prompt.
    gate: async (index) => {
      await checking;
      approvals.at(index);
    },
    seen: (index) => checker.seen(index),
    onRecord,
    signal,
  });

  await checking;
  if (held) emit({ ...held, seenText: held.resultText });
  const hit = deadline.aborted && !opts.signal?.aborted;
  const bounds = boundsText(bounded.clamped, deadlineMs, hit);
  return {
    ...checker.outcome(hit ? deadlineText(deadlineMs) : result.stop),
    steps: checks,
    webFromRecord: outside.webAnswered(),
    mcpFromRecord: outside.mcpAnswered(),
    ...(bounds && { bounds }),
  };
}
