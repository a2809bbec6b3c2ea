/**
 * A task suite opened on the Eval page, in the engine worker (it is untrusted input): a suite
 * folder picked or dropped (one `*.task.json` per task, as `slm eval import` writes it), or a
 * `.zip` of one, read here with fflate. The files pass the same checks as `slm eval --suite`
 * (eval/suite-files.ts); the suite is named after its folder or zip. Sizes are bounded before
 * anything is read or inflated: the zip's entries by the sizes its directory declares, and
 * every inflated entry again by what came out.
 */
import { unzipSync } from 'fflate';
import { isTaskFile, parseSuiteFiles, type SuiteFile } from '../eval/suite-files.ts';
import type { EvalTask } from '../eval/task.ts';

/** What a suite opened may hold. */
export const SUITE_LIMITS = Object.freeze({ files: 2000, fileBytes: 1024 * 1024, totalBytes: 64 * 1024 * 1024 });

export type SuiteOpen =
  | { readonly ok: true; readonly name: string; readonly tasks: readonly EvalTask[] }
  | { readonly ok: false; readonly text: string };

const n = (x: number) => x.toLocaleString('en-US');
const MB = (x: number) => `${Math.round(x / 1024 / 1024)} MB`;

/** The suite's name: the one folder all paths sit in, else the zip's name without `.zip`, else `suite`. */
function suiteName(paths: readonly string[], fallback: string): string {
  const tops = new Set(paths.map((p) => (p.includes('/') ? p.slice(0, p.indexOf('/')) : '')));
  const [top] = [...tops];
  return tops.size === 1 && top ? top : fallback;
}

function tooBig(what: string): SuiteOpen {
  return {
    ok: false,
    text: `${what}: a suite opened here holds at most ${n(SUITE_LIMITS.files)} files, ${MB(SUITE_LIMITS.fileBytes)} a task file and ${MB(SUITE_LIMITS.totalBytes)} in all. Open the folder of *.task.json files alone, or run it with slm eval --suite DIR.`,
  };
}

/** The task files of a zip, inflated within SUITE_LIMITS. */
function unzipTasks(name: string, bytes: Uint8Array): SuiteFile[] | SuiteOpen {
  let count = 0;
  let declared = 0;
  let over = false;
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(bytes, {
      filter: (f) => {
        if (!isTaskFile(f.name)) return false;
        count++;
        declared += f.originalSize;
        if (f.originalSize > SUITE_LIMITS.fileBytes) over = true;
        return !over && count <= SUITE_LIMITS.files && declared <= SUITE_LIMITS.totalBytes;
      },
    });
  } catch (e) {
    return { ok: false, text: `${name} cannot be read as a zip (${(e as Error).message}).` };
  }
  if (over || count > SUITE_LIMITS.files || declared > SUITE_LIMITS.totalBytes) return tooBig(name);
  const decoder = new TextDecoder();
  const files: SuiteFile[] = [];
  for (const [path, data] of Object.entries(entries)) {
    if (data.length > SUITE_LIMITS.fileBytes) return tooBig(`${name}: ${path}`);
    files.push({ path, text: decoder.decode(data) });
  }
  return files;
}

/** Opens a suite from the files picked or dropped: a folder's files (paths as picked), or one `.zip`. */
export async function openEvalSuite(
  picked: readonly { readonly path: string; readonly file: Blob }[],
): Promise<SuiteOpen> {
  const zip = picked.length === 1 && /\.zip$/i.test(picked[0]!.path) ? picked[0]! : undefined;
  let files: SuiteFile[];
  let paths = picked.map((f) => f.path);
  let fallback = 'suite';
  if (zip) {
    if (zip.file.size > SUITE_LIMITS.totalBytes) return tooBig(zip.path);
    const unzipped = unzipTasks(zip.path, new Uint8Array(await zip.file.arrayBuffer()));
    if (!Array.isArray(unzipped)) return unzipped;
    files = unzipped;
    paths = files.map((f) => f.path);
    fallback = zip.path.replace(/^.*\//, '').replace(/\.zip$/i, '');
  } else {
    const tasks = picked.filter((f) => isTaskFile(f.path));
    if (tasks.length > SUITE_LIMITS.files) return tooBig(`${tasks.length} task files`);
    const total = tasks.reduce((sum, f) => sum + f.file.size, 0);
    const big = tasks.find((f) => f.file.size > SUITE_LIMITS.fileBytes);
    if (big || total > SUITE_LIMITS.totalBytes) return tooBig(big?.path ?? `${n(total)} bytes of task files`);
    files = await Promise.all(tasks.map(async (f) => ({ path: f.path, text: await f.file.text() })));
    fallback = picked.length === 1 ? picked[0]!.path.replace(/\.task\.json$/, '') : fallback;
  }
  const name = suiteName(paths, fallback);
  const parsed = parseSuiteFiles(files);
  if (!parsed.ok)
    return {
      ok: false,
      text: `The suite ${name} cannot be opened: ${parsed.text}. A suite is a folder of *.task.json files, as slm eval import writes it (or a .zip of one).`,
    };
  return { ok: true, name, tasks: parsed.tasks };
}
