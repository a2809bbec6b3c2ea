/** The engine's public surface (re-exports only). */
export * from './workspace.ts';
export * from './result.ts';
export * from './settings.ts';
export * from './tool.ts';
export * from './context.ts';
export * from './state.ts';
export * from './jail.ts';
export * from './engine.ts';
export * from './truncate.ts';
export * from './text.ts';
export { restoreCheckpoint } from './checkpoints.ts';
export { CODING_TOOLS } from './tools/index.ts';
export { createEngine } from './create.ts';
export { checkSyntax, syntaxCheckerFor, type SyntaxVerdict } from './syntax/index.ts';
export { BUNDLED_SKILLS, skillCards, type SkillCard } from './skills/index.ts';
