/**
 * A branch over the worker protocol, in one process: a lesson's step 3 edited and continued with
 * the rest of its recorded outputs is a new run that replays steps 1–2 (checked), gives the
 * edited output at step 3, goes on with the record's later outputs, and records where it
 * branched; that record passes the record gate and replays. A branch saved before its run
 * reached the edited step opens, replays what it holds and can be continued. What cannot branch
 * is refused with what to do instead.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { createEngine } from '../engine/create.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import { branchShortOf, sessionHash } from '../session/branch.ts';
import type { Session } from '../session/record.ts';
import { recordRun } from '../session/recorder.ts';
import { replaySession } from '../session/replay.ts';
import { seedStart } from '../session/start.ts';
import { checkSession } from '../session/validate.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import type { RunSettings } from './client.ts';
import { connectRunClient, DONE_MODEL, doneEndpoint } from '../../tests/support/run-client.ts';
import { RUN_DEFAULTS } from './run-settings.ts';

useNodeWasm();

const SETTINGS: RunSettings = { ...RUN_DEFAULTS, paceMs: 0 };

/** The lesson "copying from a read", recorded again where no command runs (its final test run cannot run in this process). */
async function lesson(): Promise<Session> {
  const file = JSON.parse(
    readFileSync(new URL('../../lessons/copying-from-a-read.session.json', import.meta.url), 'utf8'),
  ) as Session;
  const ws = new MemoryWorkspace();
  await seedStart(ws, file.workspace);
  const { session } = await recordRun({
    engine: createEngine(ws, file.settings.engine),
    model: new ScriptedModel(file.steps.map((s) => s.raw)),
    task: file.task,
    maxSteps: file.steps.length,
    createdAt: file.createdAt,
  });
  return session;
}

/** Step 3 without the pasted gutter on its first line: the edit the lesson's step 4 makes, a step early. */
function editedStep3(session: Session): string {
  const raw = session.steps[2]!.raw;
  const edited = raw.replace(
    '     6|export function clamp(value, min, max) {\\n',
    'export function clamp(value, min, max) {\\n',
  );
  expect(edited).not.toBe(raw);
  return edited;
}

