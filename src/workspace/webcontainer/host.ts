/**
 * The page's side of the WebContainer workspace: boot (or say why not), mount the chosen files,
 * and serve the workspace on a MessagePort for the engine worker, whose `ProxyWorkspace` is
 * the other end. Main thread only. When it fails, nothing else changes: the worker keeps its
 * in-memory workspace, and the failure's message is what the notice shows.
 */
import type { WebContainer } from '@webcontainer/api';
import { serveWorkspace } from '../proxy/serve.ts';
import {
  bootWebContainer,
  BOOT_MESSAGES,
  pageEnvironment,
  type BootEnvironment,
  type BootFailure,
  type BootOptions,
} from './boot.ts';
import type { TerminalListener } from './terminal-feed.ts';
import { WebContainerWorkspace, type WebContainerLike } from './webcontainer-workspace.ts';

export interface WebContainerHostOptions extends BootOptions {
  /** The files to start with: a template's files, or files a person dropped in. */
  readonly files: Readonly<Record<string, string>>;
  /** Gets the host's notes and the terminal tee of every command (e.g. a TerminalFeed's `emit`). */
  readonly onTerminal?: TerminalListener;
}

export interface WebContainerHost {
  readonly ok: true;
  readonly workspace: WebContainerWorkspace;
  /** Hand this to the engine worker (transfer it); `ProxyWorkspace.connect(port)` there. */
  readonly port: MessagePort;
  /** Stops serving and closes the port (the WebContainer itself lives as long as the page). */
  close(): void;
}

/** Boots WebContainer, mounts `files` and serves the workspace; never rejects. */
export async function startWebContainerHost<T extends WebContainerLike = WebContainer>(
  options: WebContainerHostOptions,
  env: BootEnvironment<T> = pageEnvironment() as unknown as BootEnvironment<T>,
): Promise<WebContainerHost | BootFailure> {
  const note = (text: string): void => options.onTerminal?.({ kind: 'note', text });
  note("Starting WebContainer (it boots from StackBlitz's servers)…");
  const booted = await bootWebContainer(options, env);
  if (!booted.ok) {
    note(booted.message);
    return booted;
  }
  const workspace = new WebContainerWorkspace(booted.wc, options.onTerminal ? { onTerminal: options.onTerminal } : {});
  try {
    await workspace.mountFiles(options.files);
  } catch (e) {
    const failure: BootFailure = {
      ok: false,
      reason: 'error',
      message: BOOT_MESSAGES.error(`its files could not be written (${e instanceof Error ? e.message : String(e)})`),
    };
    note(failure.message);
    return failure;
  }
  const { port1, port2 } = new MessageChannel();
  const server = serveWorkspace(port1, workspace);
  note(`WebContainer is ready: ${Object.keys(options.files).length} files in ${workspace.root}.`);
  return { ok: true, workspace, port: port2, close: () => server.close() };
}
