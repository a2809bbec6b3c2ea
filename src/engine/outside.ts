/**
 * What a host lets the specialist tools reach outside the workspace: the web (one HTTP GET at a
 * time through its transport) and Model Context Protocol servers. The engine owns these
 * interfaces; the CLI gives Node implementations, a replay gives ones that answer from the
 * record. A host that gives none leaves the tools answering that they cannot reach anything here.
 */
import type { WebTransport } from './web/transport.ts';
import type { McpAccess } from './mcp/access.ts';
import type { ModelsAccess } from './models-listing.ts';

export interface OutsideAccess {
  readonly web?: WebTransport;
  readonly mcp?: McpAccess;
  /** The models this host can run, for find_models. */
  readonly models?: ModelsAccess;
}

/** The note every result carrying outside text has, so the inspector can band it. */
export function outsideNote(detail: 'web' | 'mcp', text: string) {
  return { kind: 'outside' as const, text, detail };
}
