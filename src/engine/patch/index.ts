/** Patch parsing, anchoring and applying for ws_patch (re-exports only). */
export * from './model.ts';
export { parsePatchText } from './parse.ts';
export { headerName } from './unified.ts';
export { AnchorWindowLines } from './locate.ts';
export { applyHunks, type FileApply, type HunkFailure } from './apply.ts';
export { resolveTargets, headerCandidates, type Target } from './targets.ts';
export { failedText, failureText, rungNotes, successText, type FileReport } from './report.ts';
