/**
 * The loop's rules, one scripted run per rule: messy outputs, one call per turn, retry
 * messages, limits, done, stall nudge, approvals, context elision, stop/step gate, step records.
 */
import { describe, expect, it } from 'vitest';
import { runLoop, type LoopOptions } from '../../src/agent/loop.ts';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { CANONICAL_DONE } from '../../src/agent/parse.ts';
import { EditFormatBandit } from '../../src/agent/evolve.ts';
import type { Completion, CompleteOptions, ChatMessage, Model } from '../../src/agent/model.ts';
import { stopText, type Step } from '../../src/agent/step.ts';
import type { ToolDef } from '../../src/engine/tool.ts';
import { call, DONE, echoTool, namedTool, engineWith, shellTool, testTool, touchTool, type Probe } from './support.ts';

function setup(outputs: string[], extra: Partial<LoopOptions> = {}, tools?: (p: Probe) => ToolDef<any>[]) {
  const probe: Probe = { calls: [] };
  const { engine, ws } = engineWith(tools ? tools(probe) : [echoTool(probe), touchTool(probe)]);
  const model = new ScriptedModel(outputs);
  const emitted: Step[] = [];
  const run = () => runLoop({ engine, model, task: 'Do the thing.', onStep: (s) => emitted.push(s), ...extra });
  return { probe, engine, ws, model, emitted, run };
}

