/**
 * mcp_call: calls one tool on a Model Context Protocol server the settings list (`mcp_servers`),
 * through the host's MCP access. A server not marked `read_only` may change things outside the
 * workspace, so a call to it runs only when a person approved that call; the answer is bounded
 * (`MCP_MAX_BYTES`, the `web_timeout` deadline), marked as outside text, and capped like every result.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok, refusal } from '../result.ts';
import { outsideNote } from '../outside.ts';
import { outsideBanner } from '../web/banner.ts';
import type { EngineSettings } from '../settings.ts';

/**
 * Whether a call is an mcp_call to a configured server not marked read_only: such a call goes
 * before a person in every approval mode (the loop asks; a replay never approves it).
 */
export function isGatedMcpCall(tool: string, args: unknown, settings: Pick<EngineSettings, 'mcp_servers'>): boolean {
  if (tool !== 'mcp_call' || typeof args !== 'object' || args === null) return false;
  const a = args as Record<string, unknown>;
  const name = [a.server, a.server_name].find((v): v is string => typeof v === 'string');
  const server = settings.mcp_servers.find((s) => s.name === name);
  return server !== undefined && !server.read_only;
}

/** The largest answer read from a server, in bytes. */
export const MCP_MAX_BYTES = 1024 * 1024;

const schema = z.object({
  server: z.string().describe('The server\'s name from the settings, e.g. "docs"'),
  tool: z.string().describe('The tool on that server, e.g. "search"'),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe('The tool\'s arguments as an object, e.g. {"q": "x"}'),
});

export const mcpCall = defineTool({
  name: 'mcp_call',
  summary: 'Call a tool on a configured Model Context Protocol server',
  writes: false,
  schema,
  aliases: { args: 'arguments', params: 'arguments', name: 'tool', server_name: 'server' },
  async run(args, ctx) {
    const servers = ctx.settings.mcp_servers;
    const names = servers.map((s) => s.name).join(', ');
    const server = servers.find((s) => s.name === args.server);
    if (!server) {
      return refusal(
        servers.length
          ? `No MCP server is named ${JSON.stringify(args.server)}. The servers are: ${names}. Call one of them by that name.`
          : 'No MCP servers are configured in this session (the setting mcp_servers is empty), so mcp_call has nothing to reach. Carry on with the workspace tools.',
        'mcp-server',
      );
    }
    const mcp = ctx.outside?.mcp;
    if (!mcp)
      return refusal(
        'mcp_call cannot reach MCP servers here: this host gives it no connection (the slm CLI does). Carry on with the workspace tools.',
        'no-mcp',
      );
    if (!server.read_only && !ctx.approved) {
      return refusal(
        `mcp_call to ${server.name} needs a person's approval: the server is not marked read_only, so its tools may change things outside the workspace. ` +
          'It was not called. Use a read-only server, or ask the person to approve this call.',
        'mcp-gated',
      );
    }
    const deadline = new AbortController();
    const timer = setTimeout(() => deadline.abort(), ctx.settings.web_timeout);
    try {
      const got = await mcp.callTool({
        server,
        tool: args.tool,
        arguments: args.arguments ?? {},
        signal: deadline.signal,
        maxBytes: MCP_MAX_BYTES,
      });
      if (!got.ok) return refusal(`mcp_call to ${server.name}/${args.tool} failed — ${got.text}`, `mcp-${got.code}`);
      const head = outsideBanner(
        `MCP server ${server.name}, tool ${args.tool}${got.isError ? ', which reported an error' : ''} (${got.bytes} bytes)`,
      );
      const note = outsideNote('mcp', `MCP ${server.name}/${args.tool}, ${got.bytes} bytes`);
      const body = got.text.trim() === '' ? '(the tool returned no text)' : got.text;
      return got.isError ? fail(`${head}\n${body}`, [note]) : ok(`${head}\n${body}`, [note]);
    } finally {
      clearTimeout(timer);
    }
  },
});
