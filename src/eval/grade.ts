/**
 * Grading a finished session: the task's grader tests, which the model never saw, run in a
 * fresh workspace holding the files the session left plus the grader under GRADER_DIR. They run
 * through the engine's own ws_shell, so on a Node host they run where every command of the
 * workspace runs (the OS sandbox), never directly. Passed = the runner's tally has no failure,
 * at least one pass, the command exited 0, and every file check of the task holds.
 */
import { createEngine } from '../engine/create.ts';
import { parseTestTally } from '../engine/tally.ts';
import { encodeText } from '../engine/text.ts';
import type { ToolResult } from '../engine/result.ts';
import type { Workspace } from '../engine/workspace.ts';
import { failedChecks } from './file-checks.ts';
import { GRADER_DIR, type EvalTask } from './task.ts';

export interface Grade {
  readonly passed: boolean;
  /**
   * Set when the grader itself could not run — its command refused, not found or not
   * executable, or stopped at the grader's own time limit — so the run says nothing about the
   * model: why, in one line.
   */
  readonly infrastructure?: string;
  readonly tally: { readonly passed: number; readonly failed: number };
  /** The last lines of the grader's output, when it did not pass. */
  readonly excerpt?: string;
}

/** A fresh, empty workspace whose commands run where the host runs them (the sandbox). */
export type WorkspaceFactory = () => Promise<Workspace>;

/** Lines of a failing grader's output kept in the results. */
const EXCERPT_LINES = 30;

/** Grader output is read whole: it is never shown to the model. */
const GRADER_SETTINGS = { max_tool_chars: 1_000_000, shell_timeout: 120_000 } as const;

/** Writes `files` into a fresh workspace from `open`. */
export async function seededWorkspace(
  open: WorkspaceFactory,
  files: Readonly<Record<string, string>>,
): Promise<Workspace> {
  const ws = await open();
  for (const [path, text] of Object.entries(files)) await ws.writeFile(path, encodeText(text));
  return ws;
}

/** Exit codes a shell gives a command it could not start. */
const NOT_STARTED = new Set(['126', '127']);

/** Why the grader's own run cannot be held against the model, or undefined when it ran. */
export function infrastructureFailure(result: ToolResult, exit: string | undefined): string | undefined {
  if (result.notes.some((n) => n.detail === 'timeout'))
    return `the grader did not finish within its ${GRADER_SETTINGS.shell_timeout / 1000} s limit`;
  if (exit !== undefined && NOT_STARTED.has(exit)) return `the grader's command could not start (exit code ${exit})`;
  if (!result.ok && exit === undefined) return `the grader's command did not run: ${result.text.split('\n')[0]}`;
  return undefined;
}

/** The grader's command: the task's own, or node's runner over the grader files. */
export function graderCommand(task: EvalTask, graderPaths: readonly string[]): string {
  return task.test_command ?? `node --test ${[...graderPaths].sort().join(' ')}`;
}

/** Runs the task's grader over `finished` (the files a session left). */
export async function grade(
  task: EvalTask,
  finished: Readonly<Record<string, string>>,
  open: WorkspaceFactory,
): Promise<Grade> {
  const dir = task.grader_dir ?? GRADER_DIR;
  const graderFiles = Object.fromEntries(
    Object.entries(task.grader).map(([p, text]) => [dir ? `${dir}/${p}` : p, text]),
  );
  const ws = await seededWorkspace(open, { ...finished, ...graderFiles });
  const engine = createEngine(ws, GRADER_SETTINGS);
  const result = await engine.call('ws_shell', { command: graderCommand(task, Object.keys(graderFiles)) });
  const tally = parseTestTally(result.text, 'ws_shell');
  const exit = /\[exit code (\d+)\]\s*$/.exec(result.text)?.[1];
  const checks = failedChecks(task, finished);
  const infrastructure = infrastructureFailure(result, exit);
  if (infrastructure !== undefined)
    return {
      passed: false,
      infrastructure,
      tally: { passed: 0, failed: 0 },
      excerpt: [infrastructure, ...result.text.split('\n').slice(-EXCERPT_LINES)].join('\n'),
    };
  const testsPassed = tally !== null && tally.failed === 0 && tally.passed > 0 && exit === '0';
  const passed = testsPassed && checks.length === 0;
  const counts = { passed: tally?.passed ?? 0, failed: tally?.failed ?? 0 };
  if (passed) return { passed, tally: counts };
  const excerpt = [
    ...checks.map((c) => `file check failed: ${c}`),
    ...(testsPassed ? [] : result.text.split('\n').slice(-EXCERPT_LINES)),
  ].join('\n');
  return { passed, tally: counts, excerpt };
}
