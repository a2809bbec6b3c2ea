/**
 * The shape every command rule has: a function from a command's arguments to a verdict. It
 * lives apart from decision.ts so the rule files, which need words, and words.ts, which needs
 * findings, do not import each other.
 */
import type { Verdict } from './decision.ts';
import type { Word } from './words.ts';

/**
 * Checks the arguments (after the name) of one command. `lookup` finds the checker of a command
 * the tool runs in turn (npx vitest, python -m pytest).
 */
export type Checker = (args: readonly Word[], lookup: Lookup) => Verdict;
/** Finds the checker for a command name; undefined when the name may not run. */
export type Lookup = (name: string) => Checker | undefined;
