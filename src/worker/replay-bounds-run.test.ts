/**
 * Link and file replays in the tab are bounded in total, as `slm replay` is
 * (session/replay-bounds.ts): a session file that sets shell_timeout to 600 s is replayed with
 * this build's default, a replay of many steps stops at the whole replay's deadline (injected
 * short here), and the verdict and the end of the run say each bound that applied. A person's
 * pause is not the replay's time, and a live model that goes on after the replayed part is not
 * held to it.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import type { Session } from '../session/record.ts';
import { connectRunClient } from '../../tests/support/run-client.ts';
import { recordScript, workspaceWith } from '../../tests/session/support.ts';
import type { RunSettings } from './client.ts';
import { RUN_DEFAULTS } from './run-settings.ts';

useNodeWasm();

const SETTINGS: RunSettings = { ...RUN_DEFAULTS, paceMs: 0 };
const STEPS = 400;
const CLAMP = `the record's timeouts were clamped to this replay's defaults (shell_timeout 600000 ms → ${DEFAULT_SETTINGS.shell_timeout} ms)`;

/** `STEPS` reads of two files in turn (no call repeats twice in a row), then done; recorded, then given shell_timeout 600 s. */
async function longSession(steps: number): Promise<Session> {
  const outputs = Array.from(
    { length: steps - 1 },
    (_, i) => `{"tool": "ws_read", "args": {"path": "${i % 2 ? 'a.js' : 'b.js'}"}}`,
  );
  const session = await recordScript({
    outputs: [...outputs, '{"tool": "done", "args": {"summary": "read"}}'],
    workspace: await workspaceWith({ 'a.js': 'export const a = 1;\n', 'b.js': 'export const b = 2;\n' }),
    loop: { maxSteps: steps },
  });
  return {
    ...session,
    settings: { ...session.settings, engine: { ...session.settings.engine, shell_timeout: 600_000 } },
  };
}

/** The session as a file the page hands over, checked by the worker. */
async function opened(c: ReturnType<typeof connectRunClient>, session: Session): Promise<Session> {
  const check = await c.client.openFile(new Blob([JSON.stringify(session)]));
  if (!check.ok) throw new Error(check.text);
  return check.session;
}

let many: Session;
let few: Session;
beforeAll(async () => {
  many = await longSession(STEPS);
  few = await longSession(4);
}, 60_000);

describe('a replay in the tab is bounded in total', () => {
  it('a record with shell_timeout 600 s replays with the default, and the verdict says so', async () => {
    const c = connectRunClient();
    const session = await opened(c, few);
    expect(session.settings.engine.shell_timeout).toBe(600_000);
    const info = await c.client.startSessionRun({ session, upTo: 4, model: null, settings: SETTINGS });
    await c.ended(info.runId);
    expect(c.session(info.runId).settings.engine.shell_timeout).toBe(DEFAULT_SETTINGS.shell_timeout);
    expect(c.verdicts(info.runId)).toMatchObject([
      { ok: true, checked: 4, bounds: `${CLAMP}; the whole replay had a deadline of 600 s` },
    ]);
  });

  it(`a replay of ${STEPS} steps stops at its deadline and says so in the verdict and at the end`, async () => {
    const c = connectRunClient({ replayDeadlineMs: 50 });
    const session = await opened(c, many);
    const info = await c.client.startSessionRun({ session, upTo: STEPS, model: null, settings: SETTINGS });
    await c.ended(info.runId);
    const replayed = c.steps(info.runId).length;
    expect(replayed).toBeLessThan(STEPS);
    const [verdict, ...more] = c.verdicts(info.runId);
    expect(more).toEqual([]);
    expect(verdict).toMatchObject({
      ok: false,
      expected: STEPS,
      bounds: `${CLAMP}; the replay stopped at its deadline of 50 ms: the steps after it were not replayed`,
    });
    expect(verdict?.divergence?.why).toMatch(/\(it reached the whole replay's deadline of 50 ms\)/);
    expect(c.stop(info.runId)?.text).toBe(
      'The replay stopped at its deadline of 50 ms: the steps after it were not replayed.',
    );
  });

  it('time held paused is not counted', async () => {
    const c = connectRunClient({ replayDeadlineMs: 150 });
    const session = await opened(c, few);
    const info = await c.client.startSessionRun({ session, upTo: 4, model: null, settings: SETTINGS, paused: true });
    await new Promise((r) => setTimeout(r, 400));
    await c.client.controlRun(info.runId, 'resume');
    await c.ended(info.runId);
    expect(c.verdicts(info.runId)).toMatchObject([{ ok: true, checked: 4 }]);
  });

  it('a replay within its bounds whose record asks for nothing more says nothing of them', async () => {
    const c = connectRunClient();
    const plain = { ...few, settings: { ...few.settings, engine: { ...few.settings.engine, shell_timeout: 5_000 } } };
    const info = await c.client.startSessionRun({
      session: await opened(c, plain),
      upTo: 4,
      model: null,
      settings: SETTINGS,
    });
    await c.ended(info.runId);
    const [verdict] = c.verdicts(info.runId);
    expect(verdict?.ok).toBe(true);
    expect(verdict?.bounds).toBeUndefined();
  });

  it('a live model that goes on after the replayed part is not held to the deadline', async () => {
    // The replayed part takes about a second and a half here (the first command starts the sandbox).
    const c = connectRunClient({ replayDeadlineMs: 3000 });
    const starter = { kind: 'scripted', recordedId: STARTER_RUN.id } as const;
    const first = await c.client.startRun({
      task: { kind: 'template', templateId: 'starter' },
      model: starter,
      settings: SETTINGS,
    });
    await c.ended(first.runId);
    // Two steps replayed, then the scripted model's five live ones, each 800 ms apart: past the deadline in all.
    const info = await c.client.startSessionRun({
      session: c.session(first.runId),
      upTo: 2,
      model: starter,
      settings: { ...SETTINGS, paceMs: 800 },
    });
    await c.ended(info.runId);
    expect(c.steps(info.runId)).toHaveLength(STARTER_RUN.outputs.length);
    expect(c.stop(info.runId)?.stop.kind).toBe('done');
    const [verdict] = c.verdicts(info.runId);
    expect(verdict).toMatchObject({ ok: true, checked: 2 });
    expect(verdict?.bounds).toBeUndefined();
  });
});
