/**
 * Recording a run: the agent loop as it is, plus a Session record built step by step — the
 * raw output, the hash of the observation the model saw and the hash of the workspace after
 * the step. Replay records its own run the same way and compares the two records, so both
 * sides hash through exactly this code.
 */
import { LOOP_DEFAULTS, runLoop, type LoopOptions, type RunResult } from '../agent/loop.ts';
import type { EditFormat } from '../agent/evolve.ts';
import type { Step } from '../agent/step.ts';
import { stepRuntime } from '../engine/exec-output.ts';
import { TEST_TOOLS } from '../engine/tally.ts';
import { WORKSPACE_PATH, type Workspace } from '../engine/workspace.ts';
import { factsHash } from './equivalence.ts';
import { shortHash } from './hash.ts';
import { engineHarness } from './naive-engine.ts';
import {
  modelKind,
  RECORD_VERSION,
  type AgentSettings,
  type ModelInfo,
  type RecordedStep,
  type Session,
} from './record.ts';
import { describeStart } from './start.ts';
import { workspaceHash } from './tree.ts';
import { engineVersion } from './version.ts';

export interface RecordOptions extends LoopOptions {
  /** When the run started (ISO 8601); defaults to now. The example builder fixes it so regenerated files are identical. */
  readonly createdAt?: string;
  /** Called with each step's record as soon as its hashes are known, before the next step runs. */
  readonly onRecord?: (record: RecordedStep, step: Step) => void;
}

export interface RecordedRun {
  readonly result: RunResult;
  readonly session: Session;
  /** Starting entries the record could not carry, each with its reason (see `describeStart`). */
  readonly unrecorded: readonly string[];
}

/** Runs the loop and records the session. The workspace is described before the first step changes it. */
export async function recordRun(o: RecordOptions): Promise<RecordedRun> {
  const ws = o.engine.workspace;
  const start = await describeStart(ws);
  const steps: RecordedStep[] = [];
  // Hashing is async; the next step must not touch the workspace before this one's hash is taken.
  // The loop awaits its gate before every step, so the gate waits for the pending record.
  let pending: Promise<void> = Promise.resolve();
  const result = await runLoop({
    ...o,
    onStep: (step) => {
      pending = pending.then(async () => {
        const state = o.engine.state;
        const record = await recordStep(step, ws, state.webLog.splice(0), state.mcpLog.splice(0));
        steps.push(record);
        o.onRecord?.(record, step);
      });
      o.onStep?.(step);
    },
    gate: async (index) => {
      await pending;
      await o.gate?.(index);
    },
  });
  await pending;
  const header = await recordHeader(
    o,
    agentSettings(o, result.editFormat),
    start.ref,
    o.createdAt ?? new Date().toISOString(),
  );
  return { result, session: { ...header, steps }, unrecorded: start.unrecorded };
}

/** The loop options that shape what the model sees, which a record's agent settings stand for. */
export type AgentOptions = Pick<
  LoopOptions,
  'maxSteps' | 'contextTokens' | 'outputTokens' | 'jsonMode' | 'stallSteps' | 'maxParseFailures' | 'editFormat'
>;

/**
 * The agent settings a run records, with the loop's own defaults filled in; the context window
 * falls back on the model's. `editFormat` is the one the run used (the loop may choose it).
 */
export function agentSettings(
  o: AgentOptions & { readonly model?: Pick<LoopOptions['model'], 'contextWindow'> },
  editFormat?: EditFormat,
): AgentSettings {
  return {
    maxSteps: o.maxSteps ?? LOOP_DEFAULTS.maxSteps,
    contextTokens: o.contextTokens ?? o.model?.contextWindow ?? LOOP_DEFAULTS.contextTokens,
    outputTokens: o.outputTokens ?? LOOP_DEFAULTS.outputTokens,
    jsonMode: o.jsonMode ?? true,
    stallSteps: o.stallSteps ?? LOOP_DEFAULTS.stallSteps,
    maxParseFailures: o.maxParseFailures ?? LOOP_DEFAULTS.maxParseFailures,
    ...(editFormat && { editFormat }),
  };
}

/** The loop options a record's agent settings stand for: the one mapping replay and continuing use. */
export function loopSettings(agent: AgentSettings): AgentOptions {
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

/** The model a run records: its id, kind and parameters, with the seed and temperature it ran at. */
export function modelInfo(o: Pick<LoopOptions, 'model' | 'seed' | 'temperature'>): ModelInfo {
  const { model } = o;
  return {
    id: model.id,
    kind: modelKind(model.id),
    params: { family: model.family, ...(model.contextWindow !== undefined && { contextWindow: model.contextWindow }) },
    seed: o.seed ?? LOOP_DEFAULTS.seed,
    temperature: o.temperature ?? LOOP_DEFAULTS.temperature,
  };
}

/**
 * Everything of a record but its steps. `recordRun` writes it at the end; the engine worker
 * sends it before step 1, so the page can save a run after every step.
 */
export async function recordHeader(
  o: Pick<LoopOptions, 'engine' | 'model' | 'task' | 'seed' | 'temperature'>,
  agent: AgentSettings,
  workspace: Session['workspace'],
  createdAt: string,
): Promise<Omit<Session, 'steps'>> {
  const engine = o.engine.settings;
  const harness = engineHarness(o.engine);
  return {
    v: RECORD_VERSION,
    engineVersion: await engineVersion(),
    createdAt,
    settings: {
      engine: {
        ...engine,
        disabled_rungs: [...engine.disabled_rungs],
        web_domains: [...engine.web_domains],
        mcp_servers: engine.mcp_servers.map(({ args, ...m }) => ({ ...m, ...(args && { args: [...args] }) })),
      },
      agent,
    },
    // Which harness answered the tools, so a replay answers them the same way.
    ...(harness && { harness }),
    model: modelInfo(o),
    task: o.task,
    workspace,
  };
}

/**
 * A step ran a command when its tool is a shell or test tool, or when done made a final test
 * run: its output depends on the backend (just-bash, Node, WebContainer), so it is recorded.
 */
export function isShellStep(step: Step): boolean {
  if (!step.call || !step.result) return false;
  return TEST_TOOLS.has(step.call.tool) || step.notes.some((n) => n.kind === 'final-tests');
}

/**
 * `web`: the requests the step's tool made, with their answers; `mcp`: the MCP listings and calls
 * (the first step's includes the listing for the prompt's cards) — so a replay answers them offline.
 */
async function recordStep(
  step: Step,
  ws: Workspace,
  web: RecordedStep['web'],
  mcp: RecordedStep['mcp'],
): Promise<RecordedStep> {
  // A command that ran python3 says Python's runtime; other commands ran on the workspace's.
  const runtime = stepRuntime(step.result?.notes ?? []) ?? ws.runtime;
  return {
    raw: step.raw,
    ...(step.call && { call: { tool: step.call.tool, args: step.call.args } }),
    resultHash: await shortHash(step.observation),
    workspaceHash: await workspaceHash(ws),
    resultText: step.observation,
    ...(isShellStep(step) && {
      backend: ws.kind,
      ...(runtime !== undefined && { runtime }),
      ...(ws.commandRoot !== undefined && ws.commandRoot !== WORKSPACE_PATH && { root: ws.commandRoot }),
      shellOutput: step.result!.text,
      shellHash: await shortHash(step.result!.text),
      shellFacts: await factsHash(step.result!.text, ws.commandRoot),
    }),
    ...(step.tally && { tally: { ...step.tally } }),
    ...(step.approval && { approval: step.approval }),
    ...(web?.length && { web }),
    ...(mcp?.length && { mcp }),
  };
}
