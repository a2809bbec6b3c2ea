/**
 * `slm eval import exercism DIR --out SUITE [--language L]`: reads a checkout of an Exercism
 * track, or of a benchmark in the same layout (one folder per exercise under
 * `exercises/practice/`, or directly under DIR), and writes one SUITE/ID.task.json per exercise
 * (src/eval/exercism.ts), ready for `slm eval --suite SUITE`. It prints each exercise imported
 * and each it could not, with why.
 */
import { mkdir, readdir, readFile, stat, writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { parseArgs } from 'node:util';
import { exerciseTask, type ExerciseFolder, type TaskLanguage } from '../../eval/exercism.ts';
import { TASK_LANGUAGES } from '../../eval/task.ts';
import { EXIT, UsageError, writeOut, type CliIO } from '../command.ts';

const USAGE = `slm eval import exercism DIR --out SUITE [--language ${TASK_LANGUAGES.join('|')}]
    Writes SUITE/ID.task.json for every exercise under DIR/exercises/practice (or DIR): the stub to start from, the
    instructions as the statement, the tests (skips turned on) shown and kept as the hidden grader, the example as the
    reference solution. --language keeps one language. Exit 0 when every exercise was imported, 1 when some could not
    be (each named with why), 2 for usage errors.`;

/** Bounds on what one exercise folder may hold. */
const MAX_FILES = 200;
const MAX_FILE_BYTES = 200_000;
const SKIPPED_DIRS = new Set(['node_modules', '.git', '__pycache__', '.pytest_cache']);

function usage(message: string): UsageError {
  return new UsageError(`slm eval import: ${message}`, USAGE);
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

/** Every text file under `root` (bounded), path relative to it → text. */
async function readExercise(root: string, slug: string): Promise<ExerciseFolder | string> {
  const files = new Map<string, string>();
  const walk = async (dir: string): Promise<string | undefined> => {
    for (const entry of await readdir(dir, { withFileTypes: true })) {
      const full = join(dir, entry.name);
      if (entry.isDirectory()) {
        if (SKIPPED_DIRS.has(entry.name)) continue;
        const failed = await walk(full);
        if (failed) return failed;
      } else if (entry.isFile()) {
        if (files.size >= MAX_FILES) return `more than ${MAX_FILES} files`;
        if ((await stat(full)).size > MAX_FILE_BYTES) continue; // not a source file a task carries
        files.set(relative(root, full).split('\\').join('/'), await readFile(full, 'utf8'));
      }
    }
    return undefined;
  };
  const failed = await walk(root);
  return failed ?? { slug, files };
}

/** Runs `slm eval import` with the arguments after `import`. */
export async function runImport(argv: readonly string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: { out: { type: 'string' }, language: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
  } catch (e) {
    throw usage((e as Error).message);
  }
  const [format, dir, ...extra] = parsed.positionals;
  if (format !== 'exercism')
    throw usage(`the format to import from comes first: exercism, not ${JSON.stringify(format ?? '')}`);
  if (dir === undefined || extra.length) throw usage('give one folder: the checkout to import from');
  const out = parsed.values.out;
  if (out === undefined) throw usage('--out SUITE is required: the folder the *.task.json files go to');
  const language = parsed.values.language as TaskLanguage | undefined;
  if (language !== undefined && !TASK_LANGUAGES.includes(language))
    throw usage(`--language must be one of ${TASK_LANGUAGES.join(', ')}, not ${JSON.stringify(language)}`);
  const practice = join(dir, 'exercises', 'practice');
  const base = (await isDir(practice)) ? practice : dir;
  let slugs: string[];
  try {
    slugs = (await readdir(base, { withFileTypes: true }))
      .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch (e) {
    throw usage(`cannot read ${base} (${(e as Error).message}); give a checkout with exercises/practice/ inside`);
  }
  if (!slugs.length) throw usage(`${base} holds no exercise folders`);
  await mkdir(out, { recursive: true });
  const imported: string[] = [];
  const failed: string[] = [];
  let otherLanguage = 0;
  const ids = new Set<string>();
  for (const slug of slugs) {
    const folder = await readExercise(join(base, slug), slug);
    const result =
      typeof folder === 'string' ? { ok: false as const, slug, why: folder } : exerciseTask(folder, language);
    if (result.ok && ids.has(result.task.id)) {
      failed.push(`${slug}: its id ${result.task.id} is taken by another exercise`);
    } else if (result.ok) {
      ids.add(result.task.id);
      await writeFile(join(out, `${result.task.id}.task.json`), `${JSON.stringify(result.task, null, 2)}\n`);
      imported.push(`${result.task.id} (${result.task.language})`);
    } else if ('otherLanguage' in result) {
      otherLanguage++;
    } else {
      failed.push(`${slug}: ${result.why}`);
    }
  }
  const lines = [
    `imported ${imported.length} exercise(s) into ${out}${imported.length ? `: ${imported.join(', ')}` : ''}`,
    ...(otherLanguage ? [`left out ${otherLanguage} exercise(s) in other languages than ${language}`] : []),
    ...failed.map((f) => `could not import ${f}`),
  ];
  await writeOut(io.stdout, `${lines.join('\n')}\n`);
  if (imported.length) await writeOut(io.stdout, `run them with: slm eval --suite ${out} --model SPEC --out DIR\n`);
  return failed.length ? EXIT.failed : EXIT.ok;
}
