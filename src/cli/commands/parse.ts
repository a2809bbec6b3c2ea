/**
 * `slm parse`: reads `{"raw": "...", "tools"?: ["ws_read", ...]}` JSON lines on stdin and answers
 * each, in order, with one line `{"call": {"tool", "args"} | null, "format", "error"}` from the
 * parser the loop uses (agent/parse.ts): the call, the format it was written in, or why there is
 * no call (the retry message the model would get). `tools` defaults to the coding tools; the
 * text values of an XML-style call are read by the coding tools' argument types. A line
 * that is not such an object is answered with call null and an error saying so, and the run goes
 * on. This output is a public contract that other checks run against.
 */
import { createInterface } from 'node:readline';
import { argsJsonSchema, toolSpecs } from '../../agent/call-schema.ts';
import { parseCall } from '../../agent/parse.ts';
import { CODING_TOOLS } from '../../engine/tools/index.ts';
import { EXIT, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';

const USAGE = `slm parse  < outputs.jsonl
    Reads one JSON object per line: {"raw": "<a model's output>", "tools"?: ["ws_read", ...]}.
    Prints one line {"call": {"tool", "args"} | null, "format": "<format read>" | null,
    "error": "<why no call>" | null} per input line, in order, with the loop's own parser.
    "tools" (the tool names a bare {"name": ...} may use) defaults to the coding tools.`;

export interface ParseAnswer {
  readonly call: { readonly tool: string; readonly args: unknown } | null;
  readonly format: string | null;
  readonly error: string | null;
}

const DEFAULT_TOOLS = CODING_TOOLS.map((t) => t.name);
/** The coding tools' argument schemas, by which the XML-style formats' text values are read, as the loop reads them. */
const SCHEMAS = new Map(toolSpecs(CODING_TOOLS).map((t) => [t.name, argsJsonSchema(t.schema)]));
const EXAMPLE = '{"raw": "{\\"tool\\": \\"ws_read\\", \\"args\\": {\\"path\\": \\"a.js\\"}}"}';

function badLine(reason: string): ParseAnswer {
  return { call: null, format: null, error: `${reason} Send one object per line: ${EXAMPLE}.` };
}

/** Answers one input line. */
export function answerParseLine(line: string): ParseAnswer {
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return badLine(`input line is not valid JSON: ${JSON.stringify(line.slice(0, 80))}.`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    return badLine(`input line is ${JSON.stringify(parsed)?.slice(0, 80)}, not a JSON object.`);
  }
  const { raw, tools } = parsed as Record<string, unknown>;
  if (typeof raw !== 'string') {
    return badLine(
      `input line has no "raw" string${raw === undefined ? '' : ` (its raw is a ${raw === null ? 'null' : typeof raw})`}.`,
    );
  }
  if (tools !== undefined && !(Array.isArray(tools) && tools.every((t) => typeof t === 'string'))) {
    return badLine('its "tools" is not a list of tool names.');
  }
  const out = parseCall(raw, { tools: (tools as string[] | undefined) ?? DEFAULT_TOOLS, schemas: SCHEMAS });
  if (!out.ok) return { call: null, format: null, error: out.message };
  return { call: { tool: out.call.tool, args: out.call.args }, format: out.format, error: null };
}

/** Answers every line of `stdin` on `stdout`; resolves to 0 once the input ends. */
export async function parseLinesCommand(stdin: NodeJS.ReadableStream, stdout: NodeJS.WritableStream): Promise<number> {
  const lines = createInterface({ input: stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    await writeOut(stdout, `${JSON.stringify(answerParseLine(line))}\n`);
  }
  return EXIT.ok;
}

/** The `parse` subcommand. */
export const parseEntry: CommandEntry = {
  summary: "reads models' outputs as JSON lines and prints the call the loop would parse",
  usage: USAGE,
  run: async (argv: readonly string[], io: CliIO) => {
    if (argv.length)
      throw new UsageError(`slm parse: takes no arguments (got ${argv.join(' ')}); the outputs come on stdin`, USAGE);
    return parseLinesCommand(io.stdin, io.stdout);
  },
};
