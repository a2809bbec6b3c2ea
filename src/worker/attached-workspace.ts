/**
 * The engine worker's side of a workspace the page attached: WebContainer, which boots on the
 * main thread only and is served from there over a MessagePort (the page's side is
 * webcontainer-link.ts). A `ProxyWorkspace` on that port is a Workspace like any other, so the
 * engine, the jail and the recorder use it unchanged; its `kind` says 'webcontainer', which is
 * what a run records as its backend.
 *
 * There is one WebContainer per page, so there is at most one attached workspace, and every
 * run on it starts by emptying its directory. A new attach replaces the old one: the page
 * attaches again after an engine restart, since a port dies with the worker it was given to.
 */
import type { Workspace } from '../engine/workspace.ts';
import { ProxyWorkspace } from '../workspace/proxy/proxy-workspace.ts';
// By file, never through the folder: the worker must not pull in what imports @webcontainer/api.
import { createNodeSyntaxCheck } from '../workspace/webcontainer/node-syntax-check.ts';
import type { AttachedWorkspaceInfo } from './protocol.ts';
import type { SessionBackend } from './starter-session.ts';

/** The part of a MessagePort the proxy needs (a Node MessagePort in tests). */
type Port = Parameters<typeof ProxyWorkspace.connect>[0];

export class AttachedWorkspace {
  #current: ProxyWorkspace | null = null;

  /** Connects to the workspace served on `port` and keeps it, closing the one before. Throws (EIO) when nothing answers the handshake. */
  async attach(port: Port): Promise<AttachedWorkspaceInfo> {
    const ws = await ProxyWorkspace.connect(port);
    this.#current?.close('the page attached a new workspace');
    this.#current = ws;
    return { kind: ws.kind, root: ws.root };
  }

  /** The attached workspace's kind, or null when none is attached. */
  get kind(): string | null {
    return this.#current?.kind ?? null;
  }

  /**
   * The attached workspace emptied for a new run, with `node --check` as its syntax checker
   * when it is WebContainer (it has a real Node); null when none is attached. The run before must have been stopped:
   * its files go.
   */
  async fresh(): Promise<SessionBackend | null> {
    const ws = this.#current;
    if (!ws) return null;
    await empty(ws);
    return ws.kind === 'webcontainer' ? { workspace: ws, syntaxCheck: createNodeSyntaxCheck(ws) } : { workspace: ws };
  }
}

/** Removes every top-level entry (node_modules included: a run starts from its files alone). */
async function empty(ws: Workspace): Promise<void> {
  for (const entry of await ws.readdir('')) await ws.remove(entry.name);
}
