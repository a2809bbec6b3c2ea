/**
 * mcp_call in a run, against the SDK-built fixture servers (Streamable HTTP, and stdio inside the
 * host sandbox where this machine has bubblewrap): one row per rule of the issue —
 * the prompt lists the configured servers' tools as cards (arguments, read-only or gated), a call
 * to a server not marked read_only goes before a person in the loop (approved: it runs; denied or
 * no approver, as in `slm run`: the server is never contacted), every listing and call is recorded
 * with its request and result, and a replay answers them from the record without contacting a
 * server, says so, and never approves a gated call.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../../src/agent/approvals.ts';
import { nodeMcp } from '../../src/cli/mcp-node.ts';
import { createEngine } from '../../src/engine/create.ts';
import type { McpServerConfig } from '../../src/engine/settings.ts';
import { sessionSchema, type Session } from '../../src/session/record.ts';
import { replaySession } from '../../src/session/replay.ts';
import { formatReplay, stepHeader } from '../../src/session/replay-text.ts';
import { probeHostSandbox, UNSANDBOXED, type CommandSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { startMcpFixture, type McpFixture } from '../support/mcp/http-fixture.ts';
import { useNodeWasm } from '../support/node-wasm.ts';
import { MATH, recordScript, workspaceWith } from '../session/support.ts';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO = join(dirname(fileURLToPath(import.meta.url)), '../..');
let fx: McpFixture;
let sandbox: CommandSandbox = UNSANDBOXED;

beforeAll(async () => {
  useNodeWasm();
  fx = await startMcpFixture();
  const probed = await probeHostSandbox();
  if ('kind' in probed) sandbox = probed;
  else console.log(`the stdio server runs unsandboxed in this file: bubblewrap cannot run here (${probed.why})`);
});
afterAll(() => fx.close());

function servers(): McpServerConfig[] {
  return [
    { name: 'docs', url: `${fx.base}/mcp`, read_only: true },
    { name: 'writer', url: `${fx.base}/mcp`, read_only: false },
    { name: 'local', command: process.execPath, args: ['tests/support/mcp/server.mjs', 'stdio'], read_only: true },
    // Nothing listens on port 9 of loopback: the listing fails and is named.
    { name: 'down', url: 'http://127.0.0.1:9/mcp', read_only: true },
  ];
}

const call = (server: string, text: string) =>
  JSON.stringify({ tool: 'mcp_call', args: { server, tool: 'echo', arguments: { text } } });
const DONE = '{"tool": "done", "args": {"summary": "asked the servers"}}';
const calls = () => fx.requests.get('tools/call') ?? 0;

/** Records a run of `outputs`; `approve` answers the loop's questions (absent: nobody can approve, as in `slm run`). */
async function record(outputs: string[], approve?: boolean) {
  const asked: ApprovalRequest[] = [];
  let prompt = '';
  const session = await recordScript({
    outputs,
    workspace: await workspaceWith({ 'src/math.js': MATH }),
    engine: (ws) =>
      createEngine(
        ws,
        { specialist_tools: true, mcp_servers: servers(), web_timeout: 8000 },
        { outside: { mcp: nodeMcp({ sandbox, root: REPO }) } },
      ),
    loop: {
      onStep: (step) => {
        if (step.index === 1) prompt = step.messages.find((m) => m.role === 'system')?.content ?? '';
      },
      ...(approve !== undefined && {
        approve: (r: ApprovalRequest) => {
          asked.push(r);
          return Promise.resolve(approve);
        },
      }),
    },
  });
  return { session, asked, prompt };
}

let approved: { session: Session; asked: ApprovalRequest[]; prompt: string };
let readOnly: Session;
beforeAll(async () => {
  approved = await record([call('docs', 'a'), call('writer', 'b'), call('local', 'c'), DONE], true);
  readOnly = (await record([call('docs', 'x'), call('local', 'y'), DONE])).session;
}, 60_000);

