/**
 * The Eval page's runs in the worker: the reference model over two tasks × the on and off arms
 * streams a start and a graded run per session and ends with results.json (labelled scripted);
 * a bad configuration is refused with what to change; stop ends the eval with what finished.
 * Graders run in the OS sandbox, as `slm eval` runs them (skipped where there is none).
 */
import { describe, expect, it } from 'vitest';
import { sandboxedMemoryWorkspaces } from '../cli/eval-workspace.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import { probeHostSandbox } from '../workspace/node/host-sandbox.ts';
import { EvalHost, evalModelSpec } from './eval-host.ts';
import type { EvalConfig, EvalEvent } from './protocol.ts';

useNodeWasm();
const sandbox = await probeHostSandbox();
const open = 'kind' in sandbox ? sandboxedMemoryWorkspaces(sandbox) : undefined;

const suite = new EvalHost(() => {}).builtinSuite();
const TWO = suite.tasks.slice(0, 2).map((t) => t.id);
const CONFIG: EvalConfig = {
  tasks: TWO,
  arms: ['on', 'off'],
  seeds: 1,
  model: { kind: 'reference' },
  jobs: 1,
  maxSteps: 20,
  contextTokens: 4096,
};

function host(workspaces = open) {
  const events: { id: number; event: EvalEvent }[] = [];
  const h = new EvalHost((id, event) => events.push({ id, event }), {}, workspaces);
  const ended = () =>
    events.find((e) => e.event.kind === 'ended')?.event as Extract<EvalEvent, { kind: 'ended' }> | undefined;
  return { h, events, ended };
}

describe('the builtin suite', () => {
  it('offers the builtin tasks with their mechanisms and every arm', () => {
    expect(suite.name).toBe('builtin');
    expect(suite.tasks.length).toBeGreaterThanOrEqual(24);
    expect(suite.tasks.every((t) => t.mechanisms.length > 0)).toBe(true);
    expect(suite.arms.map((a) => a.id).slice(0, 2)).toEqual(['on', 'off']);
  });
});

describe('evalModelSpec', () => {
  it.each<[EvalConfig['model'], string]>([
    [{ kind: 'reference' }, 'reference'],
    [{ kind: 'openai', baseUrl: 'http://localhost:11434/v1', model: 'qwen' }, 'openai:http://localhost:11434/v1#qwen'],
    [{ kind: 'webllm', modelId: 'Qwen2.5-Coder-1.5B' }, 'webllm:Qwen2.5-Coder-1.5B'],
    [{ kind: 'gguf', source: { url: 'https://x/m.gguf' } }, 'gguf:https://x/m.gguf'],
  ])('%o → %s', (choice, spec) => {
    expect(evalModelSpec(choice)).toBe(spec);
  });
});

describe('EvalHost', () => {
  it.each<[string, Partial<EvalConfig>, RegExp]>([
    ['an unknown task', { tasks: ['nope'] }, /Unknown task nope/],
    ['no task', { tasks: [] }, /at least one task/],
    ['an unknown arm', { arms: ['on', 'sideways'] }, /unknown arm "sideways"/],
    ['zero seeds', { seeds: 0 }, /Seeds must be a whole number from 1 to 20/],
    ['a step limit too high', { maxSteps: 1000 }, /step limit must be a whole number/],
    ['a context window too small', { contextTokens: 100 }, /context window must be a whole number from 256/],
  ])('refuses %s, saying what to change', async (_name, change, message) => {
    await expect(host().h.start({ ...CONFIG, ...change })).rejects.toThrow(message);
  });

  it.skipIf(!open)(
    'runs the reference solutions over tasks × arms, streams each graded session, and ends with the labelled results',
    async () => {
      const { h, events, ended } = host();
      const started = await h.start(CONFIG);
      expect(started.total).toBe(4);
      expect(started.model).toMatchObject({
        id: 'reference',
        label: 'scripted',
        note: expect.stringMatching(/mean nothing/),
      });
      await expect.poll(ended, { timeout: 120_000, interval: 200 }).toBeDefined();
      const runs = events.flatMap((e) => (e.event.kind === 'run' ? [e.event] : []));
      expect(events.filter((e) => e.event.kind === 'start')).toHaveLength(4);
      expect(runs.map((r) => `${r.run.task}.${r.run.arm}`)).toEqual(TWO.flatMap((t) => [`${t}.on`, `${t}.off`]));
      // The reference solution passes its grader on the on arm; every run carries its session.
      expect(runs.filter((r) => r.run.arm === 'on').every((r) => r.run.passed)).toBe(true);
      expect(runs.every((r) => r.session.steps.length === r.run.steps)).toBe(true);
      const results = ended()!.results;
      expect(results).toMatchObject({ suite: 'builtin', complete: true, seeds: 1, model: { label: 'scripted' } });
      expect(results.summary.arms.map((a) => [a.arm, a.runs])).toEqual([
        ['on', 2],
        ['off', 2],
      ]);
    },
  );

  it.skipIf(!open)('stops: nothing new starts, and the end holds what finished', async () => {
    const events: EvalEvent[] = [];
    let evalId = 0;
    // Stopped as soon as the first session is graded.
    const h: EvalHost = new EvalHost(
      (_id, event) => {
        events.push(event);
        if (event.kind === 'run') h.stop(evalId);
      },
      {},
      open,
    );
    evalId = (await h.start({ ...CONFIG, arms: ['on'] })).evalId;
    const ended = () => events.find((e) => e.kind === 'ended') as Extract<EvalEvent, { kind: 'ended' }> | undefined;
    await expect.poll(ended, { timeout: 60_000, interval: 100 }).toBeDefined();
    expect(ended()!.results.runs).toHaveLength(1);
    expect(ended()!.results.complete).toBe(false);
    expect(events.filter((e) => e.kind === 'start')).toHaveLength(1);
  });

  it.skipIf(!open)(
    "runs an endpoint several sessions at once; its results are a real model's, and a session that only says done fails its grader",
    async () => {
      let active = 0;
      let most = 0;
      const reply = JSON.stringify({
        choices: [
          {
            message: { role: 'assistant', content: '{"tool": "done", "args": {"summary": "nothing to do"}}' },
            finish_reason: 'stop',
          },
        ],
        usage: { prompt_tokens: 10, completion_tokens: 5 },
      });
      const fetchStub: typeof fetch = async () => {
        active++;
        most = Math.max(most, active);
        await new Promise((r) => setTimeout(r, 20));
        active--;
        return new Response(reply, { headers: { 'content-type': 'application/json' } });
      };
      const events: EvalEvent[] = [];
      const h = new EvalHost((_id, e) => events.push(e), { fetch: fetchStub }, open);
      const started = await h.start({
        ...CONFIG,
        arms: ['on'],
        seeds: 2,
        jobs: 2,
        model: { kind: 'openai', baseUrl: 'http://stub/v1', model: 'stub' },
      });
      expect(started.model).toMatchObject({ id: 'openai:http://stub/v1#stub', label: 'real' });
      const ended = () => events.find((e) => e.kind === 'ended') as Extract<EvalEvent, { kind: 'ended' }> | undefined;
      await expect.poll(ended, { timeout: 120_000, interval: 200 }).toBeDefined();
      expect(ended()!.error).toBeUndefined();
      expect(ended()!.results.runs).toHaveLength(4);
      expect(ended()!.results.runs.every((r) => !r.passed && r.failure !== null)).toBe(true);
      expect(most).toBe(2);
    },
  );
});
