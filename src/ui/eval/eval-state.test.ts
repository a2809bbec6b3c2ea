/**
 * The Eval page's state: which start-screen model an eval can run on (and why not), and results
 * opened again over the real worker protocol — the export round-trips, a refusal is the error.
 */
import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { ARMS } from '../../eval/arms.ts';
import { modelInfo } from '../../eval/model-label.ts';
import { buildResults } from '../../eval/results.ts';
import type { EngineClient, EvalRun, RunConfig, Session } from '../../worker/client.ts';
import { connectInProcess } from '../../worker/in-process.ts';
import { RUN_DEFAULTS } from '../../worker/run-settings.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { EvalState, liveChoice } from './eval-state.svelte.ts';

const open: EngineClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

const config = (model: RunConfig['model']): { readiness: { ok: true; config: RunConfig } } => ({
  readiness: { ok: true, config: { task: { kind: 'template', templateId: 'starter' }, model, settings: RUN_DEFAULTS } },
});

describe('liveChoice', () => {
  it.each<[string, Parameters<typeof liveChoice>[0], RegExp | null]>([
    ['an endpoint', config({ kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'qwen' }), null],
    ['WebLLM', config({ kind: 'webllm', modelId: 'm' }), null],
    ['llama.cpp', config({ kind: 'gguf', source: { url: 'https://x/m.gguf' }, label: 'Qwen' }), null],
    ['the scripted model', config({ kind: 'scripted', recordedId: 'starter' }), /fit only its own task/],
    [
      'an unfinished choice',
      { readiness: { ok: false, reason: 'enter the endpoint URL' } },
      /finish the model choice on the start screen: enter the endpoint URL/,
    ],
  ])('%s', (_name, start, refusal) => {
    const got = liveChoice(start);
    if (refusal) expect(got).toMatchObject({ ok: false, reason: expect.stringMatching(refusal) });
    else expect(got.ok).toBe(true);
  });
});

describe('EvalState.open', () => {
  const session = JSON.parse(
    readFileSync(new URL('../../../examples/drifted-edit.session.json', import.meta.url), 'utf8'),
  ) as Session;
  const run: EvalRun = {
    task: 't1',
    arm: 'on',
    seed: 0,
    passed: true,
    steps: 3,
    tokens: 9,
    tokensEstimated: true,
    ms: 1,
    session: 'sessions/t1.on.s0.session.json',
    failure: null,
    stop: 'done',
    mechanisms: {},
    grader: { passed: 1, failed: 0 },
  };
  const results = buildResults({
    suite: 'builtin',
    model: modelInfo('reference'),
    createdAt: 'now',
    arms: ARMS.slice(0, 1),
    seeds: 1,
    tasks: [],
    runs: [run],
    complete: true,
  });

  function state(): EvalState {
    const { client } = connectInProcess(() => createTemplateSession());
    open.push(client);
    return new EvalState(client, { readiness: { ok: false, reason: 'none' } });
  }

  it('opens an export again: results, sessions, the label that says the numbers mean nothing, and exports the same', async () => {
    const made = state();
    made.results = results;
    made.sessions = { [run.session]: session };
    const text = made.exportText()!;
    const ev = state();
    await ev.open([{ path: 'x.eval.json', file: new Blob([text]) }]);
    expect(ev.error).toBeNull();
    expect(ev.results?.runs).toEqual([run]);
    expect(Object.keys(ev.sessions)).toEqual([run.session]);
    expect(ev.meaningless).toBe(true);
    expect(ev.source).toEqual({ kind: 'file', name: 'x.eval.json' });
    expect(JSON.parse(ev.exportText()!)).toEqual(JSON.parse(text));
  });

  it('shows the refusal of a file that is not a result, and keeps nothing of it', async () => {
    const ev = state();
    await ev.open([{ path: 'results.json', file: new Blob(['{"v": 1}']) }]);
    expect(ev.error).toMatch(/not an eval results file/);
    expect(ev.results).toBeNull();
  });
});

describe('EvalState.openSuite', () => {
  const task = readFileSync(
    new URL(
      '../../../tests/fixtures/exercism-track/exercises/practice/shopping-cart/.meta/config.json',
      import.meta.url,
    ),
    'utf8',
  );

  function state(): EvalState {
    const { client } = connectInProcess(() => createTemplateSession());
    open.push(client);
    return new EvalState(client, { readiness: { ok: false, reason: 'none' } });
  }

  it('opens a suite over the real worker protocol: its name, every task chosen; the builtin suite comes back', async () => {
    const ev = state();
    await ev.load();
    expect(ev.suite?.name).toBe('builtin');
    const one = {
      id: 'one',
      title: 'One',
      statement: 'Make the test pass.',
      language: 'javascript',
      test_command: 'jest',
      grader_dir: '',
      files: { 'a.js': 'export const a = 1;\n' },
      grader: { 'a.spec.js': "import { a } from './a';\ntest('a', () => expect(a).toBe(1));\n" },
      solution: { 'a.js': 'export const a = 1; // solved\n' },
    };
    await ev.openSuite([
      { path: 'bench/one.task.json', file: new Blob([JSON.stringify(one)]) },
      { path: 'bench/two.task.json', file: new Blob([JSON.stringify({ ...one, id: 'two' })]) },
    ]);
    expect(ev.error).toBeNull();
    expect(ev.suite).toMatchObject({ name: 'bench', tasks: [{ id: 'one', language: 'javascript' }, { id: 'two' }] });
    expect(ev.tasks).toEqual(['one', 'two']);
    await ev.useBuiltin();
    expect(ev.suite?.name).toBe('builtin');
    expect(ev.tasks.length).toBeGreaterThanOrEqual(24);
  });

  it('shows the refusal of files that are not a suite, and keeps the suite it had', async () => {
    const ev = state();
    await ev.load();
    await ev.openSuite([{ path: 'track/.meta/config.json', file: new Blob([task]) }]);
    expect(ev.error).toMatch(/^The suite track cannot be opened: the folder holds no \*\.task\.json file/);
    expect(ev.suite?.name).toBe('builtin');
  });
});
