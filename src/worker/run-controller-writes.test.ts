/** The approval question for a gated shell command carries the paths it would write. */
import { beforeAll, describe, expect, it } from 'vitest';
import { useNodeWasm } from '../../tests/support/node-wasm.ts';
import { RunController } from './run-controller.ts';
import type { RunEvent } from './protocol.ts';

beforeAll(() => useNodeWasm());

describe('RunController.approve: what the page is asked', () => {
  it.each([
    [{ step: 1, tool: 'ws_shell', args: { command: 'cp a b' }, reason: 'gated-shell' } as const, ['b']],
    [{ step: 1, tool: 'ws_shell', args: { command: 'less README.md' }, reason: 'gated-shell' } as const, []],
    [{ step: 1, tool: 'ws_edit', args: { path: 'a.ts' }, reason: 'writes' } as const, undefined],
  ])('%j asks with writes %j', async (request, writes) => {
    const events: RunEvent[] = [];
    const controller = new RunController({ paused: false, paceMs: 0, emit: (e) => events.push(e) });
    const answered = controller.approve(request);
    await expect.poll(() => events.length).toBe(1);
    const event = events[0]!;
    expect(event.kind === 'approval' && event.ask?.writes).toEqual(writes);
    controller.answer(1, true);
    expect(await answered).toBe(true);
  });
});
