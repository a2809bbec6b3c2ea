/**
 * The page's side of the WebContainer workspace (main thread only; the engine worker's side is
 * attached-workspace.ts). WebContainer boots on the main thread, once per page, when a person
 * chooses it; its terminal tee goes into a feed the run page shows; and the engine worker is
 * handed a MessagePort serving it — again after every engine restart, because a port dies
 * with the worker it was transferred to. When WebContainer cannot start, the status says why
 * and nothing is attached: runs stay on the in-memory workspace.
 *
 * This module, not the UI, starts the host: ui/ imports no runtime code from workspace/, and
 * the code that crosses threads lives in worker/. The host's code (and @webcontainer/api) is
 * loaded on first use, so a page that never chooses WebContainer never loads it.
 */
import { DEFAULT_BOOT_TIMEOUT_MS, FALLBACK_TEXT, type BootFailureReason } from '../workspace/webcontainer/boot.ts';
import type { WebContainerHost, WebContainerHostOptions } from '../workspace/webcontainer/host.ts';
import { serveWorkspace, type WorkspaceServer } from '../workspace/proxy/serve.ts';
import { TerminalFeed, type TerminalSource } from '../workspace/webcontainer/terminal-feed.ts';
import type { EngineClient, EngineStatus } from './client.ts';

/** Where WebContainer is on this page. */
export type WebContainerLinkStatus =
  /** Not chosen yet: nothing loaded, nothing booted. */
  | { readonly state: 'idle' }
  /** Booting; gives up after `timeoutMs`. */
  | { readonly state: 'booting'; readonly timeoutMs: number }
  /** Running and attached to the engine; `root` is its working directory. */
  | { readonly state: 'ready'; readonly root: string }
  /** Not available, and why; runs use the in-memory workspace. */
  | { readonly state: 'unavailable'; readonly reason: BootFailureReason; readonly message: string };

/** `startWebContainerHost`'s shape: the real one in the page, a stand-in over Node in tests. */
export type StartHost = (
  options: WebContainerHostOptions,
) => Promise<WebContainerHost | { readonly ok: false; readonly reason: BootFailureReason; readonly message: string }>;

export interface WebContainerLinkOptions {
  /** How long to wait for StackBlitz's servers (ms); the host's default when absent. */
  readonly timeoutMs?: number;
  /** Starts the host; by default the real one, loaded on first use. */
  readonly start?: StartHost;
}

const loadStart: StartHost = async (options) =>
  (await import('../workspace/webcontainer/host.ts')).startWebContainerHost(options);

export class WebContainerLink {
  readonly #client: EngineClient;
  readonly #start: StartHost;
  readonly #timeoutMs: number;
  readonly #feed = new TerminalFeed();
  readonly #listeners = new Set<(status: WebContainerLinkStatus) => void>();
  #status: WebContainerLinkStatus = { state: 'idle' };
  #booting: Promise<WebContainerLinkStatus> | null = null;
  #host: WebContainerHost | null = null;
  /** The server behind the port the current worker holds. */
  #server: WorkspaceServer | null = null;
  /** True once the current worker has been handed a port (reset when a new worker starts). */
  #attached = false;

  constructor(client: EngineClient, options: WebContainerLinkOptions = {}) {
    this.#client = client;
    this.#start = options.start ?? loadStart;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS;
    // For the life of the page, like the WebContainer itself: no unsubscribe needed.
    client.onStatus((s) => this.#onEngineStatus(s));
  }

  /** The commands the agent runs in WebContainer, their output, and the host's notes. */
  get terminal(): TerminalSource {
    return this.#feed;
  }

  get status(): WebContainerLinkStatus {
    return this.#status;
  }

  /** Calls `listener` with every status change (not the current one); returns the unsubscribe. */
  onStatus(listener: (status: WebContainerLinkStatus) => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  /**
   * Boots WebContainer and attaches it to the engine; resolves to the outcome. Only the first
   * call boots (WebContainer allows one boot per page; retrying needs a reload), later calls
   * get the same answer.
   */
  boot(): Promise<WebContainerLinkStatus> {
    this.#booting ??= this.#boot();
    return this.#booting;
  }

  async #boot(): Promise<WebContainerLinkStatus> {
    this.#setStatus({ state: 'booting', timeoutMs: this.#timeoutMs });
    // Empty: every run seeds its own files into it from the engine worker.
    const host = await this.#start({ files: {}, timeoutMs: this.#timeoutMs, onTerminal: this.#feed.emit });
    if (!host.ok) {
      this.#setStatus({ state: 'unavailable', reason: host.reason, message: host.message });
      return this.#status;
    }
    this.#host = host;
    const attached = await this.#attach(host.port, host);
    this.#setStatus(attached ?? { state: 'ready', root: host.workspace.root });
    return this.#status;
  }

  /** Hands the engine `port` (served by `server`); a failure is the status that says why. */
  async #attach(port: MessagePort, server: WorkspaceServer): Promise<WebContainerLinkStatus | null> {
    this.#server?.close();
    this.#server = server;
    this.#attached = true;
    try {
      await this.#client.attachWorkspace(port);
      return null;
    } catch (e) {
      server.close();
      const why = e instanceof Error ? e.message : String(e);
      const message = `WebContainer started, but the engine could not connect to it (${why}). ${FALLBACK_TEXT} Reload the page to try again.`;
      this.#feed.emit({ kind: 'note', text: message });
      return { state: 'unavailable', reason: 'error', message };
    }
  }

  /** A new worker has none of the old one's ports: serve WebContainer on a new one for it. */
  #onEngineStatus(s: EngineStatus): void {
    if (s.state !== 'ready') {
      this.#attached = false;
      return;
    }
    const host = this.#host;
    if (!host || this.#attached || this.#status.state !== 'ready') return;
    const { port1, port2 } = new MessageChannel();
    const server = serveWorkspace(port1, host.workspace);
    void this.#attach(port2, server).then((failed) => failed && this.#setStatus(failed));
  }

  #setStatus(status: WebContainerLinkStatus): void {
    this.#status = status;
    for (const l of this.#listeners) l(status);
  }
}
