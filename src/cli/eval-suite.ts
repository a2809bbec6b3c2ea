/**
 * The tasks `slm eval --suite` names: `builtin` (the bundled suite), or a folder holding one
 * `*.task.json` per task (the shape of src/eval/task.ts), each checked against the task schema.
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { taskSchema, type EvalTask } from '../eval/task.ts';
import { BUILTIN_TASKS } from '../eval/tasks/index.ts';

export type SuiteLoad =
  { readonly ok: true; readonly tasks: readonly EvalTask[] } | { readonly ok: false; readonly text: string };

export async function loadSuite(suite: string): Promise<SuiteLoad> {
  if (suite === 'builtin') return { ok: true, tasks: BUILTIN_TASKS };
  let names: string[];
  try {
    names = (await readdir(suite)).filter((n) => n.endsWith('.task.json')).sort();
  } catch (e) {
    return {
      ok: false,
      text: `--suite ${suite}: cannot read the folder (${(e as Error).message}); give builtin or a folder of *.task.json files`,
    };
  }
  if (!names.length) return { ok: false, text: `--suite ${suite}: the folder holds no *.task.json file` };
  const tasks: EvalTask[] = [];
  for (const name of names) {
    let value: unknown;
    try {
      value = JSON.parse(await readFile(join(suite, name), 'utf8'));
    } catch (e) {
      return { ok: false, text: `--suite ${suite}: ${name} is not JSON (${(e as Error).message})` };
    }
    const parsed = taskSchema.safeParse(value);
    if (!parsed.success)
      return { ok: false, text: `--suite ${suite}: ${name} is not a task:\n${z.prettifyError(parsed.error)}` };
    if (tasks.some((t) => t.id === parsed.data.id))
      return { ok: false, text: `--suite ${suite}: two tasks have the id ${JSON.stringify(parsed.data.id)}` };
    tasks.push(parsed.data);
  }
  return { ok: true, tasks };
}

/** The tasks a `--tasks a,b` list keeps, in the suite's order; an unknown id is a message listing the suite's ids. */
export function pickTasks(tasks: readonly EvalTask[], list: string | undefined): SuiteLoad {
  if (list === undefined) return { ok: true, tasks };
  const ids = list
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = ids.filter((id) => !tasks.some((t) => t.id === id));
  if (unknown.length || !ids.length)
    return {
      ok: false,
      text: `--tasks: unknown task ${unknown.map((u) => JSON.stringify(u)).join(', ') || '(none named)'}; the suite has ${tasks.map((t) => t.id).join(', ')}`,
    };
  return { ok: true, tasks: tasks.filter((t) => ids.includes(t.id)) };
}
