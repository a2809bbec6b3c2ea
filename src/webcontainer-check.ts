/**
 * Entry of the WebContainer check page (webcontainer-check.html): boots WebContainer with the
 * starter template, or falls back to the in-memory workspace, and connects to whichever it got
 * through the workspace proxy — the same path the engine worker takes. `?timeout=MS` shortens
 * the boot timeout (the e2e spec uses it).
 */
import { mount } from 'svelte';
import './app.css';
import { encodeText, decodeText } from './engine/text.ts';
import CheckPage from './ui/webcontainer/CheckPage.svelte';
import { WebContainerCheckState } from './ui/webcontainer/check-state.svelte.ts';
import { MemoryWorkspace } from './workspace/memory/memory-workspace.ts';
import { ProxyWorkspace, serveWorkspace } from './workspace/proxy/index.ts';
import { STARTER_TEMPLATE, seedTemplate } from './workspace/templates/index.ts';
import { DEFAULT_BOOT_TIMEOUT_MS } from './workspace/webcontainer/boot.ts';
import { startWebContainerHost } from './workspace/webcontainer/host.ts';
import { selfCheck } from './workspace/webcontainer/self-check.ts';
import { TerminalFeed } from './workspace/webcontainer/terminal-feed.ts';

const target = document.getElementById('app');
if (!target) throw new Error('webcontainer-check.html has no #app element to mount the page into');

const requested = Number(new URLSearchParams(location.search).get('timeout'));
const timeoutMs = Number.isInteger(requested) && requested > 0 ? requested : DEFAULT_BOOT_TIMEOUT_MS;
const feed = new TerminalFeed();
const check = new WebContainerCheckState({ state: 'booting', timeoutMs });
mount(CheckPage, { target, props: { check, terminal: feed } });

/** The port of the workspace in use: WebContainer's when it started, else a memory workspace served here. */
async function workspacePort(): Promise<MessagePort> {
  const host = await startWebContainerHost({ files: STARTER_TEMPLATE.files, timeoutMs, onTerminal: feed.emit });
  if (host.ok) {
    check.status = { state: 'ready', root: host.workspace.root };
    return host.port;
  }
  check.status = { state: 'unavailable', reason: host.reason, message: host.message };
  const memory = new MemoryWorkspace();
  await seedTemplate(memory, STARTER_TEMPLATE);
  const { port1, port2 } = new MessageChannel();
  serveWorkspace(port1, memory);
  return port2;
}

const ws = await ProxyWorkspace.connect(await workspacePort());
check.actions = {
  kind: ws.kind,
  async roundTrip() {
    const text = `written through the ${ws.kind} workspace at ${new Date().toISOString()}`;
    await ws.writeFile('notes/check.txt', encodeText(text));
    return {
      text: decodeText(await ws.readFile('notes/check.txt')),
      entries: (await ws.readdir('')).map((e) => e.name),
    };
  },
  selfCheck: () => selfCheck(ws, { exec: ws.kind === 'webcontainer' }),
};
