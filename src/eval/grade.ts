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
import type { Workspace } from '../engine/workspace.ts';
import { failedChecks } from './file-checks.ts';
import { GRADER_DIR, type EvalTask } from './task.ts';

export interface Grade {
  readonly passed: boolean;
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

/** Runs the task's grader over `finished` (the files a session left). */
export async function grade(
  task: EvalTask,
  finished: Readonly<Record<string, string>>,
  open: WorkspaceFactory,
): Promise<Grade> {
  const graderFiles = Object.fromEntries(Object.entries(task.grader).map(([p, text]) => [`${GRADER_DIR}/${p}`, text]));
  const ws = await seededWorkspace(open, { ...finished, ...graderFiles });
  const engine = createEngine(ws, GRADER_SETTINGS);
  const command = `node --test ${Object.keys(graderFiles).sort().join(' ')}`;
  const result = await engine.call('ws_shell', { command });
  const tally = parseTestTally(result.text, 'ws_shell');
  const exit = /\[exit code (\d+)\]\s*$/.exec(result.text)?.[1];
  const checks = failedChecks(task, finished);
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
