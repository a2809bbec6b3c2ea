/**
 * Opening eval results again, in the engine worker (they are untrusted input): the Eval page's
 * own export — one file holding results.json's object and every session it names — or what
 * `slm eval --out DIR` wrote, picked as files or as the folder: results.json and the session
 * files, matched by the relative path each run names (the export's format: eval-bundle.ts). Every part passes its schema; a session
 * the files do not hold is listed as missing (its cell then says so), a broken one refuses all.
 */
import { checkResults } from '../eval/results-schema.ts';
import { MAX_SESSION_FILE_BYTES, parseSessionFile } from '../session/share-codec.ts';
import type { Session } from '../session/record.ts';
import { checkSession } from '../session/validate.ts';
import { EVAL_BUNDLE_VERSION } from './eval-bundle.ts';
import type { EvalOpen } from './protocol.ts';

/** The largest results file or export read (a session file keeps its own cap). */
export const MAX_EVAL_FILE_BYTES = 256 * 1024 * 1024;

const n = (x: number) => x.toLocaleString('en-US');

async function readJson(
  file: Blob,
  path: string,
  cap: number,
): Promise<{ ok: true; value: unknown } | { ok: false; text: string }> {
  if (file.size > cap)
    return {
      ok: false,
      text: `${path} is ${n(file.size)} bytes, more than the ${n(cap)} it may have, so it was not read.`,
    };
  try {
    return { ok: true, value: JSON.parse(await file.text()) as unknown };
  } catch {
    return {
      ok: false,
      text: `${path} is not JSON: open the .eval.json the Eval page exported, or the results.json of an \`slm eval\` output folder with its sessions/ files.`,
    };
  }
}

/** Checks the picked files: one export, or results.json and the session files it names. */
export async function openEvalFiles(
  files: readonly { readonly path: string; readonly file: Blob }[],
): Promise<EvalOpen> {
  const resultsFile =
    files.find((f) => /(^|\/)results\.json$/.test(f.path)) ?? (files.length === 1 ? files[0] : undefined);
  if (!resultsFile)
    return {
      ok: false,
      text: 'None of the files is an eval result: pick the .eval.json the Eval page exported, or an `slm eval` output folder (its results.json and sessions/).',
    };
  const read = await readJson(resultsFile.file, resultsFile.path, MAX_EVAL_FILE_BYTES);
  if (!read.ok) return read;
  const value = read.value as { slmcodeEval?: unknown; results?: unknown; sessions?: unknown };
  const bundled = value !== null && typeof value === 'object' && 'slmcodeEval' in value;
  if (bundled && value.slmcodeEval !== EVAL_BUNDLE_VERSION)
    return {
      ok: false,
      text: `${resultsFile.path} is an eval export of version ${String(value.slmcodeEval)}; this page reads version ${EVAL_BUNDLE_VERSION}.`,
    };
  const checked = checkResults(bundled ? value.results : value);
  if (!checked.ok) return { ok: false, text: `${resultsFile.path} is ${checked.text}` };
  const { results } = checked;
  const sessions: Record<string, Session> = {};
  const missing: string[] = [];
  const given =
    bundled && value.sessions && typeof value.sessions === 'object' ? (value.sessions as Record<string, unknown>) : {};
  for (const run of results.runs) {
    if (run.session in sessions) continue;
    if (bundled) {
      if (!(run.session in given)) {
        missing.push(run.session);
        continue;
      }
      const s = await checkSession(given[run.session]);
      if (!s.ok)
        return { ok: false, text: `The session ${run.session} in ${resultsFile.path} cannot be opened: ${s.text}` };
      sessions[run.session] = s.session;
      continue;
    }
    const file = files.find((f) => f.path === run.session || f.path.endsWith(`/${run.session}`));
    if (!file) {
      missing.push(run.session);
      continue;
    }
    if (file.file.size > MAX_SESSION_FILE_BYTES)
      return {
        ok: false,
        text: `${file.path} is ${n(file.file.size)} bytes, more than the ${n(MAX_SESSION_FILE_BYTES)} a session file may have.`,
      };
    const s = await parseSessionFile(await file.file.text());
    if (!s.ok) return { ok: false, text: `${file.path} cannot be opened: ${s.text}` };
    sessions[run.session] = s.session;
  }
  return { ok: true, bundle: { results, sessions }, missing };
}
