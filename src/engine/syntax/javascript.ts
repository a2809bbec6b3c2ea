/**
 * The JavaScript checker: acorn (pure JS, runs in the worker) in place of the spec's
 * `node --check`, which needs a Node process the browser does not have.
 *
 * Modes, chosen to never call working code broken:
 * - `.mjs` is an ES module; `.cjs` is CommonJS (acorn's `commonjs` source type: a function
 *   scope, so a top-level `return` is fine).
 * - `.js` can be either, so it is tried as a module first and as CommonJS second; it parses
 *   when either accepts it. When both fail, the error of the attempt that got further is
 *   reported — that mode is most likely the one the file is written in.
 * - React projects keep JSX in `.js` files, which acorn does not parse: an error that stops at
 *   a `<` is given no verdict rather than a false "broken".
 * Hashbang lines are accepted in every mode, as Node accepts them. Nesting too deep for
 * acorn's recursion is no verdict either.
 *
 * The parser is acorn with Set-backed scopes (acorn-scopes.ts: acorn's own scopes are
 * quadratic in the number of declarations), and the time budget is kept while it parses:
 * every TOKENS_PER_CLOCK_READ tokens the clock is read, and a parse past its deadline is
 * stopped and reported as over budget.
 */
import type { Options } from 'acorn';
import { LinearScopeParser } from './acorn-scopes.ts';
import { errorAt, lineColAt, okVerdict, overBudget, skippedVerdict, type SyntaxVerdict } from './verdict.ts';

export type JsMode = 'module' | 'commonjs' | 'either';

const CHECKER = 'acorn';
/** acorn reports running out of stack as a syntax error; it says nothing about the text. */
const STACK_OVERFLOW = 'Not enough stack space to parse input';

/** How many tokens pass between two reads of the clock: reading it costs more than a token. */
const TOKENS_PER_CLOCK_READ = 4096;

interface AcornError {
  readonly offset: number;
  readonly text: string;
}

/** Thrown from acorn's token callback to stop a parse that ran past its deadline. */
class OverBudget extends Error {}

/**
 * Judges `text` as JavaScript in the given mode; the parses together may take `budgetMs`. A
 * parse is stopped at the deadline, and one that finished past it is not believed either.
 */
export function checkJs(text: string, mode: JsMode, budgetMs = Infinity): SyntaxVerdict {
  const start = performance.now();
  let verdict: SyntaxVerdict;
  try {
    verdict = judge(text, mode, start + budgetMs);
  } catch (e) {
    if (!(e instanceof OverBudget)) throw e;
    return overBudget(CHECKER, performance.now() - start, budgetMs);
  }
  const elapsed = performance.now() - start;
  return elapsed > budgetMs ? overBudget(CHECKER, elapsed, budgetMs) : verdict;
}

function judge(text: string, mode: JsMode, deadline: number): SyntaxVerdict {
  const modes: ('module' | 'commonjs')[] = mode === 'either' ? ['module', 'commonjs'] : [mode];
  let furthest: AcornError | null = null;
  for (const m of modes) {
    const err = tryParse(text, m, deadline);
    if (!err) return okVerdict(CHECKER);
    if (!furthest || err.offset > furthest.offset) furthest = err;
  }
  const err = furthest!;
  if (err.text === STACK_OVERFLOW)
    return { ...skippedVerdict(CHECKER, 'the text is nested too deeply for acorn; not judged'), bound: 'depth' };
  if (mode !== 'commonjs' && text[err.offset] === '<') {
    return skippedVerdict(CHECKER, 'stopped at a "<" that looks like JSX, which acorn does not parse; not judged');
  }
  const { line, col } = lineColAt(text, err.offset);
  return errorAt(CHECKER, line, col, err.text === 'Unexpected token' ? unexpected(text, err.offset) : err.text);
}

function tryParse(text: string, sourceType: 'module' | 'commonjs', deadline: number): AcornError | null {
  let tokens = 0;
  const onToken = (): void => {
    if (++tokens % TOKENS_PER_CLOCK_READ === 0 && performance.now() > deadline) throw new OverBudget();
  };
  const options: Options = {
    ecmaVersion: 'latest',
    sourceType,
    allowHashBang: true,
    ...(deadline < Infinity ? { onToken } : {}),
  };
  try {
    LinearScopeParser.parse(text, options);
    return null;
  } catch (e) {
    if (!isAcornSyntaxError(e)) throw e;
    // acorn appends "(line:col)" to its messages; the verdict carries the position itself.
    return { offset: e.pos, text: e.message.replace(/\s*\(\d+:\d+\)$/, '') };
  }
}

/** acorn's bare "Unexpected token", naming the token as the model wrote it. */
function unexpected(text: string, offset: number): string {
  if (offset >= text.length) return 'Unexpected end of input';
  const word = /^[\w$]+|^\S/.exec(text.slice(offset, offset + 40));
  return `Unexpected token ${JSON.stringify(word ? word[0] : text[offset])}`;
}

function isAcornSyntaxError(e: unknown): e is SyntaxError & { pos: number } {
  return e instanceof SyntaxError && typeof (e as { pos?: unknown }).pos === 'number';
}
