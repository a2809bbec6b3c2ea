/**
 * `slm call TOOL ['JSON_ARGS'] --root DIR [--settings JSON] [--json]`: one tool call in a fresh
 * engine session over DIR. Prints exactly the text the model would see plus one newline,
 * or with --json the result as {"ok","text","notes"}. Exit 0 ok, 1 refused/failed, 2 usage.
 */
import { parseArgs } from 'node:util';
import { createEngine } from '../../engine/create.ts';
import { nodeOutside } from '../outside.ts';
import { EXIT, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';
import { openRoot } from '../root.ts';
import { chooseSandbox, SANDBOX_OPTIONS, SANDBOX_USAGE } from '../sandbox-option.ts';
import { parseSettingsArg } from '../settings-arg.ts';

const USAGE = `slm call TOOL ['JSON_ARGS'] --root DIR [--settings '{"max_tool_chars":4000}'] [--json] [--unsandboxed-commands]
    Runs one tool call in a fresh session over DIR and prints the result text the model sees,
    followed by one newline (--json: one line {"ok","text","notes"}). Commands run in the OS sandbox (bubblewrap).
    ${SANDBOX_USAGE}
    JSON_ARGS is a JSON object (default {}). Exit 0 when ok, 1 when the tool refused or failed, 2 for usage errors.`;

interface CallRequest {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly root: string;
  readonly settings: string | undefined;
  readonly json: boolean;
  readonly unsandboxed: boolean;
}

function usage(message: string): UsageError {
  return new UsageError(`slm call: ${message}`, USAGE);
}

const OPTIONS = {
  root: { type: 'string' },
  settings: { type: 'string' },
  json: { type: 'boolean' },
  ...SANDBOX_OPTIONS,
} as const;

function parseOptions(argv: readonly string[]) {
  try {
    return parseArgs({ args: [...argv], options: OPTIONS, allowPositionals: true, strict: true });
  } catch (e) {
    // parseArgs names the unknown option or the missing value.
    throw usage((e as Error).message);
  }
}

function parseCommandLine(argv: readonly string[]): CallRequest {
  const parsed = parseOptions(argv);
  const [tool, argsText, ...extra] = parsed.positionals;
  if (tool === undefined) throw usage('name the tool to call, e.g. slm call ws_read \'{"path":"README.md"}\' --root .');
  if (extra.length)
    throw usage(`unexpected arguments after JSON_ARGS: ${extra.join(' ')} (quote the JSON as one argument)`);
  if (parsed.values.root === undefined) throw usage('--root DIR is required: the project directory the tool works in');
  return {
    tool,
    args: parseToolArgs(argsText ?? '{}'),
    root: parsed.values.root,
    settings: parsed.values.settings,
    json: parsed.values.json ?? false,
    unsandboxed: parsed.values['unsandboxed-commands'] ?? false,
  };
}

function parseToolArgs(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (e) {
    throw usage(
      `JSON_ARGS is not valid JSON (${(e as Error).message}): ${text}\nGive one JSON object, quoted for the shell, e.g. '{"path":"src/index.js"}'.`,
    );
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usage(`JSON_ARGS must be a JSON object such as '{"path":"src/index.js"}', not ${JSON.stringify(value)}.`);
  }
  return value as Record<string, unknown>;
}

async function runCall(argv: readonly string[], io: CliIO): Promise<number> {
  const req = parseCommandLine(argv);
  const settings = req.settings === undefined ? undefined : parseSettingsArg(req.settings);
  if (settings && !settings.ok) throw usage(settings.text);
  const root = await openRoot(req.root, await chooseSandbox('call', req.unsandboxed, io));
  if (!root.ok) throw usage(root.text);

  const engine = createEngine(root.ws, settings?.settings, {
    outside: nodeOutside({ sandbox: root.ws.sandbox, root: root.ws.root }),
    allTools: true,
  });
  const result = await engine.call(req.tool, req.args);
  const out = req.json ? JSON.stringify({ ok: result.ok, text: result.text, notes: result.notes }) : result.text;
  await writeOut(io.stdout, `${out}\n`);
  return result.ok ? EXIT.ok : EXIT.failed;
}

/** The `call` subcommand. */
export const callCommand: CommandEntry = {
  summary: 'runs one tool call on a directory and prints the result the model sees',
  usage: USAGE,
  run: runCall,
};
