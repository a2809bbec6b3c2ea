/**
 * Running an eval: every task × arm × seed as one recorded session in a fresh workspace, up to
 * `jobs` at a time, each graded after it ends by the task's hidden grader. The host supplies
 * the workspaces (where commands run) and the models; the runner is the same in the CLI and in
 * the engine worker (no DOM, no Node builtins). A stop (the signal) starts nothing new, and a
 * session it interrupts is left out: the results hold the sessions that finished.
 */
import { LOOP_DEFAULTS } from '../agent/loop.ts';
import type { Model } from '../agent/model.ts';
import type { Step } from '../agent/step.ts';
import type { Session } from '../session/record.ts';
import { recordRun } from '../session/recorder.ts';
import { textFiles } from '../session/tree.ts';
import { detectMechanisms, liveEvidence } from '../session/mechanisms.ts';
import type { Arm } from './arms.ts';
import { armEngine } from './arm-engine.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import { grade, seededWorkspace, type WorkspaceFactory } from './grade.ts';
import type { EvalRun } from './results-schema.ts';
import { failureKind } from './taxonomy.ts';
import type { EvalTask } from './task.ts';

export interface RunSpec {
  readonly task: EvalTask;
  readonly arm: Arm;
  readonly seed: number;
}

export interface EvalLoopSettings {
  readonly maxSteps: number;
  readonly contextTokens: number;
  readonly temperature: number;
  readonly jsonMode: boolean;
}

export const EVAL_DEFAULTS: EvalLoopSettings = Object.freeze({
  maxSteps: LOOP_DEFAULTS.maxSteps,
  contextTokens: LOOP_DEFAULTS.contextTokens,
  temperature: LOOP_DEFAULTS.temperature,
  jsonMode: true,
});

export interface EvalHost {
  readonly openWorkspace: WorkspaceFactory;
  /** The model for one session (a scripted one may depend on the task); `release` is called when the session ends. */
  model(spec: RunSpec): Promise<{ readonly model: Model; readonly release?: () => Promise<void> }>;
  readonly loop: EvalLoopSettings;
  /** Sessions at once: 1 for a model on this machine, more for an endpoint. */
  readonly jobs: number;
  /** What the specialist tools may reach in an arm that turns them on (the CLI gives the web); absent: nothing. */
  readonly outside?: OutsideAccess;
  readonly signal?: AbortSignal;
  readonly onStart?: (spec: RunSpec) => void;
  /** A session finished and was graded. */
  readonly onRun?: (run: EvalRun, session: Session) => void | Promise<void>;
}

export interface EvalOutcome {
  readonly runs: readonly EvalRun[];
  /** False when the signal stopped the eval before every session finished. */
  readonly complete: boolean;
}

/** Every task × arm × seed, in that order (seeds 0 … seeds-1). */
export function planRuns(tasks: readonly EvalTask[], arms: readonly Arm[], seeds: number): RunSpec[] {
  return tasks.flatMap((task) =>
    arms.flatMap((arm) => Array.from({ length: seeds }, (_, seed) => ({ task, arm, seed }))),
  );
}

/** Where a session's file goes, relative to the output folder. */
export function sessionPath(spec: {
  readonly task: { readonly id: string };
  readonly arm: { readonly id: string };
  readonly seed: number;
}): string {
  return `sessions/${spec.task.id}.${spec.arm.id}.s${spec.seed}.session.json`;
}

/** Steps each mechanism fired in. */
function mechanismCounts(steps: readonly Step[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const step of steps) for (const id of detectMechanisms(liveEvidence(step))) out[id] = (out[id] ?? 0) + 1;
  return out;
}

/** One session and its grade; null when the signal interrupted it. */
async function runOne(spec: RunSpec, host: EvalHost): Promise<{ run: EvalRun; session: Session } | null> {
  const ws = await seededWorkspace(host.openWorkspace, spec.task.files);
  const engine = armEngine(ws, spec.arm, { context_window_tokens: host.loop.contextTokens }, host.outside);
  const { model, release } = await host.model(spec);
  const started = performance.now();
  const recorded = await recordRun({
    engine,
    model,
    task: spec.task.statement,
    maxSteps: host.loop.maxSteps,
    seed: spec.seed,
    temperature: host.loop.temperature,
    contextTokens: host.loop.contextTokens,
    jsonMode: host.loop.jsonMode,
    ...(host.signal && { signal: host.signal }),
  }).finally(() => release?.());
  const ms = performance.now() - started;
  const { result, session } = recorded;
  if (result.stop.kind === 'stopped') return null;
  const graded = await grade(spec.task, await textFiles(ws), host.openWorkspace);
  const steps = result.steps;
  const run: EvalRun = {
    task: spec.task.id,
    arm: spec.arm.id,
    seed: spec.seed,
    passed: graded.passed,
    steps: steps.length,
    tokens: steps.reduce((n, s) => n + s.tokens.prompt + s.tokens.completion, 0),
    tokensEstimated: steps.some((s) => s.tokens.estimated),
    ms: Math.round(ms),
    session: sessionPath(spec),
    failure: failureKind(graded.passed, result.stop, steps),
    stop: result.stop.kind,
    mechanisms: mechanismCounts(steps),
    grader: { ...graded.tally, ...(graded.excerpt !== undefined && { excerpt: graded.excerpt }) },
  };
  return { run, session };
}

/** Runs the plan with at most `host.jobs` sessions at once; the runs come back in plan order. */
export async function runEval(plan: readonly RunSpec[], host: EvalHost): Promise<EvalOutcome> {
  const done: (EvalRun | undefined)[] = new Array(plan.length);
  let next = 0;
  let interrupted = false;
  const worker = async () => {
    while (next < plan.length && !host.signal?.aborted) {
      const i = next++;
      const spec = plan[i]!;
      host.onStart?.(spec);
      const out = await runOne(spec, host);
      if (!out) {
        interrupted = true;
        return;
      }
      done[i] = out.run;
      await host.onRun?.(out.run, out.session);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(host.jobs, plan.length)) }, worker));
  const runs = done.filter((r): r is EvalRun => r !== undefined);
  return { runs, complete: !interrupted && runs.length === plan.length };
}
