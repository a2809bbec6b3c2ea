// A fixture MCP server built with the SDK: `echo` answers its text, `big` answers 50 MB, `never` never answers,
// `where` says where it runs (its working directory, its uid, whether a host path is visible).
// Run as a stdio server (`node server.mjs`), or imported for Streamable HTTP (`buildServer`).
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { existsSync } from 'node:fs';
import { z } from 'zod';

export function buildServer() {
  const server = new McpServer({ name: 'fixture', version: '1.0.0' });
  server.registerTool(
    'echo',
    { description: 'Echo the text', inputSchema: { text: z.string() } },
    async ({ text }) => ({
      content: [{ type: 'text', text: `echo: ${text}` }],
    }),
  );
  server.registerTool('fails', { description: 'Always fails' }, async () => ({
    content: [{ type: 'text', text: 'the fixture tool failed' }],
    isError: true,
  }));
  server.registerTool('big', { description: '50 MB of text' }, async () => ({
    content: [{ type: 'text', text: 'x'.repeat(50 * 1024 * 1024) }],
  }));
  server.registerTool('never', { description: 'Never answers' }, () => new Promise(() => {}));
  server.registerTool(
    'where',
    { description: 'Where this server runs', inputSchema: { path: z.string() } },
    async ({ path }) => ({
      content: [
        {
          type: 'text',
          text: `cwd=${process.cwd()} uid=${process.getuid?.()} ${path} visible=${existsSync(path) ? 'yes' : 'no'}`,
        },
      ],
    }),
  );
  return server;
}

if (process.argv[2] === 'stdio') await buildServer().connect(new StdioServerTransport());
// `garbage`: answers every line with one that is not a JSON-RPC message.
if (process.argv[2] === 'garbage')
  process.stdin.on('data', () => process.stdout.write('{"jsonrpc": "2.0", "id": 0, "result": nope}\n'));
