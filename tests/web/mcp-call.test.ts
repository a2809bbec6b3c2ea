/**
 * mcp_call through the engine and the CLI's SDK client against fixture servers built with the
 * SDK, over Streamable HTTP and stdio: one row per rule — a read-only call answered and marked
 * outside, a tool error, an unknown server, a server not marked read-only gated until approved,
 * a server that never answers, a 50 MB answer (ended at the cap while it streams, long before
 * the deadline), a malformed message — each within its bound. Stdio servers run inside the
 * host sandbox (bubblewrap) where this machine has it, and a row checks they do.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../src/engine/create.ts';
import type { McpServerConfig } from '../../src/engine/settings.ts';
import { nodeMcp } from '../../src/cli/mcp-node.ts';
import { probeHostSandbox, UNSANDBOXED, type CommandSandbox } from '../../src/workspace/node/host-sandbox.ts';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { startMcpFixture, type McpFixture } from '../support/mcp/http-fixture.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const REPO = join(HERE, '../..');
const SERVER = 'tests/support/mcp/server.mjs';
let fx: McpFixture;
let sandbox: CommandSandbox = UNSANDBOXED;
beforeAll(async () => {
  fx = await startMcpFixture();
  const probed = await probeHostSandbox();
  if ('kind' in probed) sandbox = probed;
  else console.log(`stdio servers run unsandboxed in this file: bubblewrap cannot run here (${probed.why})`);
});
afterAll(() => fx.close());

function servers(): McpServerConfig[] {
  return [
    { name: 'docs', url: `${fx.base}/mcp`, read_only: true },
    { name: 'writer', url: `${fx.base}/mcp`, read_only: false },
    { name: 'broken', url: `${fx.base}/garbage`, read_only: true },
    // Started in the workspace (the repository, at /ws inside the sandbox), so the path is relative.
    { name: 'local', command: process.execPath, args: [SERVER, 'stdio'], read_only: true },
    { name: 'localw', command: process.execPath, args: [SERVER, 'stdio'], read_only: false },
    { name: 'down', url: 'http://127.0.0.1:9/mcp', read_only: true },
    { name: 'junk', command: process.execPath, args: [SERVER, 'garbage'], read_only: true },
  ];
}

async function call(args: object, approved = false, deadline = 4000) {
  const engine = createEngine(
    new MemoryWorkspace(),
    { specialist_tools: true, mcp_servers: servers(), web_timeout: deadline },
    { outside: { mcp: nodeMcp({ sandbox, root: REPO }) } },
  );
  const t0 = Date.now();
  const result = await engine.call('mcp_call', args, { approved });
  return { result, ms: Date.now() - t0 };
}

const ROWS = [
  {
    rule: 'a read-only Streamable HTTP server answers, marked outside',
    args: { server: 'docs', tool: 'echo', arguments: { text: 'hi' } },
    ok: true,
    says: /^\[outside text — MCP server docs, tool echo \(8 bytes\)[\s\S]*\necho: hi$/,
    within: 4000,
  },
  {
    rule: 'a stdio server started by the host answers',
    args: { server: 'local', tool: 'echo', arguments: { text: 'from stdio' } },
    ok: true,
    says: /echo: from stdio$/,
    within: 10000,
  },
  {
    rule: "a tool's own error is shown as a failed call",
    args: { server: 'docs', tool: 'fails' },
    ok: false,
    says: /which reported an error[\s\S]*the fixture tool failed/,
    within: 4000,
  },
  {
    rule: 'an unknown server is named with the list',
    args: { server: 'nope', tool: 'echo' },
    ok: false,
    says: /No MCP server is named "nope"\. The servers are: docs, writer, broken, local, localw, down, junk\./,
    within: 500,
  },
  {
    rule: 'a server not marked read_only is gated',
    args: { server: 'writer', tool: 'echo', arguments: { text: 'x' } },
    ok: false,
    says: /mcp_call to writer needs a person's approval[\s\S]*It was not called\./,
    within: 500,
  },
  {
    rule: 'a server that never answers ends at the deadline',
    args: { server: 'docs', tool: 'never' },
    ok: false,
    says: /docs did not answer before the deadline/,
    within: 6000,
  },
  {
    rule: 'a 50 MB answer ends at the cap while it streams',
    args: { server: 'docs', tool: 'big' },
    ok: false,
    says: /docs answered more than 1048576 bytes, the most mcp_call reads; ask the tool for less\./,
    // A deadline far beyond: ending well before it shows the cap ended the call.
    deadline: 30_000,
    within: 12_000,
  },
  {
    rule: 'a stdio server not marked read_only is gated',
    args: { server: 'localw', tool: 'echo', arguments: { text: 'x' } },
    ok: false,
    says: /mcp_call to localw needs a person's approval[\s\S]*It was not called\./,
    within: 500,
  },
  {
    rule: 'a stdio server that never answers ends at the deadline',
    args: { server: 'local', tool: 'never' },
    ok: false,
    says: /local did not answer before the deadline/,
    within: 6000,
  },
  {
    rule: 'a 50 MB stdio answer ends at the cap while it streams',
    args: { server: 'local', tool: 'big' },
    ok: false,
    says: /local answered more than 1048576 bytes, the most mcp_call reads; ask the tool for less\./,
    deadline: 30_000,
    within: 12_000,
  },
  {
    rule: 'a malformed stdio message is named at once',
    args: { server: 'junk', tool: 'echo' },
    ok: false,
    says: /junk sent a malformed MCP message \(a line that is not a JSON-RPC message/,
    deadline: 30_000,
    within: 12_000,
  },
  {
    rule: 'a server nobody answers at is named unreachable',
    args: { server: 'down', tool: 'echo' },
    ok: false,
    says: /^mcp_call to down\/echo failed — down could not be reached \((ECONNREFUSED|no connection)\)\. Check that the server runs/,
    within: 3000,
  },
  {
    rule: 'a malformed message is named',
    args: { server: 'broken', tool: 'echo' },
    ok: false,
    says: /broken (sent a malformed MCP message|did not answer before the deadline; it last sent something unreadable)/,
    within: 6000,
  },
];

describe('mcp_call', () => {
  it.each(ROWS)(
    '$rule',
    async (row) => {
      const { result, ms } = await call(row.args, false, row.deadline);
      expect(result.text).toMatch(row.says);
      expect(result.ok).toBe(row.ok);
      if (row.ok) expect(result.notes).toContainEqual(expect.objectContaining({ kind: 'outside', detail: 'mcp' }));
      expect(ms).toBeLessThan(row.within);
    },
    40_000,
  );

  it('a stdio server runs inside the host sandbox: /ws, uid 65534 or a user namespace, no host paths', async (ctx) => {
    if (sandbox.kind !== 'bwrap') {
      console.log('skipped: bubblewrap cannot run on this machine, so stdio servers run unsandboxed here');
      ctx.skip();
    }
    const { result } = await call({ server: 'local', tool: 'where', arguments: { path: REPO } });
    expect(result.ok).toBe(true);
    expect(result.text).toMatch(new RegExp(`cwd=/ws uid=\\d+ ${REPO} visible=no$`));
  }, 20_000);

  it('a person-approved call to a server not marked read_only runs', async () => {
    const { result } = await call({ server: 'writer', tool: 'echo', arguments: { text: 'ok' } }, true);
    expect(result.ok).toBe(true);
    expect(result.text).toMatch(/echo: ok$/);
  });
});
