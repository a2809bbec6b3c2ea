/**
 * Loopback MCP servers for the tests: the SDK-built fixture server over Streamable HTTP
 * (stateless, one transport per request) at /mcp, and at /garbage a server answering every
 * request with a body that is not an MCP message. Both allow any page (CORS), so a tab can call them.
 * request with a body that is not an MCP message. `requests` counts what reached it, by JSON-RPC
 * method (`tools/list`, `tools/call`, …), so a test can tell that a replay contacted no server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
// @ts-expect-error — a plain .mjs fixture (it also runs as a stdio server)
import { buildServer } from './server.mjs';

export interface McpFixture {
  readonly base: string;
  readonly requests: Map<string, number>;
  close(): Promise<void>;
}

export async function startMcpFixture(): Promise<McpFixture> {
  const requests = new Map<string, number>();
  const server: Server = createServer(async (req, res) => {
    // CORS for any page, as an MCP server meant for a tab sends it (the e2e spec calls it from one).
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-expose-headers', 'mcp-session-id');
    if (req.method === 'OPTIONS') {
      res.writeHead(204, {
        'access-control-allow-methods': 'GET, POST, DELETE, OPTIONS',
        'access-control-allow-headers': 'content-type, accept, mcp-session-id, mcp-protocol-version, last-event-id',
      });
      return void res.end();
    }
    if (req.url === '/garbage') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"jsonrpc": "2.0", "id": 0, "result": nope}');
      return;
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : undefined;
    const method = typeof body?.method === 'string' ? body.method : req.method!;
    requests.set(method, (requests.get(method) ?? 0) + 1);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    const mcp = buildServer();
    res.on('close', () => {
      void transport.close();
      void mcp.close();
    });
    await mcp.connect(transport);
    await transport.handleRequest(req, res, body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return {
    base: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise((done) => {
        server.closeAllConnections();
        server.close(() => done());
      }),
  };
}
