/**
 * One exercise in the Exercism layout as an eval task. An exercise folder holds
 * `.meta/config.json` (`files.solution`, `files.test`, `files.example`), the instructions in
 * `.docs/instructions.md` (plus `.docs/instructions.append.md` when present), the stub the
 * solver starts from, the tests, and the example solution. The task starts from the stub (and
 * package.json where there is one), states the instructions, shows the tests with every skipped
 * test turned on, grades with the same tests written over whatever the model left at their
 * paths, and keeps the example as the reference solution. No DOM, no Node builtins: the CLI
 * reads the folder, the Eval page reads a dropped one.
 */
import { z } from 'zod';
import { MAX_STATEMENT, TASK_LANGUAGES, taskSchema, type EvalTask } from './task.ts';

export type TaskLanguage = (typeof TASK_LANGUAGES)[number];

/** An exercise's files, path inside its folder → text. */
export interface ExerciseFolder {
  readonly slug: string;
  readonly files: ReadonlyMap<string, string>;
}

export type ImportedExercise =
  | { readonly ok: true; readonly task: EvalTask }
  | { readonly ok: false; readonly slug: string; readonly why: string; readonly otherLanguage?: true };

const configSchema = z.object({
  files: z.object({
    solution: z.array(z.string().min(1)).min(1),
    test: z.array(z.string().min(1)).min(1),
    example: z.array(z.string().min(1)).min(1),
  }),
  blurb: z.string().optional(),
});

const LANGUAGE_OF: Readonly<Record<string, TaskLanguage>> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  ts: 'typescript',
  py: 'python',
};

/** The language of a source path by its extension, if it is one a task can be in. */
export function languageOf(path: string): TaskLanguage | undefined {
  return LANGUAGE_OF[/\.([a-z]+)$/.exec(path)?.[1] ?? ''];
}

/**
 * The tests with every skip turned on: Jest's `xtest`/`xit`/`xdescribe` and `.skip`, and
 * Python's `@unittest.skip…` / `@skip…` decorator lines (a benchmark marks all but the first
 * test skipped, for a person working through them one at a time).
 */
export function unskip(text: string, language: TaskLanguage): string {
  if (language === 'python') return text.replace(/^[ \t]*@(?:unittest\.)?skip(?:If|Unless)?\b.*(?:\r?\n|$)/gm, '');
  return text
    .replace(/\bx(test|it|describe)(\s*[(.])/g, '$1$2')
    .replace(/\b(test|it|describe)\.skip(\s*[(.])/g, '$1$2');
}

/** The grader's command for the tests, from the project root. */
function testCommand(language: TaskLanguage, tests: readonly string[]): string {
  if (language === 'python')
    return `python3 -m unittest ${tests.map((t) => t.replace(/\.py$/, '').replaceAll('/', '.')).join(' ')}`;
  return `jest ${tests.join(' ')}`;
}

const title = (slug: string): string => slug.replace(/[-_]+/g, ' ').replace(/^./, (c) => c.toUpperCase());

/** A task id from an exercise's folder name: lowercase letters, digits and dashes. */
export function taskId(slug: string): string {
  return slug
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 64);
}

/** Converts one exercise; a folder that cannot be read as one says why. */
export function exerciseTask(ex: ExerciseFolder, only?: TaskLanguage): ImportedExercise {
  const fail = (why: string): ImportedExercise => ({ ok: false, slug: ex.slug, why });
  const rawConfig = ex.files.get('.meta/config.json');
  if (rawConfig === undefined) return fail('no .meta/config.json');
  let config;
  try {
    config = configSchema.parse(JSON.parse(rawConfig));
  } catch (e) {
    return fail(
      `.meta/config.json does not list files.solution, files.test and files.example (${(e as Error).message.split('\n')[0]})`,
    );
  }
  const { solution, test, example } = config.files;
  const language = languageOf(solution[0]!);
  if (!language)
    return fail(`the solution ${solution[0]} is in a language tasks cannot be in (${TASK_LANGUAGES.join(', ')})`);
  if (only && language !== only)
    return { ok: false, slug: ex.slug, why: `in ${language}, not ${only}`, otherLanguage: true };
  const missing = [...solution, ...test, ...example].filter((p) => !ex.files.has(p));
  if (missing.length) return fail(`listed in .meta/config.json but not in the folder: ${missing.join(', ')}`);
  if (example.length !== solution.length)
    return fail(
      `${example.length} example file(s) for ${solution.length} solution file(s): cannot tell which solves which`,
    );
  const instructions = ex.files.get('.docs/instructions.md');
  if (instructions === undefined) return fail('no .docs/instructions.md');
  const append = ex.files.get('.docs/instructions.append.md');
  const how = `\n\nThe tests are in ${test.join(', ')}; make them pass by changing ${solution.join(', ')}.`;
  const statement = [instructions.trim(), append?.trim()].filter(Boolean).join('\n\n') + how;
  if (statement.length > MAX_STATEMENT)
    return fail(`the instructions are ${statement.length} characters; a task statement holds at most ${MAX_STATEMENT}`);
  const tests = Object.fromEntries(test.map((p) => [p, unskip(ex.files.get(p)!, language)]));
  const pkg = ex.files.get('package.json');
  const files: Record<string, string> = {
    ...Object.fromEntries(solution.map((p) => [p, ex.files.get(p)!])),
    ...tests,
    ...(pkg !== undefined && { 'package.json': pkg }),
  };
  const candidate = {
    id: taskId(ex.slug),
    title: title(ex.slug),
    statement,
    language,
    test_command: testCommand(language, test),
    grader_dir: '',
    files,
    // The grader's copies of the tests (and package.json) are written over the model's.
    grader: { ...tests, ...(pkg !== undefined && { 'package.json': pkg }) },
    solution: Object.fromEntries(solution.map((p, i) => [p, ex.files.get(example[i]!)!])),
  };
  const parsed = taskSchema.safeParse(candidate);
  if (!parsed.success) return fail(`not a valid task: ${z.prettifyError(parsed.error).split('\n').join(' ')}`);
  return { ok: true, task: parsed.data };
}
