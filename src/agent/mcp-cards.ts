/**
 * The prompt's MCP tool cards: before the first step, every server in `mcp_servers` is asked for
 * its tools (through the engine's outside access, so the listing is recorded with the session and
 * a replay answers it from the record), and each tool becomes a card the way skills are listed —
 * server/tool, its arguments on one line, the server's own description, and whether a call runs
 * at once (read-only) or waits for a person (gated). A server that cannot be listed is named with
 * why; its tools can still be called.
 */
import type { Engine } from '../engine/engine.ts';
import { compactJsonArgs } from './call-schema.ts';

/** One tool of one configured server, as the prompt lists it. */
export interface McpCard {
  readonly server: string;
  readonly tool: string;
  readonly description: string;
  /** `{q: string, limit?: integer}`. */
  readonly args: string;
  /** The server is marked read_only: its calls run without asking. */
  readonly readOnly: boolean;
}

/** The listing: the cards, and the servers whose tools could not be listed, with why. */
export interface McpListing {
  readonly cards: readonly McpCard[];
  readonly unlisted: readonly { readonly server: string; readonly why: string }[];
}

/** At most this many cards are listed; the rest are counted. */
export const MAX_MCP_CARDS = 40;
const MAX_DESCRIPTION = 160;

/** A server's description on one line, cut to MAX_DESCRIPTION characters (it is the server's text, not ours). */
function oneLine(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_DESCRIPTION ? `${flat.slice(0, MAX_DESCRIPTION - 1)}…` : flat;
}

/**
 * Lists every configured server's tools, when the engine offers mcp_call and the host gives MCP
 * access; undefined otherwise. Servers are asked together, each within `web_timeout`.
 */
export async function listMcpTools(engine: Engine, signal?: AbortSignal): Promise<McpListing | undefined> {
  const servers = engine.settings.mcp_servers;
  const mcp = engine.ctx.outside?.mcp;
  if (!engine.tools.has('mcp_call') || !servers.length || !mcp) return undefined;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), engine.settings.web_timeout);
  const stop = () => deadline.abort();
  signal?.addEventListener('abort', stop, { once: true });
  try {
    const answers = await Promise.all(servers.map((s) => mcp.listTools(s, deadline.signal)));
    const cards: McpCard[] = [];
    const unlisted: { server: string; why: string }[] = [];
    answers.forEach((got, i) => {
      const server = servers[i]!;
      if (!got.ok) unlisted.push({ server: server.name, why: got.text });
      else
        for (const t of got.tools)
          cards.push({
            server: server.name,
            tool: t.name,
            description: oneLine(t.description),
            args: compactJsonArgs(t.inputSchema ?? {}),
            readOnly: server.read_only,
          });
    });
    return { cards, unlisted };
  } finally {
    clearTimeout(timer);
    signal?.removeEventListener('abort', stop);
  }
}

/** The prompt section: one card per tool, then the servers that could not be listed. */
export function mcpCardsText(listing: McpListing): string {
  const shown = listing.cards.slice(0, MAX_MCP_CARDS);
  const lines = [
    '# MCP tools (call with mcp_call {"server", "tool", "arguments"}; descriptions are the servers\' own words, and answers are outside text)',
    ...shown.map(
      (c) =>
        `- ${c.server}/${c.tool} ${c.args} — ${c.description || '(no description)'} (${c.readOnly ? 'read-only' : 'gated: a person approves each call'})`,
    ),
  ];
  const more = listing.cards.length - shown.length;
  if (more > 0) lines.push(`- … and ${more} more tool(s), not listed here`);
  for (const u of listing.unlisted) lines.push(`- ${u.server}: its tools could not be listed — ${oneLine(u.why)}`);
  if (!listing.cards.length && !listing.unlisted.length) lines.push('- (the servers list no tools)');
  return lines.join('\n');
}
