/**
 * Runs over the worker protocol, in one process: the real host and client joined by a
 * MessageChannel, the real coding engine over the starter template, the recorded starter run
 * as the model. Covers streaming, Pause/Step/Stop, approvals, time travel through the
 * captured workspace, dropped files through the jail, and WebLLM through a model worker host
 * with a stand-in backend.
 */
import { describe, expect, it } from 'vitest';
import { MessageChannel } from 'node:worker_threads';
import { ModelError } from '../agent/model.ts';
import type { HostedModel } from '../agent/models/worker-host.ts';
import { serveModel } from './model-wire.ts';
import { ScriptedModel } from '../agent/models/scripted.ts';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import { STARTER_TEMPLATE } from '../workspace/templates/index.ts';
import type { RunConfig, RunSettings, StepRecord } from './client.ts';
import { connectRunClient } from '../../tests/support/run-client.ts';
import { RUN_DEFAULTS } from './run-settings.ts';
import { ModelLink, type ModelPort } from './run-models.ts';

const SETTINGS: RunSettings = { ...RUN_DEFAULTS, paceMs: 0 };
const SCRIPTED: RunConfig = {
  task: { kind: 'template', templateId: 'starter' },
  model: { kind: 'scripted', recordedId: STARTER_RUN.id },
  settings: SETTINGS,
};

describe('run options', () => {
  it('offers the starter template, its recorded run, the WebLLM catalog and the defaults', async () => {
    const { client } = connectRunClient();
    const options = await client.runOptions();
    expect(options.templates.map((t) => [t.id, t.task])).toEqual([['starter', STARTER_TEMPLATE.task]]);
    expect(options.recorded).toEqual([
      {
        id: STARTER_RUN.id,
        title: STARTER_RUN.title,
        description: STARTER_RUN.description,
        templateId: 'starter',
        steps: 7,
      },
    ]);
    expect(options.catalog.length).toBeGreaterThan(3);
    expect(options.catalog.every((m) => m.vramMB > 0)).toBe(true);
    expect(options.catalog.map((m) => m.id)).toContain(options.defaultModelId);
    expect(options.defaults).toEqual(RUN_DEFAULTS);
    expect(options.dropLimits).toEqual({ maxFiles: 500, maxBytes: 4 * 1024 * 1024 });
  });
});

describe('a scripted run of the starter task', () => {
  it('streams every step as an immutable record with its workspace change, then ends with done', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun(SCRIPTED);
    expect(info.model).toEqual({ label: `scripted: ${STARTER_RUN.title}`, scripted: true });
    expect(info.workspace).toMatchObject({ kind: 'template', id: 'starter', hash: STARTER_TEMPLATE.hash });
    await rec.ended(info.runId);

    const kinds = rec.of(info.runId).map((e) => e.kind);
    expect(kinds[0]).toBe('phase');
    expect(kinds[1]).toBe('model');
    expect(kinds.at(-1)).toBe('ended');
    expect(rec.stop(info.runId)).toMatchObject({ stop: { kind: 'done' } });

    const steps = rec.steps(info.runId);
    expect(steps.map((r) => r.step.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(steps.map((r) => r.step.raw)).toEqual(STARTER_RUN.outputs);
    expect(steps.map((r) => r.step.call?.tool)).toEqual([
      'ws_test',
      'ws_read',
      'ws_read',
      undefined,
      'ws_edit',
      'ws_test',
      'done',
    ]);

    const [first, , read, prose, edit] = steps as [StepRecord, StepRecord, StepRecord, StepRecord, StepRecord];
    expect(first.step.notes.find((n) => n.kind === 'repair')?.detail).toContain('fence');
    expect(prose.step.parseError?.kind).toBe('no-call');
    expect(prose.step.observation).toMatch(/^Your reply contained no tool call, so nothing was run\./);
    expect(prose.changes).toEqual([]);

    expect(read.step.result?.notes).toContainEqual({
      kind: 'alias',
      text: 'file_path accepted as path',
      detail: 'file_path',
    });
    expect(edit.step.result?.notes.find((n) => n.kind === 'rung')?.detail).toBe('indent');
    expect(edit.step.notes.find((n) => n.kind === 'dropped-calls')).toEqual({
      kind: 'dropped-calls',
      text: 'the first call ran; 1 further call was dropped (ws_test)',
      detail: 'ws_test',
    });
    // A clean call followed by a second one: nothing was repaired, so no note says so.
    expect(edit.step.notes.find((n) => n.kind === 'repair')).toBeUndefined();
    // The change is measured on the workspace: the file's own two-space indentation was kept.
    const original = STARTER_TEMPLATE.files['src/strings.js']!;
    expect(edit.changes).toEqual([
      {
        path: 'src/strings.js',
        before: original,
        after: original.replace('text.slice(0, max) +', 'text.slice(0, max - 1) +'),
      },
    ]);
    expect(read.changes).toEqual([]);
    expect(edit.fileCount).toBe(Object.keys(STARTER_TEMPLATE.files).length);
  });

  it('time travel: the tree and any file as they were at each step', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun(SCRIPTED);
    await rec.ended(info.runId);

    const original = STARTER_TEMPLATE.files['src/strings.js']!;
    for (const [step, fixed] of [
      [0, false],
      [4, false],
      [5, true],
      [7, true],
    ] as const) {
      const view = await client.runFile(info.runId, step, 'src/strings.js');
      expect(view.text, `src/strings.js after step ${step}`).toBe(
        fixed ? original.replace('slice(0, max) +', 'slice(0, max - 1) +') : original,
      );
    }
    const tree = await client.runTree(info.runId, 0);
    // The seed commit's .git is listed as a folder; its insides are not captured.
    const templatePaths = Object.keys(STARTER_TEMPLATE.files).flatMap((p) =>
      p.includes('/') ? [p.split('/')[0]!, p] : [p],
    );
    expect(tree.entries.map((e) => e.path)).toEqual(
      ['.git', ...templatePaths].filter((p, i, a) => a.indexOf(p) === i).sort(),
    );
    await expect(client.runFile(info.runId, 2, 'src')).rejects.toThrow('src is a directory; pick a file in the tree.');
    await expect(client.runFile(info.runId, 2, 'nope.js')).rejects.toThrow(
      'nope.js did not exist after step 2; pick a step where the tree lists it.',
    );
    await expect(client.runTree(info.runId, 99)).rejects.toThrow(/no capture for step 99/);
  });
});

