/**
 * How a note reaches the list of what the in-memory shell runs: the page provides one loader
 * (the engine worker makes the list from the shell's command table, once per page), and any
 * note list below it that shows a just-bash "where it ran" note offers the list.
 */
import { getContext, setContext } from 'svelte';
import type { ShellCommandGroup } from '../../worker/client.ts';

/** Answers the in-memory shell's command list. */
export type ShellCommandsLoader = () => Promise<readonly ShellCommandGroup[]>;

const KEY = Symbol('shell-commands');

/** Makes `load` the list's loader for the components below the caller (call during component set-up). */
export function provideShellCommands(load: ShellCommandsLoader): void {
  setContext(KEY, load);
}

/** The loader a page provided, or undefined (a component tested alone). */
export function shellCommandsLoader(): ShellCommandsLoader | undefined {
  return getContext<ShellCommandsLoader | undefined>(KEY);
}

/** True for a note that says a command ran in the in-memory shell (just-bash), whatever else it says. */
export function ranInMemoryShell(note: {
  readonly kind: string;
  readonly text: string;
  readonly detail?: string;
}): boolean {
  return note.kind === 'shell' && note.detail === 'backend' && /(^|; )ran in just-bash\b/.test(note.text);
}
