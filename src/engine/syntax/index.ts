/** The post-edit syntax check: file-local parse checkers and the engine hook (re-exports only). */
export { checkSyntax } from './check.ts';
export { createSyntaxPostEdit, syntaxPostEdit, type SyntaxChecker } from './post-edit.ts';
