/** The post-edit syntax check: file-local parse checkers and the engine hook (re-exports only). */
export { checkSyntax, syntaxCheckerFor } from './check.ts';
export {
  createSyntaxPostEdit,
  revertText,
  stillBrokenText,
  syntaxPostEdit,
  type SyntaxChecker,
  type SyntaxPostEditOptions,
} from './post-edit.ts';
export { isJsoncPath } from './json.ts';
export { VerdictCache, withVerdictCache } from './verdict-cache.ts';
export { DEFAULT_SYNTAX_BUDGET_MS, type CheckOptions, type SyntaxStatus, type SyntaxVerdict } from './verdict.ts';
