/**
 * The workspace choice against the real WebContainer link and worker host (in one process):
 * one row per state of WebContainer, and what the start screen makes of it — the workspace
 * the run asks for, or why Run waits, and the notice.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { connectInProcess } from '../../worker/in-process.ts';
import { createTemplateSession } from '../../worker/starter-session.ts';
import { WebContainerLink, type StartHost } from '../../worker/webcontainer-link.ts';
import { StartState } from './start-state.svelte.ts';
import { WorkspaceChoice } from './workspace-choice.svelte.ts';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

type HostResult = Awaited<ReturnType<StartHost>>;

/** A start screen whose WebContainer boot ends when the test says so. */
async function screen() {
  const { client } = connectInProcess(() => createTemplateSession());
  cleanups.push(() => client.dispose());
  let finish!: (result: HostResult) => void;
  const boots: number[] = [];
  const start: StartHost = () => {
    boots.push(boots.length + 1);
    return new Promise((resolve) => (finish = resolve));
  };
  const choice = new WorkspaceChoice(new WebContainerLink(client, { timeoutMs: 3000, start }));
  const state = new StartState(client, choice);
  await state.load();
  return { choice, state, boots, finish: (r: HostResult) => finish(r) };
}

/** A failure as the host reports it; the notice shows its message as given. */
const OFFLINE = {
  ok: false,
  reason: 'offline',
  message: 'WebContainer cannot start: the browser is offline.',
} as const;

describe('WorkspaceChoice', () => {
  it('memory is the default: nothing boots, the run asks for memory, no notice', async () => {
    const { choice, state, boots } = await screen();
    expect(choice.kind).toBe('memory');
    expect(boots).toEqual([]);
    expect(choice.notice).toBeNull();
    expect(state.readiness).toMatchObject({ ok: true, config: { workspace: 'memory' } });
  });

  it('choosing WebContainer boots it once; Run waits while it boots, then runs in memory when it failed', async () => {
    const { choice, state, boots, finish } = await screen();
    choice.choose('webcontainer');
    choice.choose('memory');
    choice.choose('webcontainer');
    expect(boots).toEqual([1]);
    expect(choice.notice).toEqual({ state: 'booting', timeoutMs: 3000 });
    expect(state.readiness).toEqual({
      ok: false,
      reason:
        'WebContainer is starting; Run is enabled once it is up, or once it has failed and the in-memory workspace is used instead.',
    });

    finish(OFFLINE);
    await expect.poll(() => choice.status.state).toBe('unavailable');
    // The radio follows the fallback; the notice stays and says why.
    await expect.poll(() => choice.kind).toBe('memory');
    expect(choice.notice).toEqual({ state: 'unavailable', reason: 'offline', message: OFFLINE.message });
    expect(state.readiness).toMatchObject({ ok: true, config: { workspace: 'memory' } });
    // Picking memory by hand dismisses the notice; WebContainer's failure stays for the page.
    choice.choose('memory');
    expect(choice.notice).toBeNull();
    // Picking WebContainer again falls back again at once, with the same notice.
    choice.choose('webcontainer');
    await expect.poll(() => choice.kind).toBe('memory');
    expect(choice.notice).toMatchObject({ state: 'unavailable', reason: 'offline' });
    expect(boots).toEqual([1]);
  });

  it('while WebContainer boots, going back to memory enables Run at once and shows no notice', async () => {
    const { choice, state } = await screen();
    choice.choose('webcontainer');
    expect(state.readiness.ok).toBe(false);
    choice.choose('memory');
    expect(state.readiness).toMatchObject({ ok: true, config: { workspace: 'memory' } });
    expect(choice.notice).toBeNull();
  });
});
