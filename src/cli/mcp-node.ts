/**
 * The CLI's MCP access, through the shared SDK client (platform/mcp-client.ts): Streamable HTTP
 * for a server with a `url`, stdio for one with a `command` — the process started through the
 * command sandbox the CLI chose (bubblewrap: no network, only the workspace writable), the same
 * as the model's commands; its output counted while it streams and ended at the cap.
 */
import type { McpAccess } from '../engine/mcp/access.ts';
import { httpTransport, sdkMcp } from '../platform/mcp-client.ts';
import type { CommandSandbox } from '../workspace/node/host-sandbox.ts';
import { CappedStdioTransport } from './mcp-stdio.ts';

/** Where a stdio server runs: the command sandbox and the workspace it may write. */
export interface StdioPlace {
  readonly sandbox: CommandSandbox;
  readonly root: string;
}

/** The CLI's MCP access; `place` is where stdio servers run (none: stdio servers are refused). */
export function nodeMcp(place?: StdioPlace): McpAccess {
  return sdkMcp((server, maxBytes, seen) => {
    if (server.url) return httpTransport(server, maxBytes, seen);
    if (!place) throw new Error('stdio servers need a workspace to run in');
    const spawn = place.sandbox.wrap([server.command!, ...(server.args ?? [])], {
      root: place.root,
      cwd: place.root,
      env: {},
    });
    return new CappedStdioTransport(spawn, maxBytes);
  });
}
