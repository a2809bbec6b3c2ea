/**
 * The MCP client both hosts share, over the official SDK: one connection per call (the host's
 * `McpConnector` makes its transport: Streamable HTTP, or stdio on the CLI), closed after it. A
 * Streamable HTTP answer is counted while it streams and refused past the cap; a server that
 * never answers ends at the deadline; a malformed message is named.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpAccess, McpCallOutcome, McpCallRequest, McpFailure } from '../engine/mcp/access.ts';
import type { McpServerConfig } from '../engine/settings.ts';

/** What went wrong on a connection so far (seen by the transport; the SDK may report it otherwise), and how to end its call at once. */
export interface McpSeen {
  error?: Error;
  readonly stop: () => void;
}

/**
 * Makes the transport of one call to `server`, its answers capped at `maxBytes` (the envelope's
 * room included); throws when this host cannot reach such a server.
 */
export type McpConnector = (server: McpServerConfig, maxBytes: number, seen: McpSeen) => Transport;

/** An answer that passed the cap while it streamed. */
export class McpTooLarge extends Error {}

/** Room for the JSON-RPC envelope (and the handshake) around an answer of the cap's size. */
const ENVELOPE_BYTES = 64 * 1024;

/** A fetch whose response bodies stop with `McpTooLarge` past `maxBytes`, ending the call. */
function cappedFetch(maxBytes: number, seen: McpSeen, fetchFn: typeof fetch): typeof fetch {
  return async (input, init) => {
    const res = await fetchFn(input, init);
    if (!res.body) return res;
    let size = 0;
    const counted = res.body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, ctrl) {
          size += chunk.length;
          if (size > maxBytes) {
            seen.error = new McpTooLarge(`more than ${maxBytes} bytes`);
            ctrl.error(seen.error);
            seen.stop();
          } else ctrl.enqueue(chunk);
        },
      }),
    );
    return new Response(counted, { status: res.status, statusText: res.statusText, headers: res.headers });
  };
}

/** A Streamable HTTP transport to `server.url` whose answers are capped at `maxBytes`. */
export function httpTransport(server: McpServerConfig, maxBytes: number, seen: McpSeen, fetchFn: typeof fetch = fetch) {
  return new StreamableHTTPClientTransport(new URL(server.url!), { fetch: cappedFetch(maxBytes, seen, fetchFn) });
}

/** The errors `e` wraps, itself first (fetch and the SDK put the system error in `cause`). */
function causes(e: unknown): Error[] {
  const out: Error[] = [];
  for (let x = e; x instanceof Error && out.length < 5; x = x.cause) out.push(x);
  return out;
}

/** The system error code of a connection that never got an answer (refused, no such host, reset), if any. */
function systemCode(e: unknown): string | undefined {
  for (const x of causes(e)) {
    const code = (x as { code?: unknown }).code;
    if (typeof code === 'string' && /^E[A-Z]+$/.test(code)) return code;
  }
  return undefined;
}

/** Whether `e` says the server was never reached: fetch's TypeError, or a system error code. */
function unreachable(e: unknown): boolean {
  return systemCode(e) !== undefined || causes(e).some((x) => x instanceof TypeError && /fetch failed/.test(x.message));
}

function failure(e: unknown, seen: McpSeen, req: McpCallRequest): McpFailure {
  const name = req.server.name;
  if (seen.error instanceof McpTooLarge)
    return {
      ok: false,
      code: 'too-large',
      text: `${name} answered more than ${req.maxBytes} bytes, the most mcp_call reads; ask the tool for less.`,
    };
  if (req.signal.aborted)
    return {
      ok: false,
      code: 'timeout',
      text: `${name} did not answer before the deadline (web_timeout)${seen.error ? `; it last sent something unreadable (${seen.error.message.slice(0, 200)})` : ''}. Try again later or another way.`,
    };
  const msg = e instanceof Error ? e.message : String(e);
  if (unreachable(seen.error) || unreachable(e))
    return {
      ok: false,
      code: 'unreachable',
      text: `${name} could not be reached (${systemCode(seen.error) ?? systemCode(e) ?? 'no connection'}). Check that the server runs and that its url or command in mcp_servers is right.`,
    };
  if (seen.error || /parse|invalid|JSON|schema|expected/i.test(msg))
    return {
      ok: false,
      code: 'malformed',
      text: `${name} sent a malformed MCP message (${(seen.error?.message ?? msg).slice(0, 300)}); the server may be broken.`,
    };
  return { ok: false, code: 'unreachable', text: `${name} could not be reached (${msg.slice(0, 300)}).` };
}

function textOf(result: { content?: unknown }): string {
  const parts = Array.isArray(result.content) ? result.content : [];
  return parts
    .map((p: { type?: string; text?: string }) =>
      p.type === 'text' ? (p.text ?? '') : `[${p.type ?? 'unknown'} content not shown]`,
    )
    .join('\n');
}

/** Runs `work` with a connected client, ending at the signal and closing the connection after. */
async function withClient<T>(req: McpCallRequest, connect: McpConnector, work: (c: Client) => Promise<T>) {
  const client = new Client({ name: 'slmcode-playground', version: '0.1.0' });
  // The call ends at the deadline, or at once when an answer passes the cap.
  let stop!: (e: Error) => void;
  const aborted = new Promise<never>((_, reject) => (stop = reject));
  // A stop after the call ended is nobody's concern.
  aborted.catch(() => undefined);
  const seen: McpSeen = { stop: () => stop(new Error('too large')) };
  client.onerror = (e) => (seen.error ??= e);
  if (req.signal.aborted) stop(new Error('deadline'));
  req.signal.addEventListener('abort', () => stop(new Error('deadline')), { once: true });
  try {
    const transport = connect(req.server, req.maxBytes + ENVELOPE_BYTES, seen);
    await Promise.race([client.connect(transport, { signal: req.signal }), aborted]);
    return { ok: true as const, value: await Promise.race([work(client), aborted]) };
  } catch (e) {
    return failure(e, seen, req);
  } finally {
    void client.close().catch(() => undefined);
  }
}

/**
 * An McpAccess over the SDK's client: one connection per call made by `connect`, closed after
 * it, ended at the request's deadline, the answer capped; every failure named.
 */
export function sdkMcp(connect: McpConnector): McpAccess {
  return {
    async listTools(server, signal) {
      const req = { server, tool: '', arguments: {}, signal, maxBytes: 1024 * 1024 };
      const got = await withClient(req, connect, async (c) => (await c.listTools({}, { signal })).tools);
      if (!got.ok) return got;
      return {
        ok: true,
        tools: got.value.map((t) => ({
          name: t.name,
          description: t.description ?? '',
          inputSchema: { properties: t.inputSchema.properties ?? {}, required: t.inputSchema.required ?? [] },
        })),
      };
    },
    async callTool(req): Promise<McpCallOutcome> {
      const got = await withClient(req, connect, (c) =>
        c.callTool({ name: req.tool, arguments: { ...req.arguments } }, undefined, { signal: req.signal }),
      );
      if (!got.ok) return got;
      const text = textOf(got.value as { content?: unknown });
      const bytes = new TextEncoder().encode(text).length;
      if (bytes > req.maxBytes)
        return {
          ok: false,
          code: 'too-large',
          text: `${req.server.name} answered ${bytes} bytes, more than the ${req.maxBytes} mcp_call reads; ask the tool for less.`,
        };
      return { ok: true, text, isError: Boolean((got.value as { isError?: unknown }).isError), bytes };
    },
  };
}
