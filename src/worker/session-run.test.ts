/**
 * Sessions over the worker protocol, in one process (the real host and client on a
 * MessageChannel): every run is recorded as it goes and the record replays; a session run
 * replays a record and marks each step, names the first divergence of a tampered one, and
 * continues a cut-short run with the rest of its script; share links round-trip and bad ones
 * come back as the codec's refusals.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ModelError } from '../agent/model.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { createEngine } from '../engine/create.ts';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import { deflateRaw } from '../session/compress.ts';
import type { RecordedStep, Session } from '../session/record.ts';
import { recordRun } from '../session/recorder.ts';
import { replaySession } from '../session/replay.ts';
import { toBase64Url } from '../session/share-codec.ts';
import { seedStart } from '../session/start.ts';
import { checkSession } from '../session/validate.ts';
import { sandboxRunner } from '../workspace/memory/js-sandbox.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import type { RunSettings } from './client.ts';
import { connectRunClient } from '../../tests/support/run-client.ts';
import { RUN_DEFAULTS } from './run-settings.ts';
import { needsRunner, PrefixModel } from './session-run.ts';

useNodeWasm();

const SETTINGS: RunSettings = { ...RUN_DEFAULTS, paceMs: 0 };
const example = (name: string): Session =>
  JSON.parse(readFileSync(new URL(`../../examples/${name}.session.json`, import.meta.url), 'utf8')) as Session;

/**
 * The drifted-edit example recorded again in a memory workspace that runs no command. The file's
 * last step ran the tests, which here (Node, no sandbox frame) cannot run; this one replays
 * whole in the worker under test.
 */
async function driftedWithoutRunner(): Promise<Session> {
  const file = example('drifted-edit');
  const ws = new MemoryWorkspace();
  await seedStart(ws, file.workspace);
  const { session } = await recordRun({
    engine: createEngine(ws),
    model: new ScriptedModel(file.steps.map((s) => s.raw)),
    task: file.task,
    maxSteps: file.steps.length,
    createdAt: file.createdAt,
  });
  return session;
}

const STARTER = {
  task: { kind: 'template', templateId: 'starter' },
  model: { kind: 'scripted', recordedId: STARTER_RUN.id },
  settings: SETTINGS,
} as const;

describe('recording a run', () => {
  it('sends the header before step 1 and every step with its record entry; together they are a record that replays', async () => {
    const c = connectRunClient();
    const { runId } = await c.client.startRun(STARTER);
    await c.ended(runId);
    const kinds = c.of(runId).map((e) => e.kind);
    expect(kinds.indexOf('session')).toBeLessThan(kinds.indexOf('step'));
    const session = c.session(runId);
    expect(session.steps).toHaveLength(7);
    expect(session.model).toMatchObject({
      id: `scripted:${STARTER_RUN.id}`,
      kind: 'scripted',
      seed: 0,
      temperature: 0,
    });
    expect(session.workspace).toMatchObject({ template: { id: 'starter' } });
    expect(session.steps[0]).toMatchObject({ raw: STARTER_RUN.outputs[0], backend: 'memory' });
    expect((await checkSession(JSON.parse(JSON.stringify(session)))).ok).toBe(true);
    // The run's workspace has the sandbox runner; replayed on the same kind, every step reproduces.
    const report = await replaySession(session, {
      workspace: new MemoryWorkspace(undefined, undefined, sandboxRunner()),
    });
    expect(report.divergence).toBeUndefined();
    expect(report.steps).toHaveLength(7);
    expect(c.verdicts(runId)).toEqual([]);
  });
});

