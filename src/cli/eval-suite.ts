/**
 * The tasks `slm eval --suite` names: `builtin` (the bundled suite), or a folder holding one
 * `*.task.json` per task (the shape of src/eval/task.ts), each checked against the task schema
 * (suite-files.ts, as the Eval page checks a suite it opens).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseSuiteFiles, type SuiteFile, type SuiteParse } from '../eval/suite-files.ts';
import type { EvalTask } from '../eval/task.ts';
import { BUILTIN_TASKS } from '../eval/tasks/index.ts';

export type SuiteLoad = SuiteParse;

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
  const files: SuiteFile[] = [];
  for (const name of names) files.push({ path: name, text: await readFile(join(suite, name), 'utf8') });
  const parsed = parseSuiteFiles(files);
  return parsed.ok ? parsed : { ok: false, text: `--suite ${suite}: ${parsed.text}` };
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
