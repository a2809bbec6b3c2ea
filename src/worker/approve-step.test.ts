/**
 * Replays never approve, over the worker protocol (the real host and client on a
 * MessageChannel). A session whose gated step recorded an approval opens, replays and runs
 * nothing: the step is marked as not run without an approval, carries the recorded approval as
 * history and the offer (the command, why it is gated); the replayed prefix of "Continue from
 * here" does the same. Only "Approve and run" on that step runs it — once, in a copy of the
 * workspace at that step — and its result comes back beside the record's.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { createEngine } from '../engine/create.ts';
import { encodeText } from '../engine/text.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import type { Session } from '../session/record.ts';
import { recordRun } from '../session/recorder.ts';
import { replaySession } from '../session/replay.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import type { RunSettings } from './client.ts';
import { connectRunClient, DONE_MODEL, doneEndpoint } from '../../tests/support/run-client.ts';
import type { RunServices } from './run-host.ts';
import { RUN_DEFAULTS } from './run-settings.ts';

const SETTINGS: RunSettings = { ...RUN_DEFAULTS, paceMs: 0 };
const MARKER = 'approved-marker';
const COMMAND = `touch ${MARKER}`;
const OUTPUTS = [
  JSON.stringify({ tool: 'ws_shell', args: { command: COMMAND } }),
  JSON.stringify({ tool: 'ws_list', args: { path: '.' } }),
];

let approved: Session;

beforeAll(async () => {
  useNodeWasm();
  const ws = new MemoryWorkspace(undefined, undefined, sandboxRunner());
  await ws.writeFile('README.md', encodeText('# notes\n'));
  ({ session: approved } = await recordRun({
    engine: createEngine(ws),
    model: new ScriptedModel(OUTPUTS),
    task: 'Leave a marker.',
    approve: async () => true,
  }));
});

/** The shared in-process client, and whether the workspace at a step of a run holds the marker. */
function connect(services: RunServices = {}) {
  const c = connectRunClient(services);
  const hasMarker = async (runId: number, step: number) =>
    (await c.client.runTree(runId, step)).entries.some((e) => e.path === MARKER);
  return { ...c, hasMarker };
}

describe('opening a session whose gated step recorded an approval', () => {
  it('runs nothing: the step is marked, carries the recorded approval as history and the offer', async () => {
    const c = connect();
    const { runId } = await c.client.startSessionRun({
      session: approved,
      upTo: approved.steps.length,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(runId);
    const [gated, after] = c.steps(runId);
    expect(gated!.step.approval).toBe('unapproved');
    expect(gated!.recordedApproval).toBe('approved');
    expect(gated!.check).toMatchObject({ reproduced: false, divergence: { index: 1, kind: 'approval' } });
    expect(gated!.offer).toEqual({
      tool: 'ws_shell',
      command: COMMAND,
      reason: expect.stringMatching(/^needs approval \(tier gated\)/),
      writes: [MARKER],
    });
    expect(gated!.changes).toEqual([]);
    expect(after!.offer).toBeUndefined();
    expect(await c.hasMarker(runId, 1)).toBe(false);
    expect(await c.hasMarker(runId, 2)).toBe(false);
  });

  it("the replay's own record replays as it is, still without running the command", async () => {
    const c = connect();
    const { runId } = await c.client.startSessionRun({
      session: approved,
      upTo: approved.steps.length,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(runId);
    const own = c.session(runId);
    expect(own.steps[0]!.approval).toBe('unapproved');
    const ws = new MemoryWorkspace(undefined, undefined, sandboxRunner());
    expect((await replaySession(own, { workspace: ws })).ok).toBe(true);
    expect(await ws.lstat(MARKER)).toBeNull();
  });

  it('the replayed prefix of "Continue from here" does not run it either', async () => {
    const c = connect({ fetch: doneEndpoint });
    const model = DONE_MODEL;
    const { runId } = await c.client.startSessionRun({ session: approved, upTo: 1, model, settings: SETTINGS });
    await c.ended(runId);
    const [gated, live] = c.steps(runId);
    expect(gated).toMatchObject({
      step: { approval: 'unapproved' },
      recordedApproval: 'approved',
      offer: { command: COMMAND },
    });
    expect(live!.check).toBeUndefined();
    expect(await c.hasMarker(runId, 1)).toBe(false);
  });

  it('in a continuation that asks, only live steps are put before the person: replayed file changes run as a replay runs them', async () => {
    const c = connect({ fetch: doneEndpoint });
    const ws = new MemoryWorkspace(undefined, undefined, sandboxRunner());
    const write = JSON.stringify({ tool: 'ws_write', args: { path: 'notes.md', content: 'kept\n' } });
    const { session } = await recordRun({
      engine: createEngine(ws),
      model: new ScriptedModel([write]),
      task: 'Keep a note.',
      approval: 'ask',
      approve: async () => true,
    });
    expect(session.steps[0]!.approval).toBe('approved');
    const model = DONE_MODEL;
    const { runId } = await c.client.startSessionRun({
      session,
      upTo: 1,
      model,
      settings: { ...SETTINGS, approval: 'ask' },
    });
    await c.ended(runId);
    const [replayed] = c.steps(runId);
    expect(replayed!.step.approval).toBeUndefined();
    expect(replayed!.recordedApproval).toBe('approved');
    expect(replayed!.check).toEqual({ reproduced: true });
  });
});

describe('Approve and run', () => {
  it('runs that one step in the workspace at that point and shows it beside the record; the run itself is unchanged', async () => {
    const c = connect();
    const { runId } = await c.client.startSessionRun({
      session: approved,
      upTo: approved.steps.length,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(runId);
    const result = await c.client.approveStep(runId, 1);
    expect(result).toMatchObject({
      step: 1,
      check: { reproduced: true },
      backend: 'memory (with the JavaScript sandbox)',
    });
    expect(result.live).toBe(approved.steps[0]!.shellOutput);
    expect(result.recorded).toBe(approved.steps[0]!.shellOutput);
    expect(result.changes).toEqual([{ path: MARKER, before: null, after: '' }]);
    expect(result.tree.entries.map((e) => e.path)).toContain(MARKER);
    expect(await c.hasMarker(runId, 1)).toBe(false);
  });

  it('shows where the live result differs from the record', async () => {
    const c = connect();
    const edited: Session = {
      ...approved,
      steps: approved.steps.map((s, i) =>
        i === 0 ? { ...s, shellOutput: 'something else', resultHash: '000000000000' } : s,
      ),
    };
    const { runId } = await c.client.startSessionRun({
      session: edited,
      upTo: edited.steps.length,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(runId);
    const result = await c.client.approveStep(runId, 1);
    expect(result.recorded).toBe('something else');
    expect(result.check).toMatchObject({
      reproduced: false,
      divergence: { index: 1, kind: 'shell', diff: expect.stringContaining('- something else') },
    });
  });

  it('refuses a step that does not wait for an approval', async () => {
    const c = connect();
    const { runId } = await c.client.startSessionRun({
      session: approved,
      upTo: approved.steps.length,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(runId);
    await expect(c.client.approveStep(runId, 2)).rejects.toThrow('Step 2 of this run does not wait for an approval');
  });
});
