/**
 * The Eval page's one-file export: results.json's object and every session it names, by the
 * relative path the runs name them with — `{"slmcodeEval": 1, "results": …, "sessions": {…}}`.
 * Plain text only (no schema), so the page can write it; the worker reads it back (eval-open.ts).
 */
import type { EvalBundle } from './protocol.ts';

export const EVAL_BUNDLE_VERSION = 1;

export function evalBundleText(bundle: EvalBundle): string {
  return `${JSON.stringify({ slmcodeEval: EVAL_BUNDLE_VERSION, results: bundle.results, sessions: bundle.sessions })}\n`;
}
