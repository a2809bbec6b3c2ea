/**
 * `checkSyntax(path, text)`: the file-local parse check behind the post-edit hook, the UI's
 * syntax badge and ws_patch. The checker is picked by extension:
 *
 * | extension          | checker                                   |
 * |--------------------|-------------------------------------------|
 * | .js / .mjs / .cjs  | acorn (either mode / module / CommonJS)   |
 * | .json / .jsonc     | JSON scanner, JSONC for JSONC files       |
 * | .py                | tree-sitter-python + indentation rules    |
 * | .go                | tree-sitter-go                            |
 *
 * TypeScript is not checked. The spec leaves it out because `tsc --noEmit` needs the whole
 * program; a file-local parse would be fast, but no light TypeScript parser is fit for it:
 * `typescript`'s `createSourceFile` is a dev dependency of several MB (too big for the
 * worker), acorn has no TypeScript, no tree-sitter-typescript grammar is installed, and
 * `@lezer/javascript`'s TS dialect (installed with CodeMirror) rejected 16 of the 75 distinct
 * valid .ts texts in the edits corpus (2 of 9 files: optional tuple elements `[A, B?]` and
 * arrow-function type predicates `(v): v is T =>`). A checker with false "broken" verdicts
 * would revert good edits, which is worse than no check.
 *
 * Every check is bounded: a text over MAX_SYNTAX_CHECK_BYTES is not parsed, and a parse keeps
 * its time budget (acorn and tree-sitter stop at the deadline; the JSON scanner is one linear
 * pass). Either bound gives a `skipped` verdict that carries it, and the post-edit hook says so.
 *
 * acorn and the tree-sitter grammars load on the first check that needs them (lazy-load.ts);
 * loading is not counted in the budget.
 */
import { loadOnce } from '../lazy-load.ts';
import { checkJson, isJsoncPath } from './json.ts';
import { checkWithTreeSitter, treeSitterCheckerName } from './treesitter.ts';
import { firstPythonProblem } from './python-rules.ts';
import {
  DEFAULT_SYNTAX_BUDGET_MS,
  overSizeLimit,
  skippedVerdict,
  withinBudget,
  type CheckOptions,
  type SyntaxVerdict,
} from './verdict.ts';

type Check = (path: string, text: string, budgetMs: number) => SyntaxVerdict | Promise<SyntaxVerdict>;

interface CheckerEntry {
  /** The checker's name, as verdicts report it (JSON reports `json` or `jsonc` per file). */
  readonly name: string;
  readonly check: Check;
}

const javascript = loadOnce('the JavaScript checker (acorn)', () => import('./javascript.ts'));

const acorn = (mode: 'module' | 'commonjs' | 'either'): CheckerEntry => ({
  name: 'acorn',
  check: async (_path, text, budgetMs) => (await javascript()).checkJs(text, mode, budgetMs),
});

const json: CheckerEntry = {
  name: 'json',
  check: (path, text, budgetMs) => withinBudget('json', budgetMs, () => checkJson(text, isJsoncPath(path))),
};

/** Extension (lower case, no dot) → checker. A Map, so `a.constructor` finds nothing. */
const CHECKERS: ReadonlyMap<string, CheckerEntry> = new Map([
  ['js', acorn('either')],
  ['mjs', acorn('module')],
  ['cjs', acorn('commonjs')],
  ['json', json],
  ['jsonc', json],
  [
    'py',
    {
      name: treeSitterCheckerName('python'),
      check: (_path, text, budgetMs) => checkWithTreeSitter('python', text, budgetMs, firstPythonProblem),
    },
  ],
  [
    'go',
    { name: treeSitterCheckerName('go'), check: (_path, text, budgetMs) => checkWithTreeSitter('go', text, budgetMs) },
  ],
]);

function entryFor(path: string): CheckerEntry | null {
  const base = path.slice(path.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot < 0 ? null : (CHECKERS.get(base.slice(dot + 1).toLowerCase()) ?? null);
}

/** The name of the checker that covers `path`, or null when its file type is not checked. */
export function syntaxCheckerFor(path: string): string | null {
  return entryFor(path)?.name ?? null;
}

/**
 * Parses `text` as the file at `path` would be parsed. Null when no checker covers the file
 * type (TypeScript, Markdown, …). Never throws: a checker that fails is a `skipped` verdict.
 */
export async function checkSyntax(path: string, text: string, opts: CheckOptions = {}): Promise<SyntaxVerdict | null> {
  const entry = entryFor(path);
  if (!entry) return null;
  const tooBig = overSizeLimit(entry.name, text);
  if (tooBig) return tooBig;
  try {
    return await entry.check(path, text, opts.budgetMs ?? DEFAULT_SYNTAX_BUDGET_MS);
  } catch (e) {
    // e.g. a stack overflow on absurdly deep nesting: no verdict rather than a crashed call.
    const why = e instanceof Error ? `${e.name}: ${e.message}` : String(e);
    return skippedVerdict(entry.name, `the checker failed (${why}); not judged`);
  }
}
