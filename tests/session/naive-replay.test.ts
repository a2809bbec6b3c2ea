/**
 * A session of the eval's `off` arm names the harness that answered its tools, and every replay
 * path builds that harness: `slm replay` (its workspace and `replaySession`), a v2 link of the
 * session, and the engine worker's replay (what the run inspector and the split view show).
 * Stripped of the field, the same record replays with the engine itself and parts from its
 * record, so the field is what makes it reproduce. A record without the field is still valid.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ScriptedModel } from '../../src/agent/models/scripted.ts';
import { sandboxedMemoryWorkspaces } from '../../src/cli/eval-workspace.ts';
import { replayWorkspace } from '../../src/cli/replay-workspace.ts';
import { chooseArms } from '../../src/eval/arms.ts';
import { EVAL_DEFAULTS, planRuns, runEval } from '../../src/eval/runner.ts';
import { BUILTIN_TASKS } from '../../src/eval/tasks/index.ts';
import { toLinkForm } from '../../src/session/link-form.ts';
import { sessionSchema, type Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { decodeShare, encodeSession, linkSession, parseSessionFile } from '../../src/session/share-codec.ts';
import { replayRecords } from '../../src/worker/replay-records.ts';
import { probeHostSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { useNodeWasm } from '../support/node-wasm.ts';

useNodeWasm();
const sandbox = await probeHostSandbox();
const open = 'kind' in sandbox ? sandboxedMemoryWorkspaces(sandbox) : undefined;

/** Scripted turns (not a model's): a whole-file read, an edit whose old_str lacks the file's trailing spaces, done. */
const TURNS = [
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

/** The sessions the runner records for the trailing-whitespace task on `arms`, by arm. */
async function armSessions(arms: string): Promise<Record<string, Session>> {
  const chosen = chooseArms(arms);
  if (!chosen.ok) throw new Error(chosen.text);
  const sessions: Record<string, Session> = {};
  const task = BUILTIN_TASKS.find((t) => t.id === 'trailing-whitespace')!;
  await runEval(planRuns([task], chosen.arms, 1), {
    openWorkspace: open!,
    model: async () => ({ model: new ScriptedModel(TURNS) }),
    loop: EVAL_DEFAULTS,
    jobs: 1,
    onRun: (run, [session]) => void (sessions[run.arm] = session!),
  });
  return sessions;
}

/** Replays `session` as `slm replay` does: its workspace, then `replaySession`. */
async function cliReplay(session: Session) {
  const { ws } = await replayWorkspace(session);
  return replaySession(session, { workspace: ws });
}

const withoutHarness = ({ harness: _h, ...rest }: Session): Session => rest;

describe.skipIf(!open)('an off-arm session', () => {
  let on: Session | undefined;
  let off: Session | undefined;
  beforeAll(async () => {
    ({ on, off } = await armSessions('on,off'));
  }, 60_000);

  it('names the naive harness; an on-arm session names none', () => {
    expect(off!.harness).toBe('naive');
    expect(on!).not.toHaveProperty('harness');
  });

  it('replays with every step reproduced through slm replay, and parts from its record at step 1 without the field', async () => {
    const report = await cliReplay(off!);
    expect(report).toMatchObject({ ok: true, checked: 3, expected: 3 });
    expect(report.steps.map((s) => s.divergence)).toEqual([undefined, undefined, undefined]);
    const stripped = await cliReplay(withoutHarness(off!));
    expect(stripped.ok).toBe(false);
    expect(stripped.divergence?.index).toBe(1);
  }, 60_000);

  it('keeps the field through its session file and its v2 link, and the link replays faithfully', async () => {
    const file = await parseSessionFile(JSON.stringify(off));
    expect(file).toMatchObject({ ok: true, session: { harness: 'naive' } });
    expect(toLinkForm(await linkSession(off!))).toMatchObject({ H: 'naive' });
    const linked = await decodeShare(await encodeSession(off!));
    if (!linked.ok) throw new Error(linked.text);
    expect(linked.session.harness).toBe('naive');
    expect(await cliReplay(linked.session)).toMatchObject({ ok: true, checked: 3 });
  }, 60_000);

  it("leaves an on-arm session's link as before: no harness key", async () => {
    expect(toLinkForm(await linkSession(on!))).not.toHaveProperty('H');
    const linked = await decodeShare(await encodeSession(on!));
    expect(linked.ok && linked.session).not.toHaveProperty('harness');
  });

  // The worker's JavaScript sandbox runs in a browser, not under Node, so done's final test run
  // (step 3) cannot reproduce here; the file-tool steps the harness answered must.
  it("reproduces its file-tool steps in the engine worker's replay, labelled with its harness", async () => {
    const replayed = await replayRecords(off!);
    expect(replayed.verdict?.divergence ?? { index: 3, kind: 'shell' }).toMatchObject({ index: 3, kind: 'shell' });
    expect(replayed.records.map((r) => r.step.observation).slice(0, 2)).toEqual(
      off!.steps.slice(0, 2).map((s) => s.resultText),
    );
    expect(replayed.info.harness).toBe('naive harness (ACI off)');
    expect((await replayRecords(withoutHarness(off!))).verdict?.divergence?.index).toBe(1);
  }, 60_000);
});

describe('the record gate', () => {
  const record = {
    v: 1,
    engineVersion: 'x',
    createdAt: 'now',
    settings: {
      engine: {
        max_tool_chars: 8000,
        read_window_lines: 120,
        context_window_tokens: 4096,
        read_before_edit: true,
        edit_tolerance: true,
        disabled_rungs: [],
        over_edit_guard: true,
        loop_guard: true,
        loop_guard_repeats: 3,
        file_checkpoints: true,
        syntax_check: true,
        shell_timeout: 1000,
        shell_timeout_cap: 1000,
      },
      agent: { maxSteps: 1, contextTokens: 4096, outputTokens: 1, jsonMode: true, stallSteps: 1, maxParseFailures: 1 },
    },
    model: { id: 'scripted:x', kind: 'scripted', params: {}, seed: 0, temperature: 0 },
    task: 't',
    workspace: { files: {} },
    steps: [],
  };

  it.each([
    ['an older record, without a harness', {}, true],
    ['the naive harness', { harness: 'naive' }, true],
    ['a harness this build does not know', { harness: 'other' }, false],
    ['a harness that is not a name', { harness: { naive: true } }, false],
  ])('%s: accepted %s', (_what, extra, accepted) => {
    expect(sessionSchema.safeParse({ ...record, ...extra }).success).toBe(accepted);
  });
});
