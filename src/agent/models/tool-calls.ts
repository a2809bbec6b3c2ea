/**
 * The server's `tools` API, both ways: the loop's call schema (one `anyOf` branch per tool)
 * as OpenAI-style function tools, and the `tool_calls` a server parsed back as the canonical
 * call text the loop's parser reads (`{"tool": name, "args": {...}}`, one per call, so the
 * first runs and the rest are reported dropped, as for any reply with several calls).
 */

/** One tool call as the server returned it: the arguments as their JSON text. */
export interface ToolCallPart {
  readonly name: string;
  readonly arguments: string;
}

interface CallBranch {
  properties?: { tool?: { const?: unknown }; args?: object };
}

/** `{anyOf: [{properties: {tool: {const: name}, args}}]}` → `[{type: "function", function: {name, parameters: args}}]`. */
export function toolsOf(callSchema: object): { type: 'function'; function: { name: string; parameters: object } }[] {
  const branches = ((callSchema as { anyOf?: CallBranch[] }).anyOf ?? [callSchema as CallBranch]).filter(
    (b) => typeof b.properties?.tool?.const === 'string',
  );
  return branches.map((b) => ({
    type: 'function',
    function: { name: b.properties!.tool!.const as string, parameters: b.properties!.args ?? { type: 'object' } },
  }));
}

/**
 * The calls as the text the loop parses. Arguments that decode are written as JSON; arguments
 * that do not are written as they came, so the parser answers them with its retry message.
 */
export function callText(calls: readonly ToolCallPart[]): string {
  return calls
    .map(
      (c) =>
        `{"tool": ${JSON.stringify(c.name)}, "args": ${decodes(c.arguments) ? c.arguments.trim() || '{}' : c.arguments}}`,
    )
    .join('\n');
}

function decodes(text: string): boolean {
  if (!text.trim()) return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
