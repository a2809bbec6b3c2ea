/**
 * What a session keeps of Model Context Protocol servers: every listing and every call a
 * session made — the server, the tool and its arguments (the request), and the answer's text or
 * the failure (the result) — as the web log keeps web requests. The engine records through
 * `recordingMcp`; a replay answers from the record through `replayMcp`, so a step that called a
 * server reproduces offline and never contacts it.
 */
import type { McpServerConfig } from '../settings.ts';
import type { McpAccess, McpCallOutcome, McpFailure, McpFailureCode, McpToolInfo, McpToolsOutcome } from './access.ts';

/** One listing or call and its answer, as a session records it. */
export interface McpExchange {
  readonly server: string;
  /** The tool called; absent for a listing of the server's tools. */
  readonly tool?: string;
  /** The call's arguments as JSON text (keys sorted). */
  readonly arguments?: string;
  /** A call's answer. */
  readonly answer?: { readonly text: string; readonly isError: boolean; readonly bytes: number };
  /** A listing's answer. */
  readonly tools?: McpToolInfo[];
  /** When there was no usable answer: why. */
  readonly failure?: { readonly code: string; readonly text: string };
}

/** JSON text of `value` with every object's keys sorted, so equal arguments give equal text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(
          Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : v,
  );
}

function failureOf(o: McpFailure): McpExchange['failure'] {
  return { code: o.code, text: o.text };
}

/** `inner`, with every listing and call and its answer appended to `log`. */
export function recordingMcp(inner: McpAccess, log: McpExchange[]): McpAccess {
  return {
    async listTools(server, signal) {
      const got = await inner.listTools(server, signal);
      log.push({ server: server.name, ...(got.ok ? { tools: [...got.tools] } : { failure: failureOf(got) }) });
      return got;
    },
    async callTool(req) {
      const got = await inner.callTool(req);
      log.push({
        server: req.server.name,
        tool: req.tool,
        arguments: canonicalJson(req.arguments),
        ...(got.ok
          ? { answer: { text: got.text, isError: got.isError, bytes: got.bytes } }
          : { failure: failureOf(got) }),
      });
      return got;
    },
  };
}

const CODES: ReadonlySet<string> = new Set<McpFailureCode>([
  'timeout',
  'too-large',
  'malformed',
  'unreachable',
  'refused',
]);

function replayedFailure(f: NonNullable<McpExchange['failure']>): McpFailure {
  return { ok: false, code: CODES.has(f.code) ? (f.code as McpFailureCode) : 'unreachable', text: f.text };
}

/** MCP access that answers from `exchanges` (each used once, matched by server, tool and arguments) and never contacts a server. */
export function replayMcp(exchanges: readonly McpExchange[]): McpAccess & { readonly answered: () => number } {
  const used = new Set<number>();
  const take = (match: (e: McpExchange) => boolean): McpExchange | undefined => {
    const i = exchanges.findIndex((e, k) => !used.has(k) && match(e));
    if (i < 0) return undefined;
    used.add(i);
    return exchanges[i];
  };
  const missing = (server: McpServerConfig, what: string): McpFailure => ({
    ok: false,
    code: 'unreachable',
    text: `${what} on ${server.name} is not in the session's record, and a replay never contacts a server; the replayed step asked for something the recorded one did not`,
  });
  return {
    answered: () => used.size,
    listTools(server): Promise<McpToolsOutcome> {
      const e = take((x) => x.server === server.name && x.tool === undefined);
      if (!e) return Promise.resolve(missing(server, 'The list of tools'));
      if (e.failure) return Promise.resolve(replayedFailure(e.failure));
      return Promise.resolve({ ok: true, tools: e.tools ?? [] });
    },
    callTool(req): Promise<McpCallOutcome> {
      const args = canonicalJson(req.arguments);
      const e = take((x) => x.server === req.server.name && x.tool === req.tool && x.arguments === args);
      if (!e) return Promise.resolve(missing(req.server, `The call ${req.tool} ${args}`));
      if (e.failure) return Promise.resolve(replayedFailure(e.failure));
      const a = e.answer ?? { text: '', isError: false, bytes: 0 };
      return Promise.resolve({ ok: true, text: a.text, isError: a.isError, bytes: a.bytes });
    },
  };
}