describe('a branch at an edited step', () => {
  it('replays the steps before it, gives the edited output, goes on with the recorded rest and records where it branched', async () => {
    const c = connectRunClient();
    const parent = await lesson();
    const raw = editedStep3(parent);
    const info = await c.client.startSessionRun({
      session: parent,
      upTo: 2,
      model: null,
      settings: SETTINGS,
      edit: { raw, then: 'record', parentId: 'lesson:copying-from-a-read' },
    });
    const branch = { parentHash: await sessionHash(parent), parentId: 'lesson:copying-from-a-read', step: 3 };
    expect(info.branch).toEqual(branch);
    expect(info.replay).toEqual({ upTo: 2, continues: true });
    await c.ended(info.runId);
    const records = c.steps(info.runId);
    // Steps 1–2 are the parent's, checked; step 3 is the edit, not checked against a record it does not match.
    expect(records.map((r) => r.check)).toEqual([
      { reproduced: true },
      { reproduced: true },
      undefined,
      undefined,
      undefined,
    ]);
    expect(records[2]!.step.raw).toBe(raw);
    expect(records[2]!.step.observation).toMatch(/^edited src\/numbers\.js \(1 replacement\(s\)\)/);
    // The recorded step 4 makes the same edit again: the text it looks for is gone now.
    expect(records[3]!.step.raw).toBe(parent.steps[3]!.raw);
    expect(records[3]!.step.result?.ok).toBe(false);
    expect(records[4]!.step.call?.tool).toBe('done');

    const made = c.session(info.runId);
    expect(made.branch).toEqual(branch);
    expect(made.steps.slice(0, 2).map((s) => s.resultHash)).toEqual(parent.steps.slice(0, 2).map((s) => s.resultHash));
    expect(made.steps[2]!.resultHash).not.toBe(parent.steps[2]!.resultHash);
    const checked = await checkSession(JSON.parse(JSON.stringify(made)));
    expect(checked.ok && checked.session.branch).toEqual(branch);
    const report = await replaySession(made);
    expect(report.divergence).toBeUndefined();
    expect(report.checked).toBe(5);
  });

  it('branches at step 1, where nothing is replayed before the edit', async () => {
    const c = connectRunClient();
    const parent = await lesson();
    const raw = '{"tool":"ws_read","args":{"path":"src/numbers.js","offset":1,"limit":10}}';
    const info = await c.client.startSessionRun({
      session: parent,
      upTo: 0,
      model: null,
      settings: SETTINGS,
      edit: { raw, then: 'record' },
    });
    expect(info.branch).toEqual({ parentHash: await sessionHash(parent), step: 1 });
    await c.ended(info.runId);
    const records = c.steps(info.runId);
    expect(records[0]!.step.raw).toBe(raw);
    expect(records[0]!.step.observation).toMatch(/^\[src\/numbers\.js#[0-9a-f]+: lines 1-10 of 29\]/);
    expect(c.session(info.runId).branch?.step).toBe(1);
  });

  it('saved before it reached its edited step, it opens, replays what it holds, and is continued with a model', async () => {
    const c = connectRunClient({ fetch: doneEndpoint });
    const parent = await lesson();
    const first = await c.client.startSessionRun({
      session: parent,
      upTo: 2,
      model: null,
      settings: SETTINGS,
      paused: true,
      edit: { raw: editedStep3(parent), then: 'record', parentId: 'lesson:copying-from-a-read' },
    });
    await c.client.controlRun(first.runId, 'step');
    await c.until('step 1', () => c.steps(first.runId).length === 1);
    // What the page saved after step 1: the branch point names step 3, which the run never reached.
    const saved = JSON.parse(JSON.stringify(c.session(first.runId))) as Session;
    await c.client.controlRun(first.runId, 'stop');
    expect(saved.steps).toHaveLength(1);
    expect(saved.branch?.step).toBe(3);
    expect(branchShortOf(saved)).toEqual({ held: 1, step: 3 });
    const checked = await checkSession(saved);
    expect(checked.ok && checked.session.branch).toEqual(saved.branch);

    // Reopened: it replays the step it holds, checked.
    const opened = await c.client.startSessionRun({ session: saved, upTo: 1, model: null, settings: SETTINGS });
    await c.ended(opened.runId);
    expect(c.steps(opened.runId).map((r) => r.check)).toEqual([{ reproduced: true }]);
    expect(c.verdicts(opened.runId)).toMatchObject([{ ok: true, checked: 1 }]);

    // Continued from its last step: the model goes on where the replay stopped, before the edit, so the new record is no branch at step 3.
    const more = await c.client.startSessionRun({ session: saved, upTo: 1, model: DONE_MODEL, settings: SETTINGS });
    expect(more.branch).toBeUndefined();
    await c.ended(more.runId);
    const made = c.session(more.runId);
    expect(made.steps.map((s) => s.call?.tool)).toEqual([parent.steps[0]!.call?.tool, 'done']);
    expect(made.branch).toBeUndefined();
    expect((await checkSession(JSON.parse(JSON.stringify(made)))).ok).toBe(true);
  });

  it('continued past its edited step, a branch keeps its branch point; continued before it, not', async () => {
    const c = connectRunClient({ fetch: doneEndpoint });
    const parent = await lesson();
    const first = await c.client.startSessionRun({
      session: parent,
      upTo: 2,
      model: null,
      settings: SETTINGS,
      edit: { raw: editedStep3(parent), then: 'record' },
    });
    await c.ended(first.runId);
    const branched = c.session(first.runId);
    for (const [upTo, kept] of [
      [4, true],
      [3, true],
      [2, false],
    ] as const) {
      const info = await c.client.startSessionRun({ session: branched, upTo, model: DONE_MODEL, settings: SETTINGS });
      await c.ended(info.runId);
      expect(c.session(info.runId).branch, `continued from step ${upTo}`).toEqual(kept ? branched.branch : undefined);
      expect(info.branch).toEqual(kept ? branched.branch : undefined);
    }
  });

  it.each([
    [
      'the output as recorded',
      2,
      (s: Session) => s.steps[2]!.raw,
      'record',
      /The output is as recorded: edit it first/,
    ],
    ['an empty output', 2, () => '  ', 'record', /The edited output is empty/],
    ['a step past the last', 5, () => '{}', 'record', /Step 6 is not in this session: it has 5 recorded steps/],
    ['a live continuation without a model', 2, () => '{}', 'model', /needs one: pick it on the start screen/],
  ] as const)('refuses %s', async (_what, upTo, raw, then, message) => {
    const c = connectRunClient();
    const parent = await lesson();
    await expect(
      c.client.startSessionRun({
        session: parent,
        upTo,
        model: null,
        settings: SETTINGS,
        edit: { raw: raw(parent), then },
      }),
    ).rejects.toThrow(message);
  });
});
