/**
 * Later steps continue from the text the model saw: a replayed step that is equivalent to its
 * record (its command printed other text where backends differ, with the same facts) goes
 * forward as the recorded text, so every later prompt is the one the model was given and the
 * later steps stay identical. The replay here runs on a runtime that prints one more stack line
 * than the one that recorded, as real Node does beside the browser's sandbox.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import type { Step } from '../../src/agent/step.ts';
import { STARTER_RUN } from '../../src/agent/scripts/starter-run.ts';
import { createEngine } from '../../src/engine/create.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import type { ExecOptions, ExecPlan, ExecResult } from '../../src/engine/workspace.ts';
import { sharedForm, type Session } from '../../src/session/record.ts';
import { agentSettings, loopSettings, recordRun } from '../../src/session/recorder.ts';
import { replaySession } from '../../src/session/replay.ts';
import { seedStart, shortTemplateHash } from '../../src/session/start.ts';
import { SandboxJsEngine } from '../../src/workspace/memory/js-sandbox.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { ShellRunner } from '../../src/workspace/memory/shell-runner.ts';
import { STARTER_TEMPLATE } from '../../src/workspace/templates/index.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { threadWorker } from '../support/sandbox-thread.ts';

beforeAll(() => useNodeWasm());

const STACK_LINE = '    at process.processTicksAndRejections (node:internal/process/task_queues:95:5)';

/** The browser's runtime, except that a failing run prints one more internal stack line: another backend's own frames. */
class OtherRuntime extends MemoryWorkspace {
  constructor() {
    super(undefined, undefined, new ShellRunner(new SandboxJsEngine(threadWorker)));
  }
  override get runtime(): string {
    return 'a runtime with its own stack frames';
  }
  override async exec(plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    const r = await super.exec(plan, opts);
    if (r.exitCode === 0) return r;
    const output = r.output.replace(/^(\s*stack: .*)$/m, `$1\n${STACK_LINE}`);
    return { ...r, output };
  }
}

const browser = () => new MemoryWorkspace(undefined, undefined, new ShellRunner(new SandboxJsEngine(threadWorker)));

/** The starter run (its first ws_test fails a test) recorded on the browser's runtime, with the steps as the model saw them. */
async function recordStarter(): Promise<{ session: Session; steps: readonly Step[] }> {
  const ws = browser();
  const workspace = { template: { id: STARTER_TEMPLATE.id, hash: shortTemplateHash(STARTER_TEMPLATE.hash) } };
  const seeded = await seedStart(ws, workspace);
  if (!seeded.ok) throw new Error(seeded.text);
  const agent = agentSettings({});
  const { session, result } = await recordRun({
    engine: createEngine(ws, DEFAULT_SETTINGS),
    model: new ScriptedModel(STARTER_RUN.outputs, { family: 'scripted' }),
    task: STARTER_TEMPLATE.task,
    ...loopSettings(agent),
    approval: 'auto',
  });
  return { session, steps: result.steps };
}

describe('an equivalent step cascades nothing', () => {
  it('goes forward as the recorded text: every later prompt is the recorded one and every later step identical', async () => {
    const { session, steps } = await recordStarter();
    const report = await replaySession(session, { workspace: new OtherRuntime() });
    expect(report.ok).toBe(true);
    const equivalent = report.steps.filter((s) => s.equivalent).map((s) => s.index);
    expect(equivalent.length).toBeGreaterThan(0);
    const first = equivalent[0]!;
    // The replay computed other text for the equivalent step than the model saw when it was recorded…
    expect(report.steps[first - 1]!.resultText).toContain(STACK_LINE);
    expect(session.steps[first - 1]!.resultText).not.toContain(STACK_LINE);
    // …and yet the next prompt carries the recorded text, as every later prompt carries the recorded one.
    for (const check of report.steps.slice(0, -1)) {
      expect(check.seenText, `what step ${check.index}'s result read as in the next prompt`).toBe(
        steps[check.index]!.messages.at(-1)!.content,
      );
    }
    for (const check of report.steps.filter((s) => s.index > first && !s.equivalent)) {
      expect(check.divergence, `step ${check.index}`).toBeUndefined();
      expect(check.resultText).toBe(session.steps[check.index - 1]!.resultText);
    }
  }, 120_000);

  it('goes forward as the replayed text from a link, which keeps no result texts, and still reproduces', async () => {
    const { session } = await recordStarter();
    const report = await replaySession(sharedForm(session), { workspace: new OtherRuntime() });
    expect(report.ok).toBe(true);
    const first = report.steps.find((s) => s.equivalent)!;
    expect(report.steps[first.index]).toBeDefined();
    expect(first.seenText).toContain(STACK_LINE);
  }, 120_000);
});
