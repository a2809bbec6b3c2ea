/**
 * The Workspace contract through the proxy: ProxyWorkspace → MessageChannel → serveWorkspace
 * → MemoryWorkspace, in one process. Every call crosses the port as the engine worker's calls
 * to the page's WebContainer would; the seeding helper `symlink` (not part of the Workspace
 * interface, so not forwarded) goes to the served workspace directly.
 */
import { afterEach } from 'vitest';
import { MemoryWorkspace } from '../../src/workspace/memory/memory-workspace.ts';
import { ProxyWorkspace, serveWorkspace, type WorkspaceServer } from '../../src/workspace/proxy/index.ts';
import { workspaceContract, type ContractWorkspace } from './workspace-contract.ts';

const open: { proxy: ProxyWorkspace; server: WorkspaceServer }[] = [];
afterEach(() => {
  // An open MessagePort keeps Node's event loop alive: close both ends after every test.
  for (const { proxy, server } of open.splice(0)) {
    proxy.close();
    server.close();
  }
});

workspaceContract('proxy → memory', async (): Promise<ContractWorkspace> => {
  const served = new MemoryWorkspace();
  const { port1, port2 } = new MessageChannel();
  const server = serveWorkspace(port2, served);
  const proxy = await ProxyWorkspace.connect(port1);
  open.push({ proxy, server });
  return Object.assign(proxy, { symlink: (target: string, path: string) => served.symlink(target, path) });
});
