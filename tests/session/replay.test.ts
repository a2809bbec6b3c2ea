/**
 * Replay against the real engine: a recorded run reproduces (from the file form and from the
 * shared form), and each kind of divergence is found at the right step with its reason — a
 * changed raw output, a tampered hash, a shorter step limit, a changed template, a shell step
 * whose backend differs, a newer engine. Recorded denials stay denied.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../support/node-wasm.ts';
import { Engine } from '../../src/engine/engine.ts';
import { ok } from '../../src/engine/result.ts';
import type { EngineSettings } from '../../src/engine/settings.ts';
import { defineTool } from '../../src/engine/tool.ts';
import { CODING_TOOLS } from '../../src/engine/tools/index.ts';
import type { Workspace } from '../../src/engine/workspace.ts';
import { sharedForm, type RecordedStep, type Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { formatReplay, stepHeader } from '../../src/session/replay-text.ts';
import { engineVersion } from '../../src/session/version.ts';
import { NodeWorkspace } from '../../src/workspace/node/node-workspace.ts';
import { copy, FIX_OUTPUTS, MATH, recordScript, workspaceWith } from './support.ts';

let session: Session;
const dirs: string[] = [];

beforeAll(async () => {
  useNodeWasm();
  session = await recordScript();
});
afterAll(async () => {
  await Promise.all(dirs.map((d) => rm(d, { recursive: true, force: true })));
});

async function nodeWorkspace(files: Record<string, string>): Promise<NodeWorkspace> {
  const dir = await mkdtemp(join(tmpdir(), 'slm-replay-'));
  dirs.push(dir);
  const ws = await NodeWorkspace.open(dir);
  for (const [path, text] of Object.entries(files)) await ws.writeFile(path, new TextEncoder().encode(text));
  return ws;
}

describe('a faithful replay', () => {
  it('reproduces every step of a recorded run, with the result texts the model saw', async () => {
    const report = await replaySession(session);
    expect(report.ok).toBe(true);
    expect(report.divergence).toBeUndefined();
    expect(report.steps.map((s) => s.tool)).toEqual(['ws_read', 'ws_edit', 'done']);
    expect(report.steps.map((s) => s.resultText)).toEqual(session.steps.map((s) => s.resultText));
    expect(report.backend).toBe('memory');
    expect(formatReplay(report)).toMatch(
      /^✓ reproduced: 3 steps on the memory backend( \(Node v[\d.]+\))? in \d+ ms, every result and workspace matches the record\n$/,
    );
    expect(stepHeader(report.steps[1]!)).toBe('=== step 2 · ws_edit · ✓');
  });

  it('reproduces from the shared form, which carries no result texts', async () => {
    expect((await replaySession(sharedForm(session))).ok).toBe(true);
  });

  it('gives a recorded denial again: the denied edit stays denied and the run reproduces', async () => {
    const denied = await recordScript({ outputs: FIX_OUTPUTS, loop: { approval: 'ask', approve: async () => false } });
    expect(denied.steps[1]).toMatchObject({ approval: 'denied' });
    expect(denied.steps[1]!.resultText).toMatch(/A person declined this ws_edit call/);
    const report = await replaySession(denied);
    expect(report.ok).toBe(true);
    expect(report.steps[1]!.resultText).toMatch(/A person declined this ws_edit call/);
  });

  it('says when the record came from another engine version, and still reproduces', async () => {
    const other = { ...session, engineVersion: '9.9.9+000000000000' };
    const report = await replaySession(other);
    expect(report.ok).toBe(true);
    expect(formatReplay(report)).toContain(
      `(recorded with engine 9.9.9+000000000000, replayed with ${await engineVersion()})`,
    );
  });
});

const readOther = '{"tool": "ws_read", "args": {"path": "src/other.js"}}';
const multiply =
  '{"tool": "ws_edit", "args": {"path": "src/math.js", "old_str": "  return a - b;", "new_str": "  return a * b;"}}';

describe('divergences, found at their step with why', () => {
  // Each row: how the record is changed → the first divergence expected (step, kind, why, diff).
  const rows: [string, (s: Session) => Session, number, string, RegExp, RegExp | undefined][] = [
    [
      'a raw output that reads another file',
      (s) => withStep(s, 0, { raw: readOther }),
      1,
      'result',
      // The raw output is not covered by the record's hashes, and nothing else differs: said as unexplained, not as tampering.
      /^Step 1 \(ws_read\) gave a different result from the recorded one\. No cause found: the settings, backend and engine version are the record's, and the record's own hashes agree with its texts, so ws_read behaved differently here/,
      /^@@ first difference at line 1 @@\n- \[src\/math\.js#[0-9a-f]{4}: lines 1-3 of 3\]/,
    ],
    [
      'a raw edit with another replacement',
      (s) => withStep(s, 1, { raw: multiply }),
      2,
      'workspace',
      /gave the recorded result, but the workspace after it differs .* This step changed src\/math\.js\./,
      undefined,
    ],
    [
      'a tampered result hash',
      (s) => withStep(s, 0, { resultHash: '000000000000' }),
      1,
      'result',
      /Cause: the record was altered after it was made: its result text does not hash to its result hash \(000000000000\)/,
      undefined,
    ],
    [
      'a tampered workspace hash',
      (s) => withStep(s, 2, { workspaceHash: '000000000000' }),
      3,
      'workspace',
      /workspace after it differs \(hash [0-9a-f]{12}, recorded 000000000000\)/,
      undefined,
    ],
    [
      'a changed raw output in the shared form',
      (s) => withStep(sharedForm(s), 0, { raw: readOther }),
      1,
      'result',
      /is not the recorded [0-9a-f]{12}\. This record carries no result texts .* the session file has both\. No cause found: .*\(a link carries no texts to check\)/,
      /^\+ /,
    ],
    [
      'a step limit below the recorded steps',
      (s) => ({ ...s, settings: { ...s.settings, agent: { ...s.settings.agent, maxSteps: 1 } } }),
      2,
      'missing',
      /^The replay ended after 1 of the 3 recorded steps \(reached the step limit \(1\) without the final done JSON\)\.$/,
      undefined,
    ],
    [
      'a template whose files changed',
      (s) => ({ ...s, workspace: { template: { id: 'starter', hash: '000000000000' } } }),
      0,
      'start',
      /^The replay cannot start: .*"starter" with content hash 000000000000, but this build's "starter" hashes to [0-9a-f]{12}/,
      undefined,
    ],
    [
      'a template this build lacks',
      (s) => ({ ...s, workspace: { template: { id: 'gone', hash: '000000000000' } } }),
      0,
      'start',
      /"gone", which this build does not have \(it has: starter\)/,
      undefined,
    ],
    [
      'a changed raw output under another engine version',
      (s) => ({ ...withStep(s, 0, { raw: readOther }), engineVersion: '0.0.1+000000000000' }),
      1,
      'result',
      /Cause: the engine version differs: the session was recorded with engine 0\.0\.1\+000000000000 and this is \S+\.$/,
      /^@@/,
    ],
  ];

  it.each(rows)('%s', async (_name, change, index, kind, why, diff) => {
    const report = await replaySession(change(copy(session)));
    expect(report.ok).toBe(false);
    expect(report.divergence).toMatchObject({ index, kind });
    expect(report.divergence!.why).toMatch(why);
    if (diff) expect(report.divergence!.diff).toMatch(diff);
    expect(formatReplay(report)).toMatch(
      new RegExp(`^✗ diverged at ${index === 0 ? 'the start' : `step ${index}`} \\(${kind}\\): `),
    );
  });

  it('marks the diverging step in its --print header', async () => {
    const report = await replaySession(withStep(copy(session), 0, { raw: readOther }));
    expect(stepHeader(report.steps[0]!)).toBe('=== step 1 · ws_read · ✗ result differs');
  });
});

/** `ws_shell` standing in for a real shell: its output names the backend, as real output (paths, versions) does. */
const backendShell = defineTool({
  name: 'ws_shell',
  summary: 'Run one command (bounded)',
  writes: false,
  schema: z.object({ command: z.string() }),
  run: async (args, ctx) => ok(`$ ${args.command}\nran on ${ctx.ws.kind}\nexit code 0`),
});