describe('mcp_call in a run', () => {
  it('the prompt lists every configured server’s tools as cards: arguments, description, read-only or gated', () => {
    const prompt = approved.prompt;
    expect(prompt).toContain(
      '# MCP tools (call with mcp_call {"server", "tool", "arguments"}; descriptions are the servers\' own words',
    );
    expect(prompt).toContain('- docs/echo {text: string} — Echo the text (read-only)');
    expect(prompt).toContain('- writer/echo {text: string} — Echo the text (gated: a person approves each call)');
    expect(prompt).toContain('- local/where {path: string} — Where this server runs (read-only)');
    expect(prompt).toContain('- docs/fails {} — Always fails (read-only)');
    expect(prompt).toMatch(
      /^- down: its tools could not be listed — down could not be reached \(.*\)\. Check that the server runs/m,
    );
  });

  it('a call to a server not marked read_only goes before a person, and runs once approved', () => {
    expect(approved.asked).toEqual([
      {
        step: 2,
        tool: 'mcp_call',
        args: { server: 'writer', tool: 'echo', arguments: { text: 'b' } },
        reason: 'gated-mcp',
      },
    ]);
    expect(approved.session.steps[1]!.approval).toBe('approved');
    expect(approved.session.steps[1]!.resultText).toMatch(
      /^\[outside text — MCP server writer, tool echo[\s\S]*echo: b$/,
    );
  });

  it.each([
    [
      'a person denies it',
      false,
      'denied',
      /^A person declined this mcp_call call, so the MCP server was not called\. Do not repeat the same call\./,
    ],
    [
      'nobody can approve it (slm run has no approver)',
      undefined,
      'unasked',
      /^This mcp_call call needs a person's approval, and no one was there to approve it \(this run has no approver\), so the MCP server was not called\. A server marked "read_only": true in mcp_servers is called without asking/,
    ],
  ])(
    'a gated call is not made when %s: the server is never contacted, and a replay gives the same answer',
    async (_why, answer, approval, text) => {
      const before = calls();
      const { session } = await record([call('writer', 'no'), DONE], answer);
      expect(session.steps[0]!.approval).toBe(approval);
      expect(session.steps[0]!.resultText).toMatch(text);
      expect(session.steps[0]!.mcp?.some((e) => e.tool !== undefined)).toBe(false);
      const report = await replaySession(session);
      expect(report.divergence).toBeUndefined();
      expect(report.steps[0]!.resultText).toMatch(text);
      expect(calls()).toBe(before);
    },
  );

  it('records every listing (on the first step) and every call with its request and result', () => {
    expect(sessionSchema.parse(approved.session)).toBeTruthy();
    const first = approved.session.steps[0]!.mcp!;
    expect(
      first
        .filter((e) => e.tool === undefined)
        .map((e) => e.server)
        .sort(),
    ).toEqual(['docs', 'down', 'local', 'writer']);
    expect(first.find((e) => e.server === 'down')!.failure?.code).toBe('unreachable');
    expect(first.find((e) => e.tool === 'echo')).toEqual({
      server: 'docs',
      tool: 'echo',
      arguments: '{"text":"a"}',
      answer: { text: 'echo: a', isError: false, bytes: 7 },
    });
    expect(approved.session.steps[2]!.mcp).toEqual([
      {
        server: 'local',
        tool: 'echo',
        arguments: '{"text":"c"}',
        answer: { text: 'echo: c', isError: false, bytes: 7 },
      },
    ]);
  });

  it('a replay answers listings and calls from the record, offline, and says so', async () => {
    const before = new Map(fx.requests);
    const report = await replaySession(readOnly);
    expect(report.divergence).toBeUndefined();
    expect(report.ok).toBe(true);
    expect(fx.requests).toEqual(before);
    // Four listings and two calls.
    expect(report.mcpFromRecord).toBe(6);
    expect(formatReplay(report)).toMatch(
      /^✓ reproduced: .*; 6 MCP listing\(s\) and call\(s\) were answered from the record, offline — no server was contacted\n$/,
    );
    expect(stepHeader(report.steps[1]!)).toBe(
      '=== step 2 · mcp_call · ✓ · 1 MCP exchange(s) answered from the record, no server contacted',
    );
  });

  it('a replay never approves a gated call: it does not run, whatever the record says', async () => {
    const before = calls();
    const report = await replaySession(approved.session);
    const step = report.steps[1]!;
    expect(step.approval).toBe('unapproved');
    expect(step.resultText).toMatch(
      /^This mcp_call call was replayed from a recorded session and did not run: a call to an MCP server not marked read-only needs a person's approval/,
    );
    expect(report.divergence?.index).toBe(2);
    expect(report.steps[0]!.divergence).toBeUndefined();
    expect(calls()).toBe(before);
  });

  it('a replayed call the record lacks is refused, not made', async () => {
    const altered = structuredClone(readOnly);
    altered.steps[0]!.raw = call('docs', 'other');
    const before = calls();
    const report = await replaySession(altered);
    expect(report.divergence?.index).toBe(1);
    expect(report.steps[0]!.resultText).toMatch(
      /The call echo \{"text":"other"\} on docs is not in the session's record, and a replay never contacts a server/,
    );
    expect(calls()).toBe(before);
  });
});
