import { beforeAll, describe, expect, it } from 'vitest';
import { approvalReason, type ApprovalMode } from './approvals.ts';
import { CODING_TOOLS } from '../engine/tools/index.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';

const tool = (name: string) => CODING_TOOLS.find((t) => t.name === name);

beforeAll(() => useNodeWasm());

describe('approvalReason: gated shell always asks, writes ask only in ask mode', () => {
  const rows: [ApprovalMode, string, object, string | null][] = [
    ['auto', 'ws_shell', { command: 'npm install left-pad' }, 'gated-shell'],
    ['ask', 'ws_shell', { command: 'npm install left-pad' }, 'gated-shell'],
    ['auto', 'ws_shell', { command: 'ls -la' }, null],
    ['ask', 'ws_shell', { command: 'ls -la' }, null],
    ['auto', 'ws_edit', { path: 'a.js', old_str: 'a', new_str: 'b' }, null],
    ['ask', 'ws_edit', { path: 'a.js', old_str: 'a', new_str: 'b' }, 'writes'],
    ['ask', 'ws_read', { path: 'a.js' }, null],
  ];
  it.each(rows)('%s mode, %s %j → %s', async (mode, name, args, expected) => {
    expect(await approvalReason(mode, tool(name), args)).toBe(expected);
  });
});
