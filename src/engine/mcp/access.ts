/**
 * The host's side of mcp_call: it connects to the configured Model Context Protocol servers
 * (Streamable HTTP, or stdio where the host can start a process) and calls one tool. The engine
 * owns this interface and what surrounds a call (the server list, the gate on servers not marked
 * read-only, the cap, the outside mark); the host owns the connection and its bounds.
 */
import type { McpServerConfig } from '../settings.ts';

/** One tool a server lists. */
export interface McpToolInfo {
  readonly name: string;
  readonly description: string;
  /** Its arguments' JSON schema as the server gave it (an object schema: `properties`, `required`). */
  readonly inputSchema?: Record<string, unknown>;
}

/** Why a server gave no usable answer. */
export type McpFailureCode = 'timeout' | 'too-large' | 'malformed' | 'unreachable' | 'refused';

export interface McpFailure {
  readonly ok: false;
  readonly code: McpFailureCode;
  /** What happened, in words. */
  readonly text: string;
}

export type McpToolsOutcome = { readonly ok: true; readonly tools: readonly McpToolInfo[] } | McpFailure;

/** A tool's answer: its text parts joined; `isError` when the server marked it as a failed call. */
export type McpCallOutcome =
  { readonly ok: true; readonly text: string; readonly isError: boolean; readonly bytes: number } | McpFailure;

export interface McpCallRequest {
  readonly server: McpServerConfig;
  readonly tool: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  /** Abort at the call's deadline. */
  readonly signal: AbortSignal;
  /** An answer larger than this many bytes is refused (`too-large`). */
  readonly maxBytes: number;
}

export interface McpAccess {
  /** The tools `server` offers. Never throws. */
  listTools(server: McpServerConfig, signal: AbortSignal): Promise<McpToolsOutcome>;
  /** Calls one tool. Never throws. */
  callTool(req: McpCallRequest): Promise<McpCallOutcome>;
}
