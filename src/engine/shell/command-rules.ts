/**
 * The policy's rule for a command name alone, for people: which table answers it (the read-only
 * tools, a command checked argument by argument, a test runner, an interpreter, a package
 * manager, a family of refused or gated commands) and in a sentence what that means. Read from
 * the same tables `checkCommand` decides with, so a list made from it cannot drift from them;
 * the verdict on a real command line still depends on its arguments.
 */
import { familyNames, familyOf } from './families.ts';
import { INTERPRETERS } from './interpreters.ts';
import { PACKAGE_MANAGERS } from './package-managers.ts';
import { SIMPLE_TOOLS } from './simple-tools.ts';
import { TEST_RUNNERS } from './test-runners.ts';
import { checkerNames, lookup } from './commands.ts';

/** Which of the policy's tables answers a command name. */
export type CommandRuleKind =
  'read-only' | 'checked' | 'test-runner' | 'interpreter' | 'package-manager' | 'gated' | 'never' | 'unknown';

/** A command name's rule: its table, and what the policy does with it, as a sentence. */
export interface CommandRule {
  readonly kind: CommandRuleKind;
  readonly text: string;
}

const TEXT: Readonly<Record<Exclude<CommandRuleKind, 'gated' | 'never'>, string>> = {
  'read-only': 'runs freely: a read-only tool, its options checked against its table',
  checked: 'runs when its arguments read only (each argument is checked: no writing, no second command)',
  'test-runner': 'runs freely as a test runner or checker, with paths inside the workspace',
  interpreter: 'runs a file of the workspace; inline code (-e, -c) is refused',
  'package-manager': 'runs package.json scripts freely; installing and other changes wait for a person',
  unknown: 'refused: not a command ws_shell knows as read-only or as a test runner',
};

/** The rule the policy applies to a command named `name` (before looking at its arguments). */
export function commandRule(name: string): CommandRule {
  const family = familyOf(name);
  if (family) {
    return family.tier === 'never'
      ? { kind: 'never', text: `refused: it ${family.why}` }
      : { kind: 'gated', text: `waits for a person: it ${family.why}` };
  }
  const kind: CommandRuleKind = Object.hasOwn(TEST_RUNNERS, name)
    ? 'test-runner'
    : Object.hasOwn(INTERPRETERS, name)
      ? 'interpreter'
      : Object.hasOwn(PACKAGE_MANAGERS, name)
        ? 'package-manager'
        : Object.hasOwn(SIMPLE_TOOLS, name)
          ? 'read-only'
          : lookup(name)
            ? 'checked'
            : 'unknown';
  return { kind, text: TEXT[kind] };
}

/** Every command name one of the policy's tables names (allowed, gated or refused by name). */
export function policyCommandNames(): string[] {
  return [...new Set([...familyNames(), ...Object.keys(SIMPLE_TOOLS), ...checkerNames()])];
}
