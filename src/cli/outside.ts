/**
 * What the CLI lets the specialist tools reach: the web through the Node transport (every
 * address checked before it is reached) and MCP servers through the SDK's clients.
 */
import type { OutsideAccess } from '../engine/outside.ts';
import { nodeWebTransport } from '../platform/node-web.ts';
import { nodeMcp, type StdioPlace } from './mcp-node.ts';
import { nodeModels } from './models-node.ts';

/**
 * The Node host's outside access, for `slm call`, `slm batch`, `slm run` and `slm eval`;
 * `place`: where stdio MCP servers run (the workspace and its command sandbox); `endpoint`: the
 * OpenAI-compatible endpoint the run uses, whose own model list find_models adds.
 */
export function nodeOutside(place?: StdioPlace, endpoint?: string): OutsideAccess {
  return { web: nodeWebTransport, mcp: nodeMcp(place), models: nodeModels(endpoint) };
}