describe('messy outputs and one call per turn', () => {
  it('runs a call wrapped in prose and a fence, and records the repairs', async () => {
    const t = setup(['Let me echo.\n```json\n' + call('echo', { text: 'hi' }) + '\n```\nThat is all.', DONE]);
    const r = await t.run();
    expect(r.stop.kind).toBe('done');
    expect(t.probe.calls).toEqual([{ tool: 'echo', args: { text: 'hi' } }]);
    const s1 = r.steps[0]!;
    expect(s1.observation).toBe('hi');
    expect(s1.notes.find((n) => n.kind === 'repair')?.detail).toMatch(/fence/);
    // The history keeps the message cut to its first call.
    expect(r.steps[1]!.messages[2]).toEqual({
      role: 'assistant',
      content: 'Let me echo.\n```json\n' + call('echo', { text: 'hi' }) + '\n```',
    });
  });

  it('runs only the first of two calls and tells the model what was dropped', async () => {
    const t = setup([call('echo', { text: 'one' }) + '\n' + call('touch', { path: 'x.txt' }), DONE]);
    const r = await t.run();
    expect(t.probe.calls.map((c) => c.tool)).toEqual(['echo']);
    expect(r.steps[0]!.observation).toMatch(
      /^one\n\[one tool call per turn — only your first call was run; 1 more call was dropped \(touch\)/,
    );
    expect(r.steps[0]!.notes.find((n) => n.kind === 'dropped-calls')?.detail).toBe('touch');
  });

  it('refuses to end on a tool call: a done sent after another call is dropped and must be resent', async () => {
    const t = setup([call('echo', { text: 'x' }) + DONE, DONE]);
    const r = await t.run();
    expect(r.steps).toHaveLength(2);
    expect(r.steps[0]!.observation).toMatch(/Your done was dropped too/);
    expect(r.stop.kind).toBe('done');
  });

  it('answers plain text with the final-JSON rule and goes on', async () => {
    const t = setup(['I think the task is complete.', DONE]);
    const r = await t.run();
    const s1 = r.steps[0]!;
    expect(s1.call).toBeUndefined();
    expect(s1.parseError?.kind).toBe('no-call');
    expect(s1.observation).toContain(CANONICAL_DONE);
    expect(s1.notes.map((n) => n.kind)).toEqual(['parse-retry']);
    expect(r.stop.kind).toBe('done');
  });

  it('passes unknown tools to the engine, whose message lists the real ones', async () => {
    const t = setup([call('read_file', { path: 'a' }), DONE]);
    const r = await t.run();
    expect(r.steps[0]!.result?.ok).toBe(false);
    expect(r.steps[0]!.observation).toMatch(/Unknown tool "read_file"\. Available tools: echo, touch/);
  });
});

describe('limits are values carrying their reason', () => {
  const rows: {
    name: string;
    outputs: string[];
    opts: Partial<LoopOptions>;
    kind: string;
    steps: number;
    says: RegExp;
  }[] = [
    {
      name: 'max steps',
      outputs: Array(5).fill(call('echo', { text: 'a' })),
      opts: { maxSteps: 3 },
      kind: 'max-steps',
      steps: 3,
      says: /step limit \(3\) without the final done JSON/,
    },
    {
      name: 'parse failures in a row',
      outputs: ['hmm', 'well', '{"broken": ', 'no'],
      opts: { maxParseFailures: 3 },
      kind: 'parse-failures',
      steps: 3,
      says: /3 replies in a row/,
    },
  ];
  it.each(rows)('$name', async (row) => {
    const t = setup(row.outputs, row.opts);
    const r = await t.run();
    expect(r.stop.kind).toBe(row.kind);
    expect(r.steps).toHaveLength(row.steps);
    const limit = r.steps[row.steps - 1]!.notes.find((n) => n.kind === 'limit');
    expect(limit?.text).toMatch(row.says);
  });

  it('a scripted model that runs out ends the run with a clear reason', async () => {
    const t = setup([call('echo', { text: 'a' })]);
    const r = await t.run();
    expect(r.steps).toHaveLength(1);
    expect(r.stop).toMatchObject({ kind: 'model-error', code: 'exhausted' });
    expect(r.stop.kind === 'model-error' && r.stop.message).toMatch(/no output left: all 1 recorded output was used/);
  });

  it('a parse failure followed by a good call resets the failure count', async () => {
    const t = setup(['no', 'no', call('echo', { text: 'a' }), 'no', 'no', DONE], { maxParseFailures: 3 });
    expect((await t.run()).stop.kind).toBe('done');
  });
});

describe('done', () => {
  it('without a ws_test tool: ends, records the summary and that no test tool was available', async () => {
    const t = setup([call('done', { summary: 'fixed it' })]);
    const r = await t.run();
    expect(r.stop).toEqual({ kind: 'done', summary: 'fixed it', tally: null, testTool: false, verdict: 'unmeasured' });
    expect(r.steps[0]!.notes.map((n) => n.kind)).toEqual(['no-test-tool']);
    expect(r.steps[0]!.observation).toMatch(/No test tool \(ws_test\) was available/);
  });

  it('with a ws_test tool: runs the tests one last time and records the tally', async () => {
    const t = setup([call('done', { summary: 'ok' })], {}, (p) => [echoTool(p), testTool(p, ['Tests  4 passed (4)'])]);
    const r = await t.run();
    expect(t.probe.calls.map((c) => c.tool)).toEqual(['ws_test']);
    expect(r.stop).toMatchObject({ kind: 'done', testTool: true, tally: { passed: 4, failed: 0, source: 'ws_test' } });
    expect(r.steps[0]!.tally).toEqual({ passed: 4, failed: 0, source: 'ws_test' });
  });

  it('the final tally, not the summary, decides how the run ended', async () => {
    const t = setup([call('done', { summary: 'Tests pass.' })], {}, (p) => [
      echoTool(p),
      testTool(p, ['8 passed, 1 failed']),
    ]);
    const r = await t.run();
    expect(r.stop).toMatchObject({ kind: 'done', verdict: 'fail', tally: { passed: 8, failed: 1 } });
    expect(stopText(r.stop)).toBe(
      "finished with done: final tests fail (8 passed, 1 failed) — the model's summary: Tests pass.",
    );
  });

  it('without a summary: refused with the shape to send, and the run goes on', async () => {
    const t = setup([call('done', {}), DONE]);
    const r = await t.run();
    expect(r.steps[0]!.result?.ok).toBe(false);
    expect(r.steps[0]!.observation).toMatch(
      /done was not run — its arguments do not match the schema:\n- summary: missing/,
    );
    expect(r.steps).toHaveLength(2);
  });
});

describe('stall detection on the measured tally', () => {
  it('nudges after N steps without a better tally, and not before', async () => {
    const failing = 'Tests  1 failed | 2 passed (3)';
    const outputs = [
      call('ws_test'),
      call('echo', { text: 'a' }),
      call('echo', { text: 'b' }),
      call('echo', { text: 'c' }),
      DONE,
    ];
    const t = setup(outputs, { stallSteps: 3 }, (p) => [echoTool(p), testTool(p, [failing])]);
    const r = await t.run();
    expect(r.steps[0]!.tally).toEqual({ passed: 2, failed: 1, source: 'ws_test' });
    const stalls = r.steps.map((s) => s.notes.some((n) => n.kind === 'stall'));
    expect(stalls).toEqual([false, false, false, true, false]);
    expect(r.steps[3]!.observation).toMatch(
      /^c\n\[STALL — no test progress in the last 3 steps; the best tally is still 2 passed, 1 failed/,
    );
  });

  it('an improving tally resets the count', async () => {
    const outputs = [call('ws_test'), call('echo', { text: 'a' }), call('ws_test'), call('echo', { text: 'b' }), DONE];
    const t = setup(outputs, { stallSteps: 2 }, (p) => [echoTool(p), testTool(p, ['2 passed, 1 failed', '3 passed'])]);
    const r = await t.run();
    expect(r.steps.map((s) => s.notes.some((n) => n.kind === 'stall'))).toEqual([false, false, false, false, false]);
  });

  it('no test run, no stall nudge', async () => {
    const t = setup([...Array(6).fill(call('echo', { text: 'a' })), DONE], { stallSteps: 2 });
    // A run of identical echo calls trips the engine's loop guard, not the stall detector.
    const r = await t.run();
    expect(r.steps.some((s) => s.notes.some((n) => n.kind === 'stall'))).toBe(false);
  });
});

describe('approvals', () => {
  const edit = call('touch', { path: 'a.txt' });
  it.each([
    { mode: 'ask' as const, answer: false, ran: false, approval: 'denied', asked: 1 },
    { mode: 'ask' as const, answer: true, ran: true, approval: 'approved', asked: 1 },
    { mode: 'auto' as const, answer: false, ran: true, approval: undefined, asked: 0 },
  ])('$mode, person says $answer', async (row) => {
    const asked: unknown[] = [];
    const t = setup([edit, DONE], { approval: row.mode, approve: async (req) => (asked.push(req), row.answer) });
    const r = await t.run();
    expect(asked).toHaveLength(row.asked);
    expect(t.probe.calls.some((c) => c.tool === 'touch')).toBe(row.ran);
    expect(r.steps[0]!.approval).toBe(row.approval);
    expect(!!(await t.ws.lstat('a.txt'))).toBe(row.ran);
    if (!row.ran)
      expect(r.steps[0]!.observation).toMatch(/^A person declined this touch call, so nothing was changed\./);
  });

  it('ask mode without an approver runs nothing, and says no one was there to approve it (not that a person declined)', async () => {
    const t = setup([edit, DONE], { approval: 'ask' });
    const r = await t.run();
    expect(r.steps[0]!.approval).toBe('unasked');
    expect(t.probe.calls).toEqual([]);
    expect(r.steps[0]!.observation).toMatch(
      /^This touch call needs a person's approval, and no one was there to approve it \(this run has no approver\), so nothing was changed\. In the auto approval mode/,
    );
    expect(r.steps[0]!.observation).not.toMatch(/declined/);
  });

  it('read-only calls are never put before a person', async () => {
    const asked: unknown[] = [];
    const t = setup([call('echo', { text: 'a' }), DONE], {
      approval: 'ask',
      approve: async (req) => (asked.push(req), true),
    });
    await t.run();
    expect(asked).toEqual([]);
  });

  it('a gated shell command asks; a free one does not', async () => {
    const asked: unknown[] = [];
    const outputs = [call('ws_shell', { command: 'ls' }), call('ws_shell', { command: 'npm install x' }), DONE];
    const t = setup(
      outputs,
      {
        approval: 'ask',
        approve: async (req) => (asked.push(req), false),
        isGated: (_tool, args) => /install/.test((args as { command: string }).command),
      },
      (p) => [shellTool(p)],
    );
    const r = await t.run();
    expect(asked).toEqual([{ step: 2, tool: 'ws_shell', args: { command: 'npm install x' }, reason: 'gated-shell' }]);
    expect(r.steps[1]!.observation).toMatch(/so the command did not run/);
    expect(t.probe.calls).toHaveLength(1);
  });
});

describe('context budget', () => {
  it('elides older observations in a stated way and records the breakdown', async () => {
    const big = 'y'.repeat(2400); // ~600 tokens each
    const outputs = [...[1, 2, 3, 4, 5].map((i) => call('echo', { text: `${i}${big}` })), DONE];
    const t = setup(outputs, { contextTokens: 6000, outputTokens: 512 });
    const r = await t.run();
    const last = r.steps[5]!;
    expect(last.budget.elided.length).toBeGreaterThan(0);
    const text = last.messages.map((m) => m.content).join('\n');
    expect(text).toContain(
      `[observation of step ${last.budget.elided[0]} elided to fit the context window — re-run the tool if you need it]`,
    );
    const b = last.budget;
    expect(b.system + b.tools + b.task + b.history + b.observation + b.free + b.output).toBeLessThanOrEqual(6000);
    expect(b.observation).toBeGreaterThan(500);
    // Every step's prompt stays within the window.
    for (const s of r.steps) expect(s.tokens.prompt).toBeLessThanOrEqual(6000 - 512);
  });

  it('cuts the latest observation itself when it alone does not fit', async () => {
    // The engine caps the result at 8000 characters (~2000 tokens); a 2k window cannot hold even that.
    const t = setup([call('echo', { text: 'z'.repeat(30_000) }), DONE], { contextTokens: 2048 });
    const r = await t.run();
    expect(r.steps[1]!.budget.observationCut).toBe(true);
    expect(r.steps[1]!.messages.at(-1)!.content).toMatch(/\[output truncated: /);
    expect(r.steps[1]!.messages.at(-2)!.content).toMatch(/\[rest of the call of step 1 elided\]$/);
    expect(r.steps[1]!.tokens.prompt).toBeLessThanOrEqual(2048 - 512);
  });
});

describe('stop, step gate and step records', () => {
  it('an aborted signal stops before the next step', async () => {
    const ac = new AbortController();
    const t = setup([call('echo', { text: 'a' }), call('echo', { text: 'b' }), DONE], {
      signal: ac.signal,
      onStep: () => ac.abort(),
    });
    const r = await t.run();
    expect(r.stop).toEqual({ kind: 'stopped' });
    expect(r.steps).toHaveLength(1);
  });

  it('the gate holds each step until released, and an abort while paused stops', async () => {
    const ac = new AbortController();
    const waits: number[] = [];
    let release: () => void = () => {};
    const gate = (i: number) => {
      waits.push(i);
      return new Promise<void>((res) => (release = res));
    };
    const t = setup([call('echo', { text: 'a' }), DONE], { signal: ac.signal, gate });
    const running = t.run();
    await Promise.resolve();
    expect(waits).toEqual([1]);
    expect(t.emitted).toHaveLength(0);
    release();
    await new Promise((res) => setTimeout(res, 0));
    expect(t.emitted).toHaveLength(1);
    ac.abort();
    const r = await running;
    expect(r.stop.kind).toBe('stopped');
    expect(waits).toEqual([1, 2]);
  });

  it('emits frozen steps with the exact messages, raw output, timings and estimated tokens', async () => {
    const t = setup([call('echo', { text: 'a' }), DONE]);
    const r = await t.run();
    expect(t.emitted).toEqual(r.steps);
    const s = r.steps[0]!;
    expect(Object.isFrozen(s)).toBe(true);
    expect(() => (s.notes as unknown[]).push(1)).toThrow();
    // Frozen all the way down: what is inside a step cannot be edited either.
    for (const inner of [s.messages[0], s.call, s.call?.args, s.result, s.result?.notes, s.timing, s.tokens, s.budget])
      expect(Object.isFrozen(inner)).toBe(true);
    expect(() => ((s.messages[0] as { content: string }).content = 'edited')).toThrow();
    expect(s.messages).toEqual(t.model.received[0]);
    expect(s.messages.map((m) => m.role)).toEqual(['system', 'user']);
    expect(s.raw).toBe(call('echo', { text: 'a' }));
    expect(s.tokens.estimated).toBe(true);
    expect(s.timing.modelMs).toBeGreaterThanOrEqual(0);
    expect(r.steps[1]!.messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'user']);
  });

  it('uses the model tokenizer counts when the model reports usage', async () => {
    const model: Model = {
      id: 'fixed',
      family: 'test',
      complete: async (_m: readonly ChatMessage[], _o: CompleteOptions): Promise<Completion> => ({
        text: DONE,
        usage: { promptTokens: 321, completionTokens: 12 },
      }),
    };
    const { engine } = engineWith([]);
    const r = await runLoop({ engine, model, task: 't' });
    expect(r.steps[0]!.tokens).toEqual({ prompt: 321, completion: 12, estimated: false });
  });

  it('JSON mode sends the call schema; free-text mode does not', async () => {
    for (const jsonMode of [true, false]) {
      const seen: (object | undefined)[] = [];
      const model: Model = {
        id: 'm',
        family: 'f',
        complete: async (_m, o) => (seen.push(o.jsonSchema), { text: DONE }),
      };
      const { engine } = engineWith([echoTool({ calls: [] })]);
      await runLoop({ engine, model, task: 't', jsonMode });
      expect(seen[0] !== undefined).toBe(jsonMode);
    }
  });

  it('the bandit chooses the edit format the prompt recommends', async () => {
    const bandit = new EditFormatBandit(null, 7);
    const t = setup([DONE], { evolve: bandit, language: 'javascript' }, () =>
      ['ws_edit', 'ws_patch', 'ws_write'].map((n) => namedTool(n, true)),
    );
    const r = await t.run();
    expect(['search_replace', 'unified_diff', 'whole_file']).toContain(r.editFormat);
    expect(r.steps[0]!.messages[0]!.content).toContain('Preferred edit format');
  });
});