describe('run controls', () => {
  it('starts paused, walks one step per Step, and runs on after Resume', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun({ ...SCRIPTED, paused: true });
    await rec.until('the model', () => rec.of(info.runId).some((e) => e.kind === 'model'));
    expect(rec.of(info.runId)[0]).toEqual({ kind: 'phase', phase: 'paused' });
    await new Promise((r) => setTimeout(r, 50));
    expect(rec.steps(info.runId)).toHaveLength(0);

    for (const n of [1, 2]) {
      await client.controlRun(info.runId, 'step');
      await rec.until(`step ${n}`, () => rec.steps(info.runId).length === n);
      await new Promise((r) => setTimeout(r, 30));
      expect(rec.steps(info.runId)).toHaveLength(n);
    }
    await client.controlRun(info.runId, 'resume');
    await rec.ended(info.runId);
    expect(rec.steps(info.runId)).toHaveLength(7);
    expect(
      rec
        .of(info.runId)
        .filter((e) => e.kind === 'phase')
        .at(-1),
    ).toEqual({ kind: 'phase', phase: 'running' });
  });

  it('Pause holds the run before the next step; Stop ends it as stopped', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun({ ...SCRIPTED, settings: { ...SETTINGS, paceMs: 60 } });
    await rec.until('step 1', () => rec.steps(info.runId).length >= 1);
    await client.controlRun(info.runId, 'pause');
    const held = rec.steps(info.runId).length;
    await new Promise((r) => setTimeout(r, 200));
    expect(rec.steps(info.runId)).toHaveLength(held);
    await client.controlRun(info.runId, 'stop');
    await rec.ended(info.runId);
    expect(rec.stop(info.runId)).toEqual({ kind: 'ended', stop: { kind: 'stopped' }, text: 'stopped by the user' });
  });

  it('the small tool set: the run offers only its tools, says so, and records it with the session', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun({ ...SCRIPTED, settings: { ...SETTINGS, toolSet: 'small', maxSteps: 1 } });
    expect(info.toolSet).toBe('small');
    expect([...info.tools].sort()).toEqual([
      'ws_edit',
      'ws_grep',
      'ws_list',
      'ws_patch',
      'ws_read',
      'ws_shell',
      'ws_test',
      'ws_write',
    ]);
    await rec.ended(info.runId);
    const header = rec.of(info.runId).flatMap((e) => (e.kind === 'session' ? [e.header] : []))[0]!;
    expect(header.settings.engine.tool_set).toBe('small');
    const full = await client.startRun({ ...SCRIPTED, paused: true });
    expect(full.toolSet).toBe('full');
    expect(full.tools.length).toBeGreaterThan(info.tools.length);
  });

  it('a new run stops the old one, whose id is then refused', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const first = await client.startRun({ ...SCRIPTED, paused: true });
    const second = await client.startRun(SCRIPTED);
    expect(second.runId).toBe(first.runId + 1);
    await rec.ended(first.runId);
    expect(rec.stop(first.runId)).toEqual({ kind: 'ended', stop: { kind: 'stopped' }, text: 'stopped by the user' });
    await expect(client.runTree(first.runId, 0)).rejects.toThrow(
      `Run ${first.runId} is no longer kept: only the latest run is. Start a new run.`,
    );
  });

  it.each([
    ['max steps of 0', { maxSteps: 0 }, /maxSteps/],
    ['an approval mode that does not exist', { approval: 'sometimes' }, /approval/],
    ['a temperature above 2', { temperature: 3 }, /temperature/],
    ['a tool set that does not exist', { toolSet: 'tiny' }, /toolSet/],
  ])('refuses settings with %s, naming the field', async (_label, patch, field) => {
    const { client } = connectRunClient();
    const err = await client
      .startRun({ ...SCRIPTED, settings: { ...SETTINGS, ...patch } as RunSettings })
      .catch((e: unknown) => e as Error);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toMatch(/^The run settings are not usable:/);
    expect((err as Error).message).toMatch(field);
  });
});

