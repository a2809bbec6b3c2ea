/**
 * RunState and TimeTravel against the real worker host over a MessageChannel, with the starter
 * template and its recorded run: events applied in one place, the selection following the
 * latest step until one is picked, Pause/Step/Stop, approvals, and files at earlier steps.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { EngineClient, RunConfig, RunEvent, RunInfo, StepRecord } from '../../worker/client.ts';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { EVENT_BATCH_MS, RunState } from './run-state.svelte.ts';
import { TimeTravel } from './time-travel.svelte.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

async function until(what: string, cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 5));
  }
}

async function setup(): Promise<{
  run: RunState;
  client: EngineClient;
  url: { step: number | null };
  config: RunConfig;
  crash: () => void;
}> {
  const { client, workers } = connectInProcess(() => createTemplateSession());
  const url = { step: null as number | null };
  const run = new RunState(client, { get: () => url.step, set: (s) => (url.step = s) });
  cleanups.push(run.connect(), () => client.dispose());
  const options = await client.runOptions();
  const config: RunConfig = {
    task: { kind: 'template', templateId: 'starter' },
    model: { kind: 'scripted', recordedId: options.recorded[0]!.id },
    settings: { ...options.defaults, paceMs: 0 },
  };
  return { run, client, url, config, crash: () => workers.at(-1)!.crash('boom') };
}

describe('RunState', () => {
  it('applies the events of a run: records in order, the phase, why it ended', async () => {
    const { run, config } = await setup();
    expect(run.phase).toBe('idle');
    expect(await run.start(config)).toBe(true);
    expect(run.info?.model.scripted).toBe(true);
    await until('the end', () => run.phase === 'ended');
    expect(run.records.map((r) => r.step.index)).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(run.stop?.stop.kind).toBe('done');
    expect(run.stop?.text).toMatch(/^finished with done: /);
    expect(run.modelId).toBe(`scripted:${config.model.kind === 'scripted' ? config.model.recordedId : ''}`);
    expect(run.live).toBeNull();
    expect(run.active).toBe(false);
  });

  it('follows the latest step until one is selected; selection is clamped and kept in the URL', async () => {
    const { run, url, config } = await setup();
    url.step = 9; // a step from an earlier run in the URL is cleared by starting
    await run.start(config);
    expect(url.step).toBeNull();
    await until('the end', () => run.phase === 'ended');
    expect(run.selectedIndex).toBe(7);
    expect(run.selected?.step.call?.tool).toBe('done');
    run.move(-2);
    expect(url.step).toBe(5);
    expect(run.selected?.step.call?.tool).toBe('ws_edit');
    run.select(99);
    expect(url.step).toBe(7);
    run.selectFirst();
    expect(url.step).toBe(1);
    run.move(-1);
    expect(url.step).toBe(1);
    run.selectLast();
    expect(url.step).toBe(7);
    url.step = 42; // a URL naming a step that was not recorded
    expect(run.selected).toBeNull();
  });

  it('Pause, Step and Stop; an approval question is answered from the state', async () => {
    const { run, config } = await setup();
    await run.start({ ...config, paused: true, settings: { ...config.settings, approval: 'ask' } });
    await until('paused', () => run.phase === 'paused');
    for (const n of [1, 2, 3, 4]) {
      await run.control('step');
      await until(`step ${n}`, () => run.records.length === n);
    }
    await run.control('step');
    await until('the approval question', () => run.ask !== null);
    expect(run.ask).toMatchObject({ step: 5, tool: 'ws_edit', reason: 'writes' });
    await run.answer(false);
    await until('step 5', () => run.records.length === 5);
    expect(run.records[4]!.step.approval).toBe('denied');
    await run.control('stop');
    await until('the end', () => run.phase === 'ended');
    expect(run.stop?.stop).toEqual({ kind: 'stopped' });
  });

  it('a refused configuration is an error, and the state stays idle', async () => {
    const { run, config } = await setup();
    expect(await run.start({ ...config, settings: { ...config.settings, maxSteps: 0 } })).toBe(false);
    expect(run.phase).toBe('idle');
    expect(run.error).toMatch(/^The run settings are not usable:/);
  });

  it('a crashed engine ends the run with the reason', async () => {
    const { run, config, crash } = await setup();
    await run.start({ ...config, paused: true });
    await until('paused', () => run.phase === 'paused');
    crash();
    expect(run.phase).toBe('ended');
    expect(run.error).toBe('The run ended because the engine worker stopped: it threw an uncaught error (boom).');
  });
});

describe('RunState under a fast stream', () => {
  /** The records and info of a real run, to stream again through a client that sends what the test says. */
  async function recorded(): Promise<{ info: RunInfo; records: readonly StepRecord[] }> {
    const { run, config } = await setup();
    await run.start(config);
    await until('the end', () => run.phase === 'ended');
    return { info: run.info!, records: run.records };
  }

  it(`applies events that come within ${EVENT_BATCH_MS} ms of the last applied ones together, in order; an approval or the end at once`, async () => {
    const { info, records } = await recorded();
    let send: (runId: number, event: RunEvent) => void = () => undefined;
    const client = {
      onRunEvent: (listener: typeof send) => ((send = listener), () => undefined),
      onStatus: () => () => undefined,
      startRun: async () => info,
    } as unknown as EngineClient;
    const url = { step: null as number | null };
    const run = new RunState(client, { get: () => url.step, set: (s) => (url.step = s) });
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      const off = run.connect();
      await run.start({} as RunConfig);
      const emit = (event: RunEvent) => send(info.runId, event);
      const shown = () => run.records.map((r) => r.step.index);

      emit({ kind: 'step', record: records[0]! }); // alone: at once
      expect(shown()).toEqual([1]);
      emit({ kind: 'token', index: 2, delta: 'I will' });
      emit({ kind: 'step', record: records[1]! });
      emit({ kind: 'step', record: records[2]! });
      expect(shown()).toEqual([1]);
      expect(run.live).toBeNull();
      vi.advanceTimersByTime(EVENT_BATCH_MS - 1);
      expect(shown()).toEqual([1]);
      vi.advanceTimersByTime(1);
      expect(shown()).toEqual([1, 2, 3]);
      expect(run.live).toBeNull(); // step 2's output ended with step 2, in the order it came

      emit({ kind: 'step', record: records[3]! });
      expect(shown()).toEqual([1, 2, 3]);
      emit({ kind: 'approval', ask: { id: 1, step: 5, tool: 'ws_edit', reason: 'writes', args: {} } as never });
      expect(shown()).toEqual([1, 2, 3, 4]); // the question comes with the steps before it
      expect(run.ask?.step).toBe(5);

      vi.advanceTimersByTime(EVENT_BATCH_MS);
      emit({ kind: 'step', record: records[4]! });
      emit({ kind: 'ended', stop: { kind: 'done' } as never, text: 'finished' });
      expect(shown()).toEqual([1, 2, 3, 4, 5]);
      expect(run.phase).toBe('ended');

      emit({ kind: 'step', record: records[5]! });
      off(); // a page that goes away applies what waited
      expect(shown()).toEqual([1, 2, 3, 4, 5, 6]);
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('TimeTravel', () => {
  it('shows the tree and keeps the open file while the step changes', async () => {
    const { run, client, config } = await setup();
    await run.start(config);
    await until('the end', () => run.phase === 'ended');
    const travel = new TimeTravel(client);
    const runId = run.info!.runId;
    await travel.show(runId, 5);
    expect(travel.tree?.entries.map((e) => e.path)).toContain('src/strings.js');
    await travel.open('src/strings.js');
    expect(travel.file?.view?.text).toContain('slice(0, max - 1)');
    await travel.show(runId, 4);
    expect(travel.path).toBe('src/strings.js');
    expect(travel.file?.view?.text).toContain('slice(0, max) +');
    await travel.open('gone.js');
    expect(travel.file).toEqual({
      path: 'gone.js',
      view: null,
      error: 'gone.js did not exist after step 4; pick a step where the tree lists it.',
    });
    travel.close();
    expect(travel.file).toBeNull();
  });

  it('the latest request wins', async () => {
    const { run, client, config } = await setup();
    await run.start(config);
    await until('the end', () => run.phase === 'ended');
    const travel = new TimeTravel(client);
    const runId = run.info!.runId;
    await travel.show(runId, 1);
    await travel.open('src/strings.js');
    const slow = travel.show(runId, 6);
    const fast = travel.show(runId, 2);
    await Promise.all([slow, fast]);
    expect(travel.at).toEqual({ runId, step: 2 });
    expect(travel.file?.view?.text).toContain('slice(0, max) +');
  });
});
