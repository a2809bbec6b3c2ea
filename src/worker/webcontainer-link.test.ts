/**
 * The WebContainer workspace from the page to a run, in one process: the link boots a stand-in
 * WebContainer (Node's fs and child processes in a temporary directory), serves it on a port
 * and attaches it to the real engine host over a MessageChannel; a scripted run that asks for
 * WebContainer then runs there, with `node --check` as its syntax check and its commands in
 * the terminal feed. When WebContainer cannot start, runs say so and stay in memory; after an
 * engine restart, the link attaches it again.
 */
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STARTER_RUN } from '../agent/scripts/starter-run.ts';
import { useNodeWasm } from '../platform/node-wasm.ts';
import { STARTER_TEMPLATE } from '../workspace/templates/index.ts';
import { BOOT_MESSAGES, type BootEnvironment } from '../workspace/webcontainer/boot.ts';
import { startWebContainerHost } from '../workspace/webcontainer/host.ts';
import { NodeWebContainer } from '../workspace/webcontainer/node-webcontainer.fixture.ts';
import type { TerminalEvent } from '../workspace/webcontainer/terminal-feed.ts';
import type { EngineClient, EngineStatus, RunConfig, RunEvent, WorkspaceChoice } from './client.ts';
import { connectInProcess } from './in-process.ts';
import { NO_WEBCONTAINER } from './run-host.ts';
import { RUN_DEFAULTS } from './run-settings.ts';
import { createTemplateSession } from './starter-session.ts';
import { WebContainerLink, type StartHost, type WebContainerLinkStatus } from './webcontainer-link.ts';

let dir: string;
beforeAll(async () => {
  useNodeWasm();
  dir = await mkdtemp(join(tmpdir(), 'slm-wc-link-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const open: EngineClient[] = [];
afterEach(() => {
  for (const c of open.splice(0)) c.dispose();
});

const config = (workspace: WorkspaceChoice): RunConfig => ({
  task: { kind: 'template', templateId: 'starter' },
  model: { kind: 'scripted', recordedId: STARTER_RUN.id },
  settings: { ...RUN_DEFAULTS, paceMs: 0 },
  workspace,
});

/** A host starter over `wc`, with the page's checks passing (or `over` them). */
function starter(wc: NodeWebContainer | null, over: Partial<BootEnvironment<NodeWebContainer>> = {}): StartHost {
  const env: BootEnvironment<NodeWebContainer> = {
    crossOriginIsolated: true,
    hasSharedArrayBuffer: true,
    onLine: true,
    boot: () => (wc ? Promise.resolve(wc) : new Promise(() => {})),
    ...over,
  };
  return (options) => startWebContainerHost(options, env);
}

function connect(): EngineClient {
  const { client } = connectInProcess(() => createTemplateSession());
  open.push(client);
  return client;
}

/** Runs `config` to its end; the run's info and its events. */
async function runToEnd(client: EngineClient, run: RunConfig) {
  const events: RunEvent[] = [];
  let done!: () => void;
  const ended = new Promise<void>((resolve) => (done = resolve));
  let runId = -1;
  const off = client.onRunEvent((id, event) => {
    if (id !== runId) return;
    events.push(event);
    if (event.kind === 'ended') done();
  });
  const info = await client.startRun(run);
  runId = info.runId;
  await ended;
  off();
  return { info, events };
}

function nextStatus(client: EngineClient, state: EngineStatus['state']): Promise<void> {
  return new Promise((resolve) => {
    const off = client.onStatus((s) => {
      if (s.state === state) {
        off();
        resolve();
      }
    });
  });
}

describe('WebContainerLink', () => {
  it('boots, attaches, and a run asking for WebContainer runs there with node --check', async () => {
    const wc = new NodeWebContainer(dir);
    const client = connect();
    const link = new WebContainerLink(client, { timeoutMs: 5000, start: starter(wc) });
    const statuses: WebContainerLinkStatus[] = [];
    link.onStatus((s) => statuses.push(s));
    const terminal: TerminalEvent[] = [];
    link.terminal.subscribe((e) => terminal.push(e));

    expect(link.status).toEqual({ state: 'idle' });
    const booted = link.boot();
    expect(link.boot()).toBe(booted); // one boot per page
    expect(await booted).toEqual({ state: 'ready', root: dir });
    expect(statuses).toEqual([
      { state: 'booting', timeoutMs: 5000 },
      { state: 'ready', root: dir },
    ]);

    // A file from an earlier run is gone: each run starts from its own files.
    await writeFile(join(dir, 'left-over.txt'), 'from before');
    const { info, events } = await runToEnd(client, config('webcontainer'));
    expect(info.backend).toBe('webcontainer');
    expect(info.backendNote).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ kind: 'ended', stop: { kind: 'done' } });
    await expect(readFile(join(dir, 'left-over.txt'))).rejects.toThrow(/ENOENT/);
    // The edit of step 5 landed in WebContainer's directory, checked by Node itself.
    const fixed = STARTER_TEMPLATE.files['src/strings.js']!.replace('slice(0, max) +', 'slice(0, max - 1) +');
    expect(await readFile(join(dir, 'src/strings.js'), 'utf8')).toBe(fixed);
    expect(wc.spawned.map((s) => [s.command, ...s.args].join(' '))).toContain('node --check ./src/strings.js');
    // The agent's commands reach the terminal feed the run page shows.
    expect(terminal.some((e) => e.kind === 'command' && e.argv.join(' ') === 'npm test')).toBe(true);

    // Memory stays available, and the default.
    const memory = await runToEnd(client, config('memory'));
    expect(memory.info.backend).toBe('memory');
  });

  it('after an engine restart, attaches WebContainer to the new worker', async () => {
    const client = connect();
    const link = new WebContainerLink(client, { start: starter(new NodeWebContainer(dir)) });
    await link.boot();
    const ready = nextStatus(client, 'ready');
    client.restart();
    await ready;
    const { info } = await runToEnd(client, config('webcontainer'));
    expect(info.backend).toBe('webcontainer');
  });

  it.each([
    {
      name: 'offline',
      over: { onLine: false },
      status: { state: 'unavailable', reason: 'offline', message: BOOT_MESSAGES.offline },
    },
    {
      name: 'a timeout',
      over: {},
      status: { state: 'unavailable', reason: 'timeout', message: BOOT_MESSAGES.timeout(50) },
    },
    {
      name: 'a page without isolation',
      over: { crossOriginIsolated: false },
      status: { state: 'unavailable', reason: 'not-isolated', message: BOOT_MESSAGES.notIsolated },
    },
  ])(
    'when WebContainer cannot start ($name), says why, and runs stay in memory with the reason',
    async ({ over, status }) => {
      const client = connect();
      const link = new WebContainerLink(client, { timeoutMs: 50, start: starter(null, over) });
      expect(await link.boot()).toEqual(status);
      const { info, events } = await runToEnd(client, config('webcontainer'));
      expect(info.backend).toBe('memory');
      expect(info.backendNote).toBe(NO_WEBCONTAINER);
      expect(events.at(-1)).toMatchObject({ kind: 'ended', stop: { kind: 'done' } });
    },
  );
});