describe('a session run', () => {
  it('replays an example and marks every step reproduced, then gives the verdict', async () => {
    const c = connectRunClient();
    const session = await driftedWithoutRunner();
    const info = await c.client.startSessionRun({
      session,
      upTo: session.steps.length,
      model: null,
      settings: SETTINGS,
    });
    expect(info.replay).toEqual({ upTo: 3, continues: false });
    expect(info.model).toEqual({ label: 'the recorded outputs, replayed', scripted: true });
    await c.ended(info.runId);
    expect(c.steps(info.runId).map((r) => r.check)).toEqual([
      { reproduced: true },
      { reproduced: true },
      { reproduced: true },
    ]);
    const [verdict, ...more] = c.verdicts(info.runId);
    expect(more).toEqual([]);
    expect(verdict).toMatchObject({
      ok: true,
      checked: 3,
      expected: 3,
      laterDivergences: 0,
      backend: 'memory (no process runner)',
    });
    expect(c.stop(info.runId)?.stop.kind).toBe('done');
  });

  it('names the first divergence of a tampered record, and the step before it still reproduces', async () => {
    const c = connectRunClient();
    const session = await driftedWithoutRunner();
    const tampered: Session = {
      ...session,
      steps: session.steps.map((s, i) =>
        i === 1 ? { ...s, resultText: `${s.resultText}!`, resultHash: '000000000000' } : s,
      ),
    };
    const info = await c.client.startSessionRun({ session: tampered, upTo: 3, model: null, settings: SETTINGS });
    await c.ended(info.runId);
    const checks = c.steps(info.runId).map((r) => r.check);
    expect(checks[0]).toEqual({ reproduced: true });
    expect(checks[1]).toMatchObject({ reproduced: false, divergence: { index: 2, kind: 'result' } });
    const [verdict] = c.verdicts(info.runId);
    expect(verdict).toMatchObject({ ok: false, divergence: { index: 2, kind: 'result' } });
    expect(verdict!.divergence!.diff).toContain('@@ first difference');
  });

  it('continues a run cut short after two steps with the rest of its script, the first two checked', async () => {
    const c = connectRunClient();
    const first = await c.client.startRun({ ...STARTER, paused: true });
    await c.client.controlRun(first.runId, 'step');
    await c.until('step 1', () => c.steps(first.runId).length === 1);
    await c.client.controlRun(first.runId, 'step');
    await c.until('step 2', () => c.steps(first.runId).length === 2);
    const cut = c.session(first.runId);
    await c.client.controlRun(first.runId, 'stop');

    const info = await c.client.startSessionRun({
      session: cut,
      upTo: 2,
      model: { kind: 'scripted', recordedId: STARTER_RUN.id },
      settings: SETTINGS,
    });
    expect(info.replay).toEqual({ upTo: 2, continues: true });
    await c.ended(info.runId);
    const steps = c.steps(info.runId);
    expect(steps.map((r) => r.step.raw)).toEqual(STARTER_RUN.outputs);
    expect(steps.map((r) => r.check?.reproduced)).toEqual([
      true,
      true,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
    expect(c.verdicts(info.runId)).toMatchObject([{ ok: true, checked: 2, expected: 2 }]);
    expect(c.stop(info.runId)?.stop.kind).toBe('done');
    // The continued run is a whole record of its own.
    expect(c.session(info.runId).steps).toHaveLength(7);
    expect(c.session(info.runId).model.id).toBe(`scripted:${STARTER_RUN.id}`);
  });

  it.each([
    [
      'a step the session does not have',
      { upTo: 9, model: null },
      'Step 9 is not in this session: it has 3 recorded steps',
    ],
    ['replay of no step', { upTo: 0, model: null }, 'Step 0 is not in this session'],
    [
      'a template this build does not have',
      { upTo: 3, model: null, template: 'gone' },
      'The replay cannot start: the session starts from the template "gone", which this build does not have',
    ],
  ] as const)('refuses %s with a message', async (_name, row, message) => {
    const c = connectRunClient();
    const base = example('drifted-edit');
    const session: Session =
      'template' in row ? { ...base, workspace: { template: { id: row.template, hash: '000000000000' } } } : base;
    await expect(
      c.client.startSessionRun({ session, upTo: row.upTo, model: row.model, settings: SETTINGS }),
    ).rejects.toThrow(message);
  });

  it('ends a scripted continuation of a session the script did not record with what to pick instead', async () => {
    const c = connectRunClient();
    const info = await c.client.startSessionRun({
      session: example('drifted-edit'),
      upTo: 1,
      model: { kind: 'scripted', recordedId: STARTER_RUN.id },
      settings: SETTINGS,
    });
    await c.ended(info.runId);
    expect(c.stop(info.runId)?.text).toContain(
      'pick llama.cpp or WebLLM in this tab, or an endpoint, on the start screen',
    );
  });
});

describe('share links in the worker', () => {
  it('round-trips a session through a link, in its shared form', async () => {
    const c = connectRunClient();
    const session = example('drifted-edit');
    const { url, report } = await c.client.shareLink(session, 'http://localhost:4173/#/run?step=2');
    expect(url.startsWith('http://localhost:4173/#s=')).toBe(true);
    expect(report).toMatchObject({ chars: url.length, fits: url.length <= 2000 });
    const back = await c.client.openLink(url);
    expect(back.ok && back.session.steps.map((s: RecordedStep) => s.resultHash)).toEqual(
      session.steps.map((s) => s.resultHash),
    );
    expect(back.ok && back.session.steps[0]!.resultText).toBeUndefined();
  });

  it.each([
    ['a changed character', async (): Promise<string> => 'http://x/#s=abc$def', 'bad-characters'],
    [
      'a decompression bomb',
      async (): Promise<string> => `#s=${toBase64Url(await deflateRaw(new Uint8Array(3 * 1024 * 1024).fill(32)))}`,
      'bomb',
    ],
    [
      'a newer format',
      async (): Promise<string> =>
        `#s=${toBase64Url(await deflateRaw(new TextEncoder().encode(JSON.stringify({ v: 2, task: 'a task long enough to make a link of more than a few characters' }))))}`,
      'newer-version',
    ],
  ] as const)('refuses %s with the codec message', async (_name, link, kind) => {
    const c = connectRunClient();
    const result = await c.client.openLink(await link());
    expect(result).toMatchObject({ ok: false, kind });
    expect(result.ok || result.text.length > 40).toBe(true);
  });

  it('checks a session file as untrusted text', async () => {
    const c = connectRunClient();
    expect(await c.client.openFile(new Blob(['{"v":1}']))).toMatchObject({ ok: false, kind: 'schema' });
    expect(
      await c.client.openFile(
        new Blob([readFileSync(new URL('../../examples/drifted-edit.session.json', import.meta.url))]),
      ),
    ).toMatchObject({ ok: true });
    const huge = await c.client.openFile(new Blob([new Uint8Array(33 * 1024 * 1024)]));
    expect(huge).toMatchObject({ ok: false, kind: 'too-large' });
    expect(!huge.ok && huge.text).toContain('so it was not read');
  });
});

describe('the pieces', () => {
  it.each([
    [
      'a record whose commands could not run',
      'npm test: … [this memory workspace was created without a process runner, so no command can run in it]',
      false,
    ],
    ['a record whose commands ran', 'npm test: 9 passed, 0 failed (exit code 0)', true],
    ['a record without shell steps', undefined, true],
  ] as const)('needsRunner: %s', (_name, shellOutput, expected) => {
    const session = example('drifted-edit');
    const steps = session.steps.map((s) => ({ ...s, shellOutput }));
    expect(needsRunner({ ...session, steps })).toBe(expected);
  });

  it('PrefixModel gives the recorded outputs, then the live model, or says where the recording ends', async () => {
    const opts = { seed: 0, temperature: 0 };
    const live = new PrefixModel(['a', 'b'], new ScriptedModel(['c'], { name: 'next' }), 'x');
    expect(live.id).toBe('scripted:next');
    const texts = [];
    for (let i = 0; i < 3; i++) texts.push((await live.complete([], opts)).text);
    expect(texts).toEqual(['a', 'b', 'c']);
    const replay = new PrefixModel(['a'], null, 'qwen');
    expect(replay.family).toBe('qwen');
    await replay.complete([], opts);
    await expect(replay.complete([], opts)).rejects.toThrow(
      new ModelError(
        'exhausted',
        'the recording ends here: its 1 recorded step was replayed. To go on, pick a step and press "Continue from here".',
      ),
    );
  });
});
