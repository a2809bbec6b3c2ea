/**
 * `slm batch`: reads `{"root","tool","args","settings"?}` JSON lines on stdin and answers each
 * with one `{"ok","text","notes"}` line, in order, as soon as it has run. Lines naming the same
 * root share one engine session, so read-before-write and the loop guard carry over between
 * them; a malformed line gets an `ok: false` answer and the batch goes on.
 */
import { createInterface } from 'node:readline';
import { createEngine } from '../../engine/create.ts';
import { nodeOutside } from '../outside.ts';
import type { Engine } from '../../engine/engine.ts';
import type { Note } from '../../engine/result.ts';
import { EXIT, UsageError, writeOut, type CliIO, type CommandEntry } from '../command.ts';
import { parseBatchLine, type BatchRequest } from '../batch-line.ts';
import { UNSANDBOXED_FLAG, type CommandSandbox } from '../../workspace/node/host-sandbox.ts';
import { openRoot } from '../root.ts';
import { chooseSandbox, SANDBOX_USAGE } from '../sandbox-option.ts';

const USAGE = `slm batch [--unsandboxed-commands]  < calls.jsonl
    Reads one JSON object per line: {"root": DIR, "tool": NAME, "args": {...}, "settings"?: {...}}.
    Prints one line {"ok","text","notes"} per input line, in order. Lines with the same root
    share one engine session, whose settings are fixed by that root's first line.
    Commands run in the OS sandbox (bubblewrap). ${SANDBOX_USAGE}`;

interface BatchAnswer {
  readonly ok: boolean;
  readonly text: string;
  readonly notes: readonly Note[];
}

const failed = (text: string): BatchAnswer => ({ ok: false, text, notes: [] });

/** Engine sessions by physical root path, so `./p` and `p` are one session. */
class Sessions {
  private readonly byRoot = new Map<string, Engine>();

  constructor(private readonly sandbox: CommandSandbox) {}

  /** The session for the line's root, created on first use; a string says why the line cannot run. */
  async engineFor(req: BatchRequest): Promise<Engine | string> {
    const opened = await openRoot(req.root, this.sandbox);
    if (!opened.ok) return `batch line not run — ${opened.text}`;
    const existing = this.byRoot.get(opened.ws.root);
    if (!existing) {
      const engine = createEngine(opened.ws, req.settings, {
        outside: nodeOutside({ sandbox: opened.ws.sandbox, root: opened.ws.root }),
        allTools: true,
      });
      this.byRoot.set(opened.ws.root, engine);
      return engine;
    }
    if (req.settings && !sameSettings(existing, req.settings)) {
      return (
        `batch line not run — its settings differ from those the session for ${req.root} started with. ` +
        `One root is one engine session and its first line fixes the settings: repeat them, leave "settings" out, ` +
        `or run this call in another batch.`
      );
    }
    return existing;
  }
}

function sameSettings(engine: Engine, patch: BatchRequest['settings']): boolean {
  return JSON.stringify({ ...engine.settings, ...patch }) === JSON.stringify(engine.settings);
}

async function answer(line: string, sessions: Sessions): Promise<BatchAnswer> {
  const parsed = parseBatchLine(line);
  if (!parsed.ok) return failed(parsed.text);
  const engine = await sessions.engineFor(parsed.req);
  if (typeof engine === 'string') return failed(engine);
  try {
    const result = await engine.call(parsed.req.tool, parsed.req.args);
    return { ok: result.ok, text: result.text, notes: result.notes };
  } catch (e) {
    // Engine.call answers bad input itself; a throw is a bug, and it must not end the batch.
    return failed(
      `internal error while running ${parsed.req.tool} (${e instanceof Error ? e.message : String(e)}); the remaining lines still run.`,
    );
  }
}

async function runBatch(argv: readonly string[], io: CliIO): Promise<number> {
  const unsandboxed = argv.length === 1 && argv[0] === UNSANDBOXED_FLAG;
  if (argv.length && !unsandboxed)
    throw new UsageError(
      `slm batch: takes no arguments but ${UNSANDBOXED_FLAG} (got ${argv.join(' ')}); the calls come on stdin`,
      USAGE,
    );
  const sessions = new Sessions(await chooseSandbox('batch', unsandboxed, io));
  // Line by line: each answer is written before the next line is read, so a caller can converse.
  const lines = createInterface({ input: io.stdin, crlfDelay: Infinity });
  for await (const line of lines) {
    if (line.trim() === '') continue;
    await writeOut(io.stdout, `${JSON.stringify(await answer(line, sessions))}\n`);
  }
  return EXIT.ok;
}

/** The `batch` subcommand. */
export const batchCommand: CommandEntry = {
  summary: 'runs tool calls read as JSON lines on stdin, one answer line each',
  usage: USAGE,
  run: runBatch,
};
