import { beforeAll, describe, expect, it } from 'vitest';
import { approvalReason, type ApprovalMode } from './approvals.ts';
import { CODING_TOOLS, SPECIALIST_TOOLS } from '../engine/tools/index.ts';
import { DEFAULT_SETTINGS } from '../engine/settings.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';

const tool = (name: string) => [...CODING_TOOLS, ...SPECIALIST_TOOLS].find((t) => t.name === name);
const SETTINGS = {
  ...DEFAULT_SETTINGS,
  mcp_servers: [
    { name: 'docs', url: 'http://127.0.0.1:1/mcp', read_only: true },
    { name: 'writer', url: 'http://127.0.0.1:1/mcp', read_only: false },
  ],
};

beforeAll(() => useNodeWasm());

describe('approvalReason: gated shell and MCP servers not marked read-only always ask, writes ask only in ask mode', () => {
  const rows: [ApprovalMode, string, object, string | null][] = [
    ['auto', 'ws_shell', { command: 'npm install left-pad' }, 'gated-shell'],
    ['ask', 'ws_shell', { command: 'npm install left-pad' }, 'gated-shell'],
    ['auto', 'ws_shell', { command: 'ls -la' }, null],
    ['ask', 'ws_shell', { command: 'ls -la' }, null],
    ['auto', 'ws_edit', { path: 'a.js', old_str: 'a', new_str: 'b' }, null],
    ['ask', 'ws_edit', { path: 'a.js', old_str: 'a', new_str: 'b' }, 'writes'],
    ['ask', 'ws_read', { path: 'a.js' }, null],
    ['auto', 'mcp_call', { server: 'writer', tool: 'echo' }, 'gated-mcp'],
    ['ask', 'mcp_call', { server: 'writer', tool: 'echo' }, 'gated-mcp'],
    ['auto', 'mcp_call', { server_name: 'writer', tool: 'echo' }, 'gated-mcp'],
    ['auto', 'mcp_call', { server: 'docs', tool: 'echo' }, null],
    ['ask', 'mcp_call', { server: 'docs', tool: 'echo' }, null],
    ['auto', 'mcp_call', { server: 'nope', tool: 'echo' }, null],
  ];
  it.each(rows)('%s mode, %s %j → %s', async (mode, name, args, expected) => {
    expect(await approvalReason(mode, tool(name), args, SETTINGS)).toBe(expected);
  });
});