function shellEngine(ws: Workspace, settings?: Partial<EngineSettings>): Engine {
  return new Engine({
    workspace: ws,
    tools: [...CODING_TOOLS.filter((t) => t.name !== 'ws_shell'), backendShell],
    ...(settings && { settings }),
  });
}

describe('backend-dependent shell steps', () => {
  const outputs = [
    FIX_OUTPUTS[0]!,
    '{"tool": "ws_shell", "args": {"command": "node --version"}}',
    '{"tool": "done", "args": {"summary": "looked"}}',
  ];

  it('records the output and the backend, and a replay elsewhere says where it differs', async () => {
    const recorded = await recordScript({
      outputs,
      workspace: await nodeWorkspace({ 'src/math.js': MATH }),
      engine: (ws) => shellEngine(ws),
    });
    expect(recorded.steps[1]).toMatchObject({
      backend: 'node',
      shellOutput: '$ node --version\nran on node\nexit code 0',
    });
    // The shared form keeps the backend and the output's hash: a replay elsewhere can still tell a changed command output.
    // Run without the sandbox, the command saw the real directory: the record names it, so a replay can read it as /ws.
    expect(sharedForm(recorded).steps[1]).toEqual({
      raw: outputs[1],
      resultHash: recorded.steps[1]!.resultHash,
      workspaceHash: recorded.steps[1]!.workspaceHash,
      backend: 'node',
      root: recorded.steps[1]!.root,
      shellHash: recorded.steps[1]!.shellHash,
      shellFacts: recorded.steps[1]!.shellFacts,
    });
    expect(recorded.steps[1]!.root).toMatch(/^\/.+/);
    const why =
      "Step 2 (ws_shell) ran a command (recorded on node and replayed on memory), and its result differs from the record. Cause: this replay's workspace runs no commands (a replay runs a session's code only inside the OS sandbox, and there was none), so the command did not run here.";

    // The session file shows how the output differs; a link, only that it does.
    const fromFile = await replaySession(recorded, { engine: shellEngine });
    expect(fromFile.divergence).toMatchObject({ index: 2, kind: 'shell', cause: 'no-runner', why });
    expect(fromFile.divergence!.diff).toBe(
      '@@ first difference at line 2 @@\n  $ node --version\n- ran on node\n- exit code 0\n+ ran on memory\n+ exit code 0',
    );
    const fromLink = await replaySession(sharedForm(recorded), { engine: shellEngine });
    expect(fromLink.divergence).toEqual({ index: 2, kind: 'shell', cause: 'no-runner', why });

    const same = await replaySession(sharedForm(recorded), { engine: shellEngine, workspace: await nodeWorkspace({}) });
    expect(same.ok).toBe(true);
    expect(same.backend).toBe('node');
  });

  // A record changed after it was made (its result hash and shell output or hash): replayed on the same backend, the cause is named.
  it.each([
    [
      'another word in the file form',
      (st: RecordedStep) => ({ ...st, shellOutput: st.shellOutput!.replace('ran on', 'ran in') }),
      /Cause: the record was altered after it was made: its result text does not hash to its result hash \(000000000000\)/,
    ],
    [
      'another hash in a link',
      (st: RecordedStep) => ({ ...sharedForm({ steps: [st] } as Session).steps[0]!, shellHash: '000000000000' }),
      // A link holds no texts to check its hashes against (its frame's own SHA-256 guards the link as a whole).
      /No cause found: .*\(a link carries no texts to check\)/,
    ],
    [
      'only a number changed (a timing, say)',
      (st: RecordedStep) => ({ ...st, shellOutput: st.shellOutput!.replace('exit code 0', 'exit code 17') }),
      /Cause: the outputs differ only in their numbers \(timings, say\): the command's output is not deterministic\.$/,
    ],
  ])('replayed on the same backend, a shell step changed by %s says why', async (_name, change, why) => {
    const recorded = await recordScript({
      outputs,
      workspace: await nodeWorkspace({ 'src/math.js': MATH }),
      engine: (ws) => shellEngine(ws),
    });
    const tampered = {
      ...recorded,
      steps: recorded.steps.map((st, i) => (i === 1 ? { ...change(st), resultHash: '000000000000' } : st)),
    };
    const report = await replaySession(tampered, { engine: shellEngine, workspace: await nodeWorkspace({}) });
    expect(report.divergence).toMatchObject({ index: 2, kind: 'shell' });
    expect(report.divergence!.why).toMatch(why);
  });
});

function withStep(s: Session, i: number, patch: Partial<Session['steps'][number]>): Session {
  return { ...s, steps: s.steps.map((step, j) => (j === i ? { ...step, ...patch } : step)) };
}

describe('seenText: the result as the model saw it', () => {
  it('is the text the next prompt carried, cut to fit a small context window, while resultText stays whole', async () => {
    const big = Array.from(
      { length: 400 },
      (_, i) => `export const value${i} = ${i}; // a line long enough to count`,
    ).join('\n');
    const session = await recordScript({
      workspace: await workspaceWith({ 'src/big.js': big }),
      outputs: [
        '{"tool": "ws_read", "args": {"path": "src/big.js", "limit": 400}}',
        '{"tool": "done", "args": {"summary": "read it"}}',
      ],
      loop: { contextTokens: 3000 },
    });
    const report = await replaySession(session);
    expect(report.ok).toBe(true);
    const [read, done] = report.steps;
    expect(read!.seenText.length).toBeLessThan(read!.resultText.length);
    expect(read!.seenText).toContain('characters omitted');
    expect(done!.seenText).toBe(done!.resultText);
  });
});
