/**
 * One simple command, from its decoded argv to a verdict: the command name must be a plain
 * literal word (not quoted, escaped, globbed or a path outside the system bin directories), then
 * the name picks its rule — a family of refused commands, a dedicated checker, or the table of
 * read-only utilities. A name found nowhere is refused: the policy is an allow-list.
 */
import { gated, isFinding, never, q, USE, type Verdict } from './decision.ts';
import type { Checker } from './checker.ts';
import { checkAwk } from './awk.ts';
import { checkFamily, familyOf } from './families.ts';
import { checkFind, checkXargs } from './find-xargs.ts';
import { checkGit } from './git.ts';
import { INTERPRETERS } from './interpreters.ts';
import { checkJq } from './jq.ts';
import { PACKAGE_MANAGERS } from './package-managers.ts';
import { checkSed } from './sed.ts';
import { checkSimple, SIMPLE_TOOLS } from './simple-tools.ts';
import { TEST_RUNNERS } from './test-runners.ts';
import { pathFinding } from './paths.ts';
import { protectedMentionFinding } from './protected.ts';
import { hasGlob, type Word } from './words.ts';

const CHECKERS: Readonly<Record<string, Checker>> = {
  git: checkGit,
  find: checkFind,
  xargs: checkXargs,
  sed: checkSed,
  jq: checkJq,
  ...Object.fromEntries(['awk', 'gawk', 'mawk', 'nawk'].map((n) => [n, (args: readonly Word[]) => checkAwk(n, args)])),
  ...TEST_RUNNERS,
  ...PACKAGE_MANAGERS,
  ...INTERPRETERS,
};

/** The names a dedicated checker answers (git, find, the test runners, interpreters, package managers …). */
export function checkerNames(): string[] {
  return Object.keys(CHECKERS);
}

/** The checker for a command name, or undefined when the name is not allowed to run at all. */
export function lookup(name: string): Checker | undefined {
  if (Object.hasOwn(CHECKERS, name)) return CHECKERS[name];
  if (Object.hasOwn(SIMPLE_TOOLS, name)) {
    const tool = SIMPLE_TOOLS[name]!;
    return (args) => checkSimple(name, tool, args);
  }
  return undefined;
}

/** Test runners, build tools, interpreters and package managers: every argument may name a file, a module or a directory. */
const RUNS_PROJECT_CODE: ReadonlySet<string> = new Set([
  ...Object.keys(TEST_RUNNERS),
  ...Object.keys(INTERPRETERS),
  ...Object.keys(PACKAGE_MANAGERS),
]);

/**
 * For tools that read files, load modules and run code, any argument — an operand, or an
 * option's value (`--spec=/tmp/x.js`, `-s /tmp`, `--rootDir /`) — that names a path outside the
 * workspace is refused, whatever the tool's own option table says: their options are too many
 * to list one by one.
 */
function outsideArgument(args: readonly Word[]): Verdict | null {
  for (const w of args) {
    const eq = w.text.indexOf('=');
    const values = w.text.startsWith('-') && eq > 0 ? [w.text.slice(eq + 1)] : w.text.startsWith('-') ? [] : [w.text];
    for (const v of values) {
      const f = pathFinding(v);
      if (f) return f;
    }
  }
  return null;
}

/** A file name a tool would load as code. */
const MODULE_FILE = /\.(?:[cm]?[jt]s|[jt]sx)$/;

/**
 * An option whose value is a code file (`--x=./r.js`) loads that file into the tool, which runs
 * it: a person decides, whatever the option is called. The runners with an option table
 * (unknown-options.ts) already gate every unknown option with a file-like value in any spelling;
 * this is the floor for the project-code tools without one (tsc, svelte-check, unittest …).
 */
function moduleOptionValue(args: readonly Word[]): Verdict | null {
  for (const w of args) {
    const eq = w.text.indexOf('=');
    if (!w.text.startsWith('-') || eq < 0) continue;
    const value = w.text.slice(eq + 1);
    if (MODULE_FILE.test(value)) {
      return gated(
        'module-option',
        `${q(w.raw)} loads the code file ${q(value)} into the tool`,
        'It runs only after a person approves it; run the tests without that option if you can.',
      );
    }
  }
  return null;
}

/** Directories whose programs are the system's own, so `/usr/bin/rg` is rg. */
const SYSTEM_BIN = new Set(['/bin', '/usr/bin', '/usr/local/bin', '/sbin', '/usr/sbin']);

/** The command name a path resolves to: system bin directories and the project's node_modules/.bin. */
function resolveName(word: Word): string | Verdict {
  const t = word.text;
  if (!t.includes('/')) return t;
  const cut = t.lastIndexOf('/');
  const dir = t.slice(0, cut);
  const base = t.slice(cut + 1);
  if (SYSTEM_BIN.has(dir) || dir === 'node_modules/.bin' || dir === './node_modules/.bin') return base;
  return never(
    'path-exec',
    `${q(word.raw)} runs a program by its path, not a known read-only tool or test runner`,
    `${USE.readOnly} Run scripts with node FILE or npm test.`,
  );
}

/** The verdict for one simple command, given its decoded words (name first). */
export function checkCommand(words: readonly Word[]): Verdict {
  const first = words[0];
  if (first === undefined) return never('empty', 'the command is empty', USE.readOnly);
  if (!first.plain) {
    return never(
      'quoted-name',
      `the command name ${q(first.raw)} is quoted or escaped, which hides what runs from string checks`,
      "Write the command name plainly (rm, not r''m).",
    );
  }
  if (hasGlob(first))
    return never(
      'glob-name',
      `the command name ${q(first.raw)} is a pattern the shell would expand to a program`,
      'Write the command name plainly.',
    );
  const name = resolveName(first);
  if (typeof name !== 'string') return name;
  const args = words.slice(1);
  const family = familyOf(name);
  if (family) return checkFamily(name, family, args);
  if (RUNS_PROJECT_CODE.has(name)) {
    const outside = outsideArgument(args);
    if (outside) return outside;
  }
  const checker = lookup(name);
  if (checker) {
    const verdict = checker(args, lookup);
    // The tool's own rules first (their messages are more precise); then a protected path named
    // anywhere refuses, and a code file as an option's value is gated, whatever the option.
    if (!RUNS_PROJECT_CODE.has(name) || (isFinding(verdict) && verdict.tier === 'never')) return verdict;
    return protectedMentionFinding([words]) ?? (isFinding(verdict) ? verdict : (moduleOptionValue(args) ?? verdict));
  }
  return never('unknown', `${q(name)} is not a command ws_shell knows as read-only or as a test runner`, USE.readOnly);
}
