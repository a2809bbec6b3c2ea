/**
 * The whole path the browser will take, in one process: the page's host boots (a stand-in
 * WebContainer over Node), mounts the starter template and serves it on a port; the engine
 * worker's side connects a ProxyWorkspace and builds the same engine as ever over it. Tools,
 * the shell policy and the terminal tee all run through the port.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../../engine/create.ts';
import { useNodeWasm } from '../../platform/node-wasm.ts';
import { initRepoWithCommit } from '../git-seed.ts';
import { ProxyWorkspace } from '../proxy/index.ts';
import { STARTER_TEMPLATE } from '../templates/index.ts';
import { BOOT_MESSAGES, type BootEnvironment } from './boot.ts';
import { startWebContainerHost } from './host.ts';
import { NodeWebContainer } from './node-webcontainer.fixture.ts';
import { TerminalFeed, type TerminalEvent } from './terminal-feed.ts';

let dir: string;
beforeAll(async () => {
  useNodeWasm();
  dir = await mkdtemp(join(tmpdir(), 'slm-wc-host-'));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

function env(
  boot: () => Promise<NodeWebContainer>,
  over: Partial<BootEnvironment<NodeWebContainer>> = {},
): BootEnvironment<NodeWebContainer> {
  return { crossOriginIsolated: true, hasSharedArrayBuffer: true, onLine: true, boot, ...over };
}

function record(feed: TerminalFeed): TerminalEvent[] {
  const got: TerminalEvent[] = [];
  feed.subscribe((e) => got.push(e));
  return got;
}

describe('startWebContainerHost', () => {
  it('when WebContainer cannot start, says why on the terminal and returns the failure', async () => {
    const feed = new TerminalFeed();
    const host = await startWebContainerHost(
      { files: {}, onTerminal: feed.emit },
      env(() => new Promise(() => {}), { onLine: false }),
    );
    expect(host).toEqual({ ok: false, reason: 'offline', message: BOOT_MESSAGES.offline });
    expect(record(feed)).toEqual([
      { kind: 'note', text: "Starting WebContainer (it boots from StackBlitz's servers)…" },
      { kind: 'note', text: BOOT_MESSAGES.offline },
    ]);
  });

  it('a mount that fails is an error result, not a throw', async () => {
    const wc = new NodeWebContainer(join(dir, 'does-not-exist'));
    const host = await startWebContainerHost(
      { files: { 'a.txt': 'a' } },
      env(async () => wc),
    );
    expect(host.ok).toBe(false);
    expect(!host.ok && host.message).toMatch(/^WebContainer failed to start: its files could not be written \(ENOENT/);
  });

  it('serves the mounted template to an engine on the other end of the port', async () => {
    const wc = new NodeWebContainer(dir);
    const feed = new TerminalFeed();
    const events = record(feed);
    const host = await startWebContainerHost(
      { files: STARTER_TEMPLATE.files, onTerminal: feed.emit },
      env(async () => wc),
    );
    if (!host.ok) throw new Error(host.message);
    const proxy = await ProxyWorkspace.connect(host.port);
    try {
      expect([proxy.kind, proxy.root, proxy.supportsSymlinks]).toEqual(['webcontainer', dir, false]);
      expect(events.at(-1)).toEqual({
        kind: 'note',
        text: `WebContainer is ready: ${Object.keys(STARTER_TEMPLATE.files).length} files in ${dir}.`,
      });

      const engine = createEngine(proxy);
      const read = await engine.call('ws_read', { path: 'src/strings.js' });
      expect(read.ok).toBe(true);
      expect(read.text).toMatch(/^\[src\/strings\.js#[0-9a-f]{4}: lines 1-/);

      // WebContainer has no git binary: git runs as isomorphic-git over the Workspace, through the port.
      await initRepoWithCommit(proxy, 'seed');
      const wrote = await engine.call('ws_write', { path: 'notes/plan.md', content: '# plan\n' });
      expect(wrote.ok).toBe(true);
      expect((await proxy.readdir('notes')).map((e) => e.name)).toEqual(['plan.md']);
      const status = await engine.call('git_status', {});
      expect(status.text).toContain('?? notes/');

      // The policy's argv is what is spawned, and the terminal sees it run.
      const shell = await engine.call('ws_shell', { command: 'node --version' });
      expect(shell.ok).toBe(true);
      expect(shell.text).toMatch(/^v\d+\.\d+\.\d+/);
      expect(wc.spawned.at(-1)).toEqual({ command: 'node', args: ['--version'], options: {} });
      expect(events).toContainEqual({ kind: 'command', argv: ['node', '--version'], cwd: '' });
      expect(events.at(-1)).toEqual({ kind: 'exit', exitCode: 0 });

      const refused = await engine.call('ws_shell', { command: 'rm -rf /' });
      expect(refused.ok).toBe(false);
      expect(wc.spawned.at(-1)?.command).toBe('node');
    } finally {
      proxy.close();
      host.close();
    }
  });
});
