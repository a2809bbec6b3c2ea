/** `slm eval --suite DIR`: a folder of *.task.json files, each checked against the task schema, and `--tasks` picking from it. */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSuite, pickTasks } from '../../src/cli/eval-suite.ts';
import { BUILTIN_TASKS } from '../../src/eval/tasks/index.ts';
import { cleanup, tempRoot } from './cli-process.ts';

afterAll(cleanup);

async function folder(files: Record<string, string>): Promise<string> {
  const dir = join(await tempRoot(), 'suite');
  await mkdir(dir);
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text);
  return dir;
}
const [a, b] = BUILTIN_TASKS;

describe('loadSuite', () => {
  it('builtin is the bundled suite', async () => {
    expect(await loadSuite('builtin')).toEqual({ ok: true, tasks: BUILTIN_TASKS });
  });

  it('reads every *.task.json of a folder in name order, and nothing else', async () => {
    const dir = await folder({
      '2.task.json': JSON.stringify(b),
      '1.task.json': JSON.stringify(a),
      'notes.json': '{}',
    });
    expect(await loadSuite(dir)).toEqual({ ok: true, tasks: [a, b] });
  });

  it.each<[string, Record<string, string>, RegExp]>([
    ['a file that is not JSON', { 'x.task.json': '{' }, /x\.task\.json is not JSON/],
    [
      'a task without a grader',
      { 'x.task.json': JSON.stringify({ ...a, grader: {} }) },
      /x\.task\.json is not a task:[\s\S]*grader/,
    ],
    [
      'a path out of the project',
      { 'x.task.json': JSON.stringify({ ...a, files: { '../up.js': '' } }) },
      /Invalid key in record\s+→ at files\["\.\.\/up\.js"\]/,
    ],
    ['an unknown mechanism', { 'x.task.json': JSON.stringify({ ...a, mechanisms: ['luck'] }) }, /mechanisms/],
    [
      'two tasks with one id',
      { '1.task.json': JSON.stringify(a), '2.task.json': JSON.stringify(a) },
      /two tasks have the id/,
    ],
    ['no task at all', { 'readme.md': '' }, /holds no \*\.task\.json file/],
  ])('refuses %s, naming it', async (_what, files, message) => {
    const loaded = await loadSuite(await folder(files));
    expect(loaded.ok).toBe(false);
    if (!loaded.ok) expect(loaded.text).toMatch(message);
  });
});

describe('pickTasks', () => {
  it('keeps the named tasks in the suite order', () => {
    expect(pickTasks(BUILTIN_TASKS, `${b!.id}, ${a!.id}`)).toEqual({ ok: true, tasks: [a, b] });
    expect(pickTasks(BUILTIN_TASKS, undefined)).toEqual({ ok: true, tasks: BUILTIN_TASKS });
  });

  it('names an unknown id and the ids there are', () => {
    const picked = pickTasks(BUILTIN_TASKS, 'nope');
    expect(picked.ok).toBe(false);
    if (!picked.ok) expect(picked.text).toMatch(/unknown task "nope"; the suite has chunk-test-output, /);
  });
});
