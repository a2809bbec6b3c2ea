/**
 * A suite folder's tasks from its files, wherever they were read (the CLI reads a folder on
 * disk, the Eval page a picked or dropped folder or a .zip): one `*.task.json` per task, each
 * JSON checked against the task schema, ids unique, in path order. Other files are not
 * looked at. No DOM, no Node builtins.
 */
import { z } from 'zod';
import { taskSchema, type EvalTask } from './task.ts';

/** One file of a suite: its path inside the suite folder and its text. */
export interface SuiteFile {
  readonly path: string;
  readonly text: string;
}

export type SuiteParse =
  { readonly ok: true; readonly tasks: readonly EvalTask[] } | { readonly ok: false; readonly text: string };

/** True for a task file's name. */
export const isTaskFile = (path: string): boolean => /(?:^|\/)[^/]+\.task\.json$/.test(path);

/** The tasks of a suite's files; what is wrong is said naming the file, for the caller to prefix with where the suite is. */
export function parseSuiteFiles(files: readonly SuiteFile[]): SuiteParse {
  const taskFiles = files.filter((f) => isTaskFile(f.path)).sort((a, b) => (a.path < b.path ? -1 : 1));
  if (!taskFiles.length) return { ok: false, text: 'the folder holds no *.task.json file' };
  const tasks: EvalTask[] = [];
  for (const { path, text } of taskFiles) {
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (e) {
      return { ok: false, text: `${path} is not JSON (${(e as Error).message})` };
    }
    const parsed = taskSchema.safeParse(value);
    if (!parsed.success) return { ok: false, text: `${path} is not a task:\n${z.prettifyError(parsed.error)}` };
    if (tasks.some((t) => t.id === parsed.data.id))
      return { ok: false, text: `two tasks have the id ${JSON.stringify(parsed.data.id)}` };
    tasks.push(parsed.data);
  }
  return { ok: true, tasks };
}
