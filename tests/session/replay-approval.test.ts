/**
 * Replays never approve. A session whose step recorded `approval: "approved"` for a gated
 * command replays without running it — from the file form, the shared (link) form, with the
 * approval stripped or marked as not approved — and the check says why, as an approval
 * divergence, not as a changed result; `slm replay` reports the same. Only a person's approval
 * of that very step for this replay runs it, and then it reproduces. (The worker's side — the
 * step marks, the offer, "Approve and run" — is in src/worker/approve-step.test.ts.)
 */
import { PassThrough } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/agent/approvals.ts';
import { replayCommand } from '../../src/cli/commands/replay.ts';
import { useNodeWasm } from '../../src/platform/node-wasm.ts';
import { sharedForm, type RecordedStep, type Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { replayApprovals } from '../../src/session/replay-check.ts';
import { stepHeader } from '../../src/session/replay-text.ts';
import { shareUrl } from '../../src/session/share-codec.ts';
import { encodeText } from '../../src/engine/text.ts';
import { DEFAULT_SETTINGS } from '../../src/engine/settings.ts';
import { sandboxRunner } from '../../src/workspace/memory/js-sandbox.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { recordScript } from './support.ts';

const MARKER = 'approved-marker';
/** A gated command (it writes from the shell), then a step that reads the tree. */
const OUTPUTS = [
  JSON.stringify({ tool: 'ws_shell', args: { command: `touch ${MARKER}` } }),
  JSON.stringify({ tool: 'ws_list', args: { path: '.' } }),
];

let approved: Session;
/** Whether the command ran when the session was recorded (a person approved it then). */
let ranWhenRecorded: boolean;

beforeAll(async () => {
  useNodeWasm();
  const ws = commandWorkspace();
  await ws.writeFile('README.md', encodeText('# notes\n'));
  approved = await recordScript({ outputs: OUTPUTS, workspace: ws, loop: { approve: async () => true } });
  ranWhenRecorded = (await ws.lstat(MARKER)) !== null;
});

/** A memory workspace that runs commands, as the playground's replays have. */
const commandWorkspace = () => new MemoryWorkspace(undefined, undefined, sandboxRunner());

const withStep1 = (session: Session, change: (s: RecordedStep) => RecordedStep): Session => ({
  ...session,
  steps: session.steps.map((s, i) => (i === 0 ? change(s) : s)),
});

async function replayIn(session: Session, approvedHere?: ReadonlySet<number>) {
  const ws = commandWorkspace();
  const report = await replaySession(session, { workspace: ws, ...(approvedHere && { approved: approvedHere }) });
  return { report, ran: (await ws.lstat(MARKER)) !== null };
}

describe('a recorded approval is never an approval', () => {
  it('the record holds the approval and the command ran when it was recorded', () => {
    expect(approved.steps[0]).toMatchObject({ approval: 'approved', call: { tool: 'ws_shell' } });
    expect(ranWhenRecorded).toBe(true);
  });

  // Each row: how the record reaches the replay → it must not run, and the check says why.
  const forms: [string, () => Session][] = [
    ['the file form', () => approved],
    ['the shared form a link carries', () => sharedForm(approved)],
    ['the approval stripped from the record', () => withStep1(approved, ({ approval: _a, ...rest }) => rest)],
  ];
  it.each(forms)(
    '%s: the gated command does not run, and the hash check names the missing approval',
    async (_name, form) => {
      const { report, ran } = await replayIn(form());
      expect(ran).toBe(false);
      expect(report.steps[0]).toMatchObject({
        approval: 'unapproved',
        resultText: expect.stringMatching(/^This ws_shell call was replayed from a recorded session and did not run/),
      });
      expect(report.ok).toBe(false);
      expect(report.divergence).toMatchObject({
        index: 1,
        kind: 'approval',
        why: expect.stringMatching(
          /^Step 1 \(ws_shell\) cannot be reproduced without an approval\. .*a replay approves nothing, so the command did not run/,
        ),
      });
      expect(report.divergence?.why).toMatch(/"Approve and run"/);
    },
  );

  it('says the recorded approval is history when the record has one', async () => {
    const { report } = await replayIn(approved);
    expect(report.divergence?.why).toMatch(
      /When the session was recorded, a person approved this gated command; that approval is history, not an approval here/,
    );
  });

  it('runs only the step a person approved for this replay, and then it reproduces', async () => {
    const { report, ran } = await replayIn(approved, new Set([1]));
    expect(ran).toBe(true);
    expect(report.steps[0]).toMatchObject({ approval: 'approved' });
    expect(report.ok).toBe(true);
  });

  it('an approval given for another step approves nothing here', async () => {
    const { report, ran } = await replayIn(approved, new Set([2]));
    expect(ran).toBe(false);
    expect(report.divergence?.kind).toBe('approval');
  });

  it('the step header of slm replay --print says the step did not run without an approval', async () => {
    const { report } = await replayIn(approved);
    expect(stepHeader(report.steps[0]!)).toBe('=== step 1 · ws_shell · ✗ not run without approval');
  });
});

describe('replayApprovals: the answers a replay gives', () => {
  const recorded = (approval?: RecordedStep['approval']): RecordedStep[] => [
    { raw: '', resultHash: '0'.repeat(12), workspaceHash: '0'.repeat(12), ...(approval && { approval }) },
  ];
  const ask = (step: number, reason: ApprovalRequest['reason']): ApprovalRequest => ({
    step,
    tool: 'ws_shell',
    args: {},
    reason,
  });
  // Each row: the record's answer for step 1, the steps approved here, the request → the answer.
  const rows: [
    string,
    RecordedStep['approval'] | undefined,
    number[],
    ApprovalRequest,
    boolean | 'unapproved' | 'unasked' | undefined,
  ][] = [
    ['a recorded approval of a gated command', 'approved', [], ask(1, 'gated-shell'), 'unapproved'],
    ['a gated command with no recorded answer', undefined, [], ask(1, 'gated-shell'), 'unapproved'],
    ['a recorded "not approved here"', 'unapproved', [], ask(1, 'gated-shell'), 'unapproved'],
    ['a recorded denial', 'denied', [], ask(1, 'gated-shell'), false],
    ['a recorded denial, even with an approval here', 'denied', [1], ask(1, 'gated-shell'), false],
    ['a person approved this step here', 'approved', [1], ask(1, 'gated-shell'), true],
    ['a recorded call nobody was there to approve (slm run)', 'unasked', [], ask(1, 'gated-mcp'), 'unasked'],
    ['a recorded unasked call, even with an approval here', 'unasked', [1], ask(1, 'gated-mcp'), 'unasked'],
    ['a live step after the replayed part: the person is asked', 'approved', [], ask(2, 'gated-shell'), undefined],
  ];
  it.each(rows)('%s', (_name, approval, here, request, expected) => {
    expect(replayApprovals(recorded(approval), 1, new Set(here)).answer(request)).toBe(expected);
  });

  it('puts a recorded denial before the approver again, and a gated command by the policy, never by the record', async () => {
    const denied = replayApprovals(recorded('denied'), 1);
    denied.at(1);
    expect(await denied.isGated('ws_edit', { path: 'a.js' }, DEFAULT_SETTINGS)).toBe(true);
    const approvedOnRecord = replayApprovals(recorded('approved'), 1);
    approvedOnRecord.at(1);
    expect(await approvedOnRecord.isGated('ws_shell', { command: 'ls' }, DEFAULT_SETTINGS)).toBe(false);
    expect(await approvedOnRecord.isGated('ws_shell', { command: `touch ${MARKER}` }, DEFAULT_SETTINGS)).toBe(true);
  });
});

describe('slm replay', () => {
  async function replayCli(input: string): Promise<{ code: number; stdout: string; stderr: string }> {
    const [stdout, stderr] = [new PassThrough(), new PassThrough()];
    const chunks = { stdout: [] as Buffer[], stderr: [] as Buffer[] };
    stdout.on('data', (c: Buffer) => chunks.stdout.push(c));
    stderr.on('data', (c: Buffer) => chunks.stderr.push(c));
    const code = await replayCommand.run([input], { stdin: new PassThrough(), stdout, stderr });
    return { code, stdout: Buffer.concat(chunks.stdout).toString(), stderr: Buffer.concat(chunks.stderr).toString() };
  }

  it('does not run a recorded approval: exit 1, the step reported as not reproduced without an approval', async () => {
    const r = await replayCli(await shareUrl(approved, 'http://localhost:5173/'));
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^✗ diverged at step 1 \(approval\): Step 1 \(ws_shell\) cannot be reproduced without an approval\./,
    );
    expect(r.code).toBe(1);
  });
});
