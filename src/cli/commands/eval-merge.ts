/**
 * `slm eval merge DIR… --out DIR`: joins the output folders of an eval's shards (`slm eval
 * --shard I/N`) into one: their session files copied under DIR/sessions, one results.json with
 * the summary recomputed, results.md and report.html. Shards of different evals, or that hold
 * the same run twice, are refused (exit 2, nothing written); missing runs are named on stderr
 * and the merged results say they are incomplete (exit 1).
 */
import { copyFile, mkdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { mergeResults } from '../../eval/merge.ts';
import { markdownReport } from '../../eval/report-md.ts';
import { htmlReport } from '../../eval/report-html.ts';
import { checkResults, type EvalResults } from '../../eval/results-schema.ts';
import { EXIT, UsageError, writeOut, type CliIO } from '../command.ts';

const USAGE = `slm eval merge DIR… --out DIR
    Joins the output folders of slm eval --shard runs into DIR: the sessions, results.json, results.md and report.html.
    Exit 0 when every planned run is there, 1 when some are missing (named on stderr), 2 when the folders cannot be merged.`;

function usage(message: string): UsageError {
  return new UsageError(`slm eval merge: ${message}`, USAGE);
}

async function readShard(dir: string): Promise<EvalResults> {
  let value: unknown;
  try {
    value = JSON.parse(await readFile(join(dir, 'results.json'), 'utf8'));
  } catch (e) {
    throw usage(`${dir}: cannot read results.json (${(e as Error).message}); give the --out folder of an slm eval run`);
  }
  const checked = checkResults(value);
  if (!checked.ok) throw usage(`${dir}/results.json: ${checked.text}`);
  return checked.results;
}

/** Runs `slm eval merge` with the arguments after `merge`. */
export async function runMerge(argv: readonly string[], io: CliIO): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({ args: [...argv], options: { out: { type: 'string' } }, allowPositionals: true, strict: true });
  } catch (e) {
    throw usage((e as Error).message);
  }
  const out = parsed.values.out;
  const dirs = parsed.positionals;
  if (out === undefined) throw usage('--out DIR is required: the folder the merged results go to');
  if (!dirs.length) throw usage('name the shard folders to merge');
  if (dirs.includes(out)) throw usage(`--out ${out} is one of the shards: merge into a new folder`);
  const parts = await Promise.all(dirs.map(readShard));
  const merged = mergeResults(parts, dirs);
  if (!merged.ok) throw usage(merged.text);
  await mkdir(join(out, 'sessions'), { recursive: true });
  for (const [i, part] of parts.entries())
    for (const run of part.runs)
      for (const file of [run.session, ...(run.retrySession !== undefined ? [run.retrySession] : [])]) {
        const to = join(out, file);
        await mkdir(dirname(to), { recursive: true });
        await copyFile(join(dirs[i]!, file), to).catch((e: Error) => {
          throw usage(`${dirs[i]}: cannot copy ${file} (${e.message}); the shard folder is incomplete`);
        });
      }
  const r = merged.results;
  await writeFile(join(out, 'results.json'), `${JSON.stringify(r, null, 2)}\n`);
  await writeFile(join(out, 'results.md'), markdownReport(r));
  await writeFile(join(out, 'report.html'), htmlReport(r));
  await writeOut(io.stdout, `merged ${parts.length} shard(s), ${r.runs.length} run(s), into ${out}\n`);
  if (merged.missing.length) {
    await writeOut(
      io.stderr,
      `slm eval merge: ${merged.missing.length} planned run(s) are in no shard: ${merged.missing.join(', ')}; run the shards that hold them and merge again\n`,
    );
    return EXIT.failed;
  }
  return EXIT.ok;
}
