/**
 * The serving side of the workspace proxy: answers every call arriving on a port against one
 * Workspace. Calls run concurrently, as they would on the Workspace itself (isomorphic-git
 * reads files in parallel); each reply names the call it answers. Runs wherever the backend
 * lives — for WebContainer that is the main thread, since the library refuses to start in a
 * worker.
 */
import type { Workspace } from '../../engine/workspace.ts';
import type { ProxyCall, ProxyReply, ProxyRequest, WorkspaceCalls, WorkspacePort } from './protocol.ts';
import { toWireFailure, transferableCopy } from './wire.ts';

/** A running server; `close` stops answering, cancels running commands and closes the port. */
export interface WorkspaceServer {
  close(): void;
}

type Answer = { readonly value: WorkspaceCalls[ProxyCall['op']]['result']; readonly transfer: Transferable[] };

/** Serves `workspace` on `port` until `close()`. */
export function serveWorkspace(port: WorkspacePort<ProxyReply>, workspace: Workspace): WorkspaceServer {
  // Running execs by call id, so an `abort` message reaches the right command.
  const running = new Map<number, AbortController>();
  let closed = false;

  const reply = (message: ProxyReply, transfer: Transferable[] = []): void => {
    if (!closed) port.postMessage(message, transfer);
  };

  const listener = (event: MessageEvent): void => {
    const msg = event.data as ProxyRequest | null;
    if (msg?.type === 'abort') {
      running.get(msg.id)?.abort();
      return;
    }
    if (msg?.type !== 'call') {
      // Not ours: a port is point to point, so this is a wiring bug, reported where it can be.
      const id = (msg as { id?: unknown } | null)?.id;
      if (typeof id === 'number') {
        reply({
          type: 'error',
          id,
          error: { name: 'TypeError', message: `workspace proxy: not a call: ${JSON.stringify(msg).slice(0, 200)}` },
        });
      }
      return;
    }
    const id = msg.id;
    answer(msg).then(
      ({ value, transfer }) => reply({ type: 'result', id, value }, transfer),
      (e: unknown) => reply({ type: 'error', id, error: toWireFailure(e) }),
    );
  };

  async function answer(call: ProxyCall): Promise<Answer> {
    const plain = (value: Answer['value']): Answer => ({ value, transfer: [] });
    switch (call.op) {
      case 'describe':
        return plain({
          kind: workspace.kind,
          root: workspace.root,
          supportsSymlinks: workspace.supportsSymlinks,
          ...(workspace.commandRoot !== undefined && { commandRoot: workspace.commandRoot }),
        });
      case 'readFile': {
        const { bytes, transfer } = transferableCopy(await workspace.readFile(call.path));
        return { value: bytes, transfer };
      }
      case 'writeFile':
        return plain(await workspace.writeFile(call.path, call.data));
      case 'mkdir':
        return plain(await workspace.mkdir(call.path));
      case 'readdir':
        return plain(await workspace.readdir(call.path));
      case 'lstat':
        return plain(await workspace.lstat(call.path));
      case 'readlink':
        return plain(await workspace.readlink(call.path));
      case 'rename':
        return plain(await workspace.rename(call.from, call.to));
      case 'remove':
        return plain(await workspace.remove(call.path));
      case 'exec': {
        const ac = new AbortController();
        running.set(call.id, ac);
        try {
          return plain(await workspace.exec(call.plan, { ...call.opts, signal: ac.signal }));
        } finally {
          running.delete(call.id);
        }
      }
      default: {
        const never: never = call;
        throw new TypeError(`workspace proxy: unknown operation ${JSON.stringify((never as { op?: unknown }).op)}`);
      }
    }
  }

  port.addEventListener('message', listener);
  port.start?.();
  return {
    close() {
      if (closed) return;
      closed = true;
      port.removeEventListener('message', listener);
      for (const ac of running.values()) ac.abort();
      running.clear();
      port.close?.();
    },
  };
}
