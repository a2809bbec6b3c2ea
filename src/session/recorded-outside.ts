/**
 * The outside a replay sees: the web requests and MCP listings and calls a record kept, answered
 * from it, each once. Nothing reaches the network or a server; a replayed step that asks for
 * something the recorded one did not is told it is not in the record.
 */
import { replayMcp } from '../engine/mcp/mcp-log.ts';
import type { OutsideAccess } from '../engine/outside.ts';
import { replayTransport } from '../engine/web/web-log.ts';
import type { RecordedStep } from './record.ts';

/** Outside access answering from `steps`' records, with how many web requests and MCP exchanges it answered. */
export function recordedOutside(steps: readonly RecordedStep[]): OutsideAccess & {
  readonly webAnswered: () => number;
  readonly mcpAnswered: () => number;
} {
  const web = replayTransport(steps.flatMap((s) => s.web ?? []));
  const mcp = replayMcp(steps.flatMap((s) => s.mcp ?? []));
  return { web, mcp, webAnswered: web.answered, mcpAnswered: mcp.answered };
}
