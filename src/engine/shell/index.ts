/** The ws_shell command policy (re-exports only). */
export { decideShell, MAX_COMMAND_CHARS } from './policy.ts';
export type { ShellDecision } from './decision.ts';
