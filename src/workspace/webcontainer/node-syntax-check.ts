/**
 * An optional JavaScript syntax check by `node --check FILE`, for a workspace that has a real
 * Node (WebContainer, or the Node backend): Node judges the file as it would load it — module
 * or CommonJS by extension and the nearest package.json's "type", today's syntax. It has
 * `checkSyntax`'s signature, so it can stand in for it wherever a checker is taken.
 *
 * It needs no WebContainer import: it runs wherever the engine runs (the engine worker, over
 * the workspace proxy) and only calls `exec`. Node checks files, not texts, so it judges a
 * text only when that text is what the file holds now (the post-edit "after"); any other text
 * (an edit's "before"), every other file type, and a workspace where node cannot run are
 * judged by the in-process checker instead — never left without a verdict because of Node.
 */
import { cleanOutput } from '../../engine/exec-output.ts';
import { checkSyntax } from '../../engine/syntax/index.ts';
import {
  errorAt,
  okVerdict,
  skippedVerdict,
  type CheckOptions,
  type SyntaxVerdict,
} from '../../engine/syntax/verdict.ts';
import { decodeText } from '../../engine/text.ts';
import { singleCommand, type ExecResult, type Workspace } from '../../engine/workspace.ts';

/** A syntax checker: `checkSyntax` or something that can replace it. */
export type SyntaxCheck = typeof checkSyntax;

export const NODE_CHECKER = 'node --check';

/** The files Node judges. */
const JS_FILE = /\.(?:js|mjs|cjs)$/i;

export interface NodeSyntaxCheckOptions {
  /**
   * How long `node --check` may take (ms). Longer than the in-process budget: starting a Node
   * process in WebContainer is the checker's loading time, which budgets do not count.
   */
  readonly timeoutMs?: number;
  /** Judges what Node does not; `checkSyntax` by default. */
  readonly fallback?: SyntaxCheck;
}

/** A checker that asks `node --check` in `ws` about JavaScript files (see the file comment). */
export function createNodeSyntaxCheck(ws: Workspace, options: NodeSyntaxCheckOptions = {}): SyntaxCheck {
  const timeoutMs = options.timeoutMs ?? 10_000;
  const fallback = options.fallback ?? checkSyntax;
  return async (path: string, text: string, opts: CheckOptions = {}): Promise<SyntaxVerdict | null> => {
    if (!JS_FILE.test(path) || !(await holds(ws, path, text))) return fallback(path, text, opts);
    // `./` keeps a file named like an option (`-x.js`) a file.
    const run = await ws.exec(singleCommand(['node', '--check', `./${path}`]), {
      cwd: '',
      timeoutMs,
      maxOutputBytes: 16 * 1024,
    });
    return verdictOf(run, timeoutMs) ?? fallback(path, text, opts);
  };
}

async function holds(ws: Workspace, path: string, text: string): Promise<boolean> {
  try {
    return decodeText(await ws.readFile(path)) === text;
  } catch {
    return false;
  }
}

/**
 * Node's answer as a verdict; null when Node could not judge the file (no node, a crash, an
 * error that is not a syntax error), so the in-process checker does.
 *
 * Node reports a syntax error as `FILE:LINE`, the source line, a caret line under the
 * offending column, a blank line, then `SyntaxError: message`.
 */
export function verdictOf(run: ExecResult, timeoutMs: number): SyntaxVerdict | null {
  if (run.timedOut) return skippedVerdict(NODE_CHECKER, `node --check took longer than ${timeoutMs} ms; not judged`);
  if (run.exitCode === 0) return okVerdict(NODE_CHECKER);
  if (run.exitCode !== 1) return null;
  const lines = cleanOutput(run.output).split('\n');
  const messageAt = lines.findIndex((l) => /^SyntaxError: /.test(l));
  const where = lines.findIndex((l) => /:\d+$/.test(l));
  if (messageAt < 0 || where < 0 || where > messageAt) return null;
  const line = Number(/:(\d+)$/.exec(lines[where]!)![1]);
  const caret = lines[where + 2]?.indexOf('^') ?? -1;
  return errorAt(NODE_CHECKER, line, caret >= 0 ? caret + 1 : 1, lines[messageAt]!.slice('SyntaxError: '.length));
}