describe('approvals: ask', () => {
  it.each([
    [true, 'approved', true],
    [false, 'denied', false],
  ])('answering %s: the edit is %s and the file follows', async (answer, outcome, changed) => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun({ ...SCRIPTED, settings: { ...SETTINGS, approval: 'ask' } });
    await rec.until('the approval question', () => rec.of(info.runId).some((e) => e.kind === 'approval' && e.ask));
    const asked = rec.of(info.runId).find((e) => e.kind === 'approval' && e.ask);
    expect(asked).toMatchObject({ ask: { id: 1, step: 5, tool: 'ws_edit', reason: 'writes' } });
    await client.answerApproval(info.runId, 1, answer);
    await rec.ended(info.runId);
    const edit = rec.steps(info.runId)[4]!;
    expect(edit.step.approval).toBe(outcome);
    expect(edit.changes.length > 0).toBe(changed);
    await expect(client.answerApproval(info.runId, 1, true)).rejects.toThrow(
      'The approval question 1 is no longer open',
    );
  });

  it('Stop declines an open question and ends the run', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun({ ...SCRIPTED, settings: { ...SETTINGS, approval: 'ask' } });
    await rec.until('the approval question', () => rec.of(info.runId).some((e) => e.kind === 'approval' && e.ask));
    await client.controlRun(info.runId, 'stop');
    await rec.ended(info.runId);
    expect(
      rec
        .of(info.runId)
        .filter((e) => e.kind === 'approval')
        .at(-1),
    ).toEqual({ kind: 'approval', ask: null });
    expect(rec.stop(info.runId)).toEqual({ kind: 'ended', stop: { kind: 'stopped' }, text: 'stopped by the user' });
  });
});

describe('dropped files', () => {
  it('every path goes through the jail; refused ones are reported and left out', async () => {
    const { client } = connectRunClient();
    expect(await client.checkPaths(['src/a.js', './b.js', '../evil.js', '.slmcode/hooks.json'])).toEqual([
      { path: 'src/a.js', stored: 'src/a.js' },
      { path: './b.js', stored: 'b.js' },
      { path: '../evil.js', reason: expect.stringMatching(/\.\./) },
      { path: '.slmcode/hooks.json', reason: expect.stringContaining('.slmcode/hooks.json is harness control state') },
    ]);
  });

  it('a run on dropped files seeds only what the jail accepts', async () => {
    const { client } = connectRunClient();
    const files = { 'src/a.js': 'export const a = 1;\n', '../evil.js': 'x', '.slmcode/hooks.json': '{}' };
    const model = { kind: 'openai', baseUrl: 'http://127.0.0.1:9', model: 'm' } as const;
    const info = await client.startRun({
      task: { kind: 'files', files, task: 'Add b.' },
      model,
      settings: SETTINGS,
      paused: true,
    });
    expect(info.task).toBe('Add b.');
    expect(info.workspace).toMatchObject({ kind: 'files', fileCount: 1 });
    expect(info.skipped.map((s) => s.path)).toEqual(['../evil.js', '.slmcode/hooks.json']);
    expect((await client.runTree(info.runId, 0)).entries.map((e) => e.path)).toEqual(['src', 'src/a.js']);
    await client.controlRun(info.runId, 'stop');
  });

  it.each([
    [
      'a scripted run on own files',
      { task: { kind: 'files', files: { 'a.js': '' }, task: 't' }, model: SCRIPTED.model },
      /A scripted run replays turns recorded on a bundled task/,
    ],
    [
      'an empty task',
      {
        task: { kind: 'files', files: { 'a.js': '' }, task: '  ' },
        model: { kind: 'openai', baseUrl: 'http://x', model: 'm' },
      },
      /the task is empty/,
    ],
    [
      'only refused paths',
      {
        task: { kind: 'files', files: { '../a.js': '' }, task: 't' },
        model: { kind: 'openai', baseUrl: 'http://x', model: 'm' },
      },
      /None of the dropped files/,
    ],
  ])('refuses %s', async (_label, config, message) => {
    const { client } = connectRunClient();
    await expect(client.startRun({ ...(config as unknown as RunConfig), settings: SETTINGS })).rejects.toThrow(message);
  });
});

