/**
 * The `mcp_servers` setting as given on the command line: a list of `{"name", "url"}` (Streamable
 * HTTP) or `{"name", "command", "args"}` (stdio) objects, each with `"read_only": true|false`.
 * A wrong entry is named with what it needs.
 */

const SHAPE =
  'mcp_servers must be a list of {"name", "url", "read_only"} (Streamable HTTP) or {"name", "command", "args", "read_only"} (stdio) objects';

const KEYS = new Set(['name', 'url', 'command', 'args', 'read_only']);

function entryProblem(e: unknown, i: number, seen: Set<string>): string | undefined {
  const at = `mcp_servers[${i}]`;
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return `${at} is ${JSON.stringify(e)}, not an object`;
  const o = e as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.has(k));
  if (unknown.length) return `${at} has unknown key(s) ${unknown.map((k) => JSON.stringify(k)).join(', ')}`;
  if (typeof o.name !== 'string' || !/^[A-Za-z0-9_.-]{1,64}$/.test(o.name))
    return `${at}.name must be 1–64 letters, digits, "_", "-" or "."`;
  if (seen.has(o.name)) return `${at}.name ${JSON.stringify(o.name)} is used twice`;
  seen.add(o.name);
  if (typeof o.read_only !== 'boolean')
    return `${at}.read_only must be true or false (false: every call is approved first)`;
  const hasUrl = o.url !== undefined;
  const hasCommand = o.command !== undefined;
  if (hasUrl === hasCommand) return `${at} needs exactly one of "url" (Streamable HTTP) or "command" (stdio)`;
  if (hasUrl && (typeof o.url !== 'string' || !/^https?:\/\//i.test(o.url))) return `${at}.url must be an http(s) URL`;
  if (hasCommand && (typeof o.command !== 'string' || o.command === '')) return `${at}.command must be a program name`;
  if (o.args !== undefined && (!Array.isArray(o.args) || !o.args.every((a) => typeof a === 'string')))
    return `${at}.args must be a list of strings`;
  if (hasUrl && o.args !== undefined) return `${at}.args goes with "command", not "url"`;
  return undefined;
}

/** The problem with `got` as the mcp_servers setting, or undefined when it is well formed. */
export function checkMcpServers(got: unknown): string | undefined {
  if (!Array.isArray(got)) return `${SHAPE}, not ${JSON.stringify(got)}`;
  if (got.length > 32) return 'mcp_servers lists at most 32 servers';
  const seen = new Set<string>();
  for (let i = 0; i < got.length; i++) {
    const problem = entryProblem(got[i], i, seen);
    if (problem) return problem;
  }
  return undefined;
}
