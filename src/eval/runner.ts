/**
 * Running an eval: every task × arm × seed as one recorded session in a fresh workspace, up to
 * `jobs` at a time, each graded after it ends by the task's hidden grader. The host supplies
 * the workspaces (where commands run) and the models; the runner is the same in the CLI and in
 * the engine worker (no DOM, no Node builtins). A stop (the signal) starts nothing new, and a
 * session it interrupts is left out: the results hold the sessions that finished.
 */
import { LOOP_DEFAULTS } from '../agent/loop.ts';
import type { Model } from '../agent/model.ts';
import type { Step, Stop } from '../agent/step.ts';
import type { Session } from '../session/record.ts';
import { recordRun } from '../session/recorder.ts';
import { textFiles } from '../session/tree.ts';
import { detectMechanisms, liveEvidence } from '../session/mechanisms.ts';
import type { Arm } from './arms.ts';
import { armEngine } from './arm-engine.ts';
import { grade, seededWorkspace, type Grade, type WorkspaceFactory } from './grade.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import type { Workspace } from '../engine/workspace.ts';
import type { EvalRun } from './results-schema.ts';
import { failureKind } from './taxonomy.ts';
import type { EvalTask } from './task.ts';

export interface RunSpec {
  readonly task: EvalTask;
  readonly arm: Arm;
  readonly seed: number;
}

export interface EvalLoopSettings {
  /**
   * Attempts per session (1 or 2). With 2, a session whose grader fails gets a second one — in
   * the workspace the first left, told the task again with the failing test output — and the
   * run records whether the first attempt passed (pass@1) beside the final outcome (pass@2).
   */
  readonly attempts?: number;
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
  /** A run finished and was graded: its sessions (the first attempt's, then a second's if it had one). */
  readonly onRun?: (run: EvalRun, sessions: readonly Session[]) => void | Promise<void>;
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

interface RunKey {
  readonly task: { readonly id: string };
  readonly arm: { readonly id: string };
  readonly seed: number;
}

/** Where a session's file goes, relative to the output folder. */
export function sessionPath(spec: RunKey): string {
  return `sessions/${spec.task.id}.${spec.arm.id}.s${spec.seed}.session.json`;
}

/** Where a second attempt's session file goes, beside the first's. */
export function retrySessionPath(spec: RunKey): string {
  return sessionPath(spec).replace(/\.session\.json$/, '.attempt2.session.json');
}

/** Lines of failing test output a second attempt is shown. */
const RETRY_LINES = 50;

/** The task as a second attempt hears it: the statement, then what the tests printed. */
export function retryStatement(task: EvalTask, excerpt: string | undefined): string {
  const output = (excerpt ?? '(the tests printed nothing)').split('\n').slice(-RETRY_LINES).join('\n');
  return `${task.statement}\n\nA previous attempt at this task left the project in its current state, and the tests still fail. Their output:\n\n${output}\n\nFix the code so the tests pass.`;
}

/** Steps each mechanism fired in. */
function mechanismCounts(steps: readonly Step[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const step of steps) for (const id of detectMechanisms(liveEvidence(step))) out[id] = (out[id] ?? 0) + 1;
  return out;
}

interface Attempt {
  readonly session: Session;
  readonly steps: readonly Step[];
  readonly stop: Stop;
  readonly graded: Grade;
  readonly ms: number;
}

/** One session over `ws` with `statement`, graded; null when the signal interrupted it. */
async function attempt(spec: RunSpec, host: EvalHost, ws: Workspace, statement: string): Promise<Attempt | null> {
  const engine = armEngine(ws, spec.arm, { context_window_tokens: host.loop.contextTokens }, host.outside);
  const { model, release } = await host.model(spec);
  const started = performance.now();
  const recorded = await recordRun({
    engine,
    model,
    task: statement,
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
  return { session, steps: result.steps, stop: result.stop, graded, ms };
}

/** One run (a session, and with two attempts a second one when the first failed) and its grade; null when interrupted. */
async function runOne(spec: RunSpec, host: EvalHost): Promise<{ run: EvalRun; sessions: Session[] } | null> {
  const ws = await seededWorkspace(host.openWorkspace, spec.task.files);
  const first = await attempt(spec, host, ws, spec.task.statement);
  if (!first) return null;
  const retry =
    (host.loop.attempts ?? 1) > 1 && !first.graded.passed && first.graded.infrastructure === undefined
      ? await attempt(spec, host, ws, retryStatement(spec.task, first.graded.excerpt))
      : undefined;
  if (retry === null) return null;
  const last = retry ?? first;
  const steps = [...first.steps, ...(retry?.steps ?? [])];
  const run: EvalRun = {
    task: spec.task.id,
    arm: spec.arm.id,
    seed: spec.seed,
    passed: last.graded.passed,
    steps: steps.length,
    tokens: steps.reduce((n, s) => n + s.tokens.prompt + s.tokens.completion, 0),
    tokensEstimated: steps.some((s) => s.tokens.estimated),
    ms: Math.round(first.ms + (retry?.ms ?? 0)),
    session: sessionPath(spec),
    failure:
      last.graded.infrastructure !== undefined
        ? 'infrastructure'
        : failureKind(last.graded.passed, last.stop, last.steps),
    stop: last.stop.kind,
    mechanisms: mechanismCounts(steps),
    grader: { ...last.graded.tally, ...(last.graded.excerpt !== undefined && { excerpt: last.graded.excerpt }) },
    ...((host.loop.attempts ?? 1) > 1 && { passedFirst: first.graded.passed }),
    ...(retry && { retrySession: retrySessionPath(spec) }),
  };
  return { run, sessions: [first.session, ...(retry ? [retry.session] : [])] };
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
      await host.onRun?.(out.run, out.sessions);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(host.jobs, plan.length)) }, worker));
  const runs = done.filter((r): r is EvalRun => r !== undefined);
  return { runs, complete: !interrupted && runs.length === plan.length };
}