describe('models', () => {
  it('WebLLM: progress while loading, then the loaded model drives the run', async () => {
    const { port1, port2 } = new MessageChannel();
    serveModel({ post: (m) => port1.postMessage(m), listen: (receive) => port1.on('message', receive) }, async () => ({
      async load(req, onProgress) {
        onProgress({
          progress: 0.5,
          text: 'Fetching param cache[1/2]: 400MB fetched. 50% completed, 4 secs elapsed.',
          elapsedMs: 4000,
          etaMs: 4000,
          loadedBytes: 400 * 2 ** 20,
          totalBytes: 800 * 2 ** 20,
        });
        const inner = new ScriptedModel(['{"tool": "done", "args": {"summary": "nothing to do"}}']);
        const model: HostedModel = {
          id: `webllm:${req.modelId}`,
          family: 'qwen2.5-coder',
          contextWindow: 4096,
          complete: (m, o) => inner.complete(m, o),
          unload: async () => {},
        };
        return model;
      },
      isCached: async () => false,
      deleteCached: async () => {},
      gpu: async () => {
        throw new ModelError('gpu', 'not used');
      },
    }));
    const link = new ModelLink(() => {
      const listeners: ((e: Event) => void)[] = [];
      port2.on('message', (data) => listeners.forEach((l) => l(new MessageEvent('message', { data }))));
      return {
        postMessage: (m) => port2.postMessage(m),
        addEventListener: (type, l) => void (type === 'message' && listeners.push(l)),
        terminate: () => port2.close(),
      } satisfies ModelPort;
    });
    const rec = connectRunClient({ webllm: link });
    const { client } = rec;
    const info = await client.startRun({
      ...SCRIPTED,
      model: { kind: 'webllm', modelId: 'Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC' },
    });
    expect(info.model).toEqual({ label: 'WebLLM Qwen2.5-Coder 1.5B', scripted: false });
    await rec.ended(info.runId);
    const events = rec.of(info.runId);
    expect(events.find((e) => e.kind === 'loading')).toMatchObject({
      progress: { progress: 0.5, loadedBytes: 400 * 2 ** 20 },
    });
    expect(events.find((e) => e.kind === 'model')).toEqual({
      kind: 'model',
      id: 'webllm:Qwen2.5-Coder-1.5B-Instruct-q4f16_1-MLC',
    });
    expect(rec.stop(info.runId)).toMatchObject({ stop: { kind: 'done', summary: 'nothing to do' } });
    port1.close();
  });

  it('WebLLM without a model worker ends the run with a reason and the other choices', async () => {
    const rec = connectRunClient();
    const { client } = rec;
    const info = await client.startRun({ ...SCRIPTED, model: { kind: 'webllm', modelId: 'x' } });
    await rec.ended(info.runId);
    expect(rec.stop(info.runId)).toMatchObject({
      stop: { kind: 'model-error', message: expect.stringContaining('pick the scripted model or an endpoint') },
    });
    await expect(client.webllmCache()).rejects.toThrow(/WebLLM needs the model worker/);
  });

  it.each([
    [
      'models listed',
      async () => Response.json({ data: [{ id: 'qwen2.5-coder:1.5b' }, { id: 'llama3.2' }] }),
      { ok: true, models: ['qwen2.5-coder:1.5b', 'llama3.2'] },
    ],
    [
      'a bad key',
      async () => new Response('no', { status: 401 }),
      { ok: false, message: 'http://127.0.0.1:11434/v1/models answered HTTP 401. Check the API key.' },
    ],
    [
      'a CORS block',
      async () => {
        throw new TypeError('Failed to fetch');
      },
      { ok: false, message: expect.stringContaining('does not allow requests from this page (CORS)') },
    ],
  ])('probe-endpoint: %s', async (_label, fetchImpl, expected) => {
    const { client } = connectRunClient({ fetch: fetchImpl as typeof fetch });
    expect(await client.probeEndpoint('http://127.0.0.1:11434', 'k')).toEqual(expected);
  });
});
