/**
 * The runner in process: the same scripted turns on the `on` and `off` arms take different
 * trajectories — a recalled old_str without the file's trailing spaces lands through the
 * ladder and misses under the naive harness — and each session is graded, classified and
 * counted; sessions run side by side come back in plan order.
 */
import { describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import type { Session } from '../../src/session/record.ts';
import { sandboxedMemoryWorkspaces } from '../../src/cli/eval-workspace.ts';
import { chooseArms } from '../../src/eval/arms.ts';
import { referenceModel } from '../../src/eval/reference-model.ts';
import { EVAL_DEFAULTS, planRuns, runEval, sessionPath } from '../../src/eval/runner.ts';
import { BUILTIN_TASKS } from '../../src/eval/tasks/index.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

useNodeWasm();
const sandbox = await probeHostSandbox();
const open = 'kind' in sandbox ? sandboxedMemoryWorkspaces(sandbox) : undefined;
const task = (id: string) => BUILTIN_TASKS.find((t) => t.id === id)!;
const arms = (list: string) => {
  const chosen = chooseArms(list);
  if (!chosen.ok) throw new Error(chosen.text);
  return chosen.arms;
};

/** What a small model recalls of src/greet.js: the right lines, without their trailing spaces. */
const RECALLED = [
  '{"tool": "ws_read", "args": {"path": "src/greet.js"}}',
  JSON.stringify({
    tool: 'ws_edit',
    args: {
      path: 'src/greet.js',
      old_str: "  const who = name || 'friend';\n\n  return 'Hello, ' + who + '!';",
      new_str: "  const who = name || 'friend';\n\n  return 'Welcome, ' + who + '!';",
    },
  }),
  '{"tool": "done", "args": {"summary": "greet says Welcome"}}',
];

describe.skipIf(!open)('runEval', () => {
  it('drives a different trajectory on and off: the ladder lands the recalled edit, the naive exact match does not', async () => {
    const plan = planRuns([task('trailing-whitespace')], arms('on,off'), 1);
    const out = await runEval(plan, {
      openWorkspace: open!,
      model: async () => ({ model: new ScriptedModel(RECALLED) }),
      loop: EVAL_DEFAULTS,
      jobs: 1,
    });
    expect(out.complete).toBe(true);
    const [on, off] = out.runs;
    expect(on).toMatchObject({
      arm: 'on',
      passed: true,
      failure: null,
      stop: 'done',
      steps: 3,
      mechanisms: { 'rung-trailing-ws': 1 },
    });
    expect(off).toMatchObject({
      arm: 'off',
      passed: false,
      failure: 'gave-up',
      stop: 'done',
      steps: 3,
      mechanisms: {},
    });
    expect(off!.grader.failed).toBeGreaterThan(0);
    expect(off!.grader.excerpt).toContain('Hello, Ada!');
  }, 60_000);

  it('runs sessions side by side and gives them back in plan order, each with its session', async () => {
    const tasks = [task('repeated-span'), task('curly-quotes')];
    const plan = planRuns(tasks, arms('on,ladder-off'), 1);
    const sessions: string[] = [];
    const out = await runEval(plan, {
      openWorkspace: open!,
      model: async (spec) => ({ model: referenceModel(spec.task) }),
      loop: EVAL_DEFAULTS,
      jobs: 3,
      onRun: (run, [session]) => {
        sessions.push(run.session);
        expect(session!.task).toBe(task(run.task).statement);
      },
    });
    expect(out.runs.map((r) => `${r.task}/${r.arm}`)).toEqual([
      'repeated-span/on',
      'repeated-span/ladder-off',
      'curly-quotes/on',
      'curly-quotes/ladder-off',
    ]);
    expect(out.runs.every((r) => r.passed)).toBe(true);
    expect(sessions.sort()).toEqual(plan.map(sessionPath).sort());
  }, 90_000);

  it('starts nothing once stopped, and says the eval is incomplete', async () => {
    const ac = new AbortController();
    ac.abort();
    const out = await runEval(planRuns([task('repeated-span')], arms('on'), 2), {
      openWorkspace: open!,
      model: async (s) => ({ model: referenceModel(s.task) }),
      loop: EVAL_DEFAULTS,
      jobs: 1,
      signal: ac.signal,
    });
    expect(out).toEqual({ runs: [], complete: false });
  });

  it('with two attempts, a failed session gets a second one shown the failing output: pass@1 false, pass@2 true', async () => {
    const plan = planRuns([task('trailing-whitespace')], arms('on'), 1);
    const scripts = [['{"tool": "done", "args": {"summary": "nothing to do"}}'], RECALLED];
    const seen: Session[] = [];
    const out = await runEval(plan, {
      openWorkspace: open!,
      model: async () => ({ model: new ScriptedModel(scripts.shift()!) }),
      loop: { ...EVAL_DEFAULTS, attempts: 2 },
      jobs: 1,
      onRun: (_run, sessions) => void seen.push(...sessions),
    });
    expect(out.runs).toMatchObject([
      {
        passed: true,
        passedFirst: false,
        steps: 4,
        session: 'sessions/trailing-whitespace.on.s0.session.json',
        retrySession: 'sessions/trailing-whitespace.on.s0.attempt2.session.json',
      },
    ]);
    expect(seen).toHaveLength(2);
    expect(seen[1]!.task).toContain('A previous attempt at this task left the project in its current state');
    expect(seen[1]!.task).toContain('Hello, Ada!'); // the failing test's output
  }, 60_000);

  it('with two attempts, a session that passes has no second one', async () => {
    const out = await runEval(planRuns([task('trailing-whitespace')], arms('on'), 1), {
      openWorkspace: open!,
      model: async () => ({ model: new ScriptedModel(RECALLED) }),
      loop: { ...EVAL_DEFAULTS, attempts: 2 },
      jobs: 1,
    });
    expect(out.runs[0]).toMatchObject({ passed: true, passedFirst: true, steps: 3 });
    expect(out.runs[0]!.retrySession).toBeUndefined();
  }, 60_000);
});
