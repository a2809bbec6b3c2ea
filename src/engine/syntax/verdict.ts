/**
 * The shape every post-edit syntax checker answers with, and the few helpers they share.
 *
 * A checker is file-local and pure: it parses one text and never reads the workspace, so the
 * same code runs in the browser's engine worker and in Node. `skipped` means "no verdict"
 * (the parser is not available, or the check ran past its time budget) and is never read as
 * broken: a wrong "broken" verdict reverts a good edit, which is worse than a missed one.
 */
import { utf8Length } from '../text.ts';

export type SyntaxStatus = 'ok' | 'error' | 'skipped';

export interface SyntaxVerdict {
  readonly status: SyntaxStatus;
  /** Which parser judged the text, e.g. `acorn`, `json`, `tree-sitter-python`. */
  readonly checker: string;
  /** For `error`: `line:col text` (both 1-based). For `skipped`: why no verdict was given. */
  readonly message?: string;
  /** For `skipped`: the bound the check hit (the file's size, the time budget, the parser's nesting depth); the result then says so. */
  readonly bound?: 'size' | 'time' | 'depth';
}

/** How long one check may take before its verdict is dropped as `skipped`. */
export const DEFAULT_SYNTAX_BUDGET_MS = 2000;

/**
 * The largest text a check parses, in UTF-8 bytes. Source files a model edits are far smaller;
 * a bigger one is generated or minified, where a verdict would cost seconds and tell little.
 */
export const MAX_SYNTAX_CHECK_BYTES = 1_000_000;

export interface CheckOptions {
  /** Milliseconds one parse may take (loading a parser is not counted); past it the verdict is `skipped`. */
  readonly budgetMs?: number;
}

export function okVerdict(checker: string): SyntaxVerdict {
  return { status: 'ok', checker };
}

/** An error at a 1-based line and column. */
export function errorAt(checker: string, line: number, col: number, text: string): SyntaxVerdict {
  return { status: 'error', checker, message: `${line}:${col} ${text}` };
}

export function skippedVerdict(checker: string, why: string): SyntaxVerdict {
  return { status: 'skipped', checker, message: why };
}

/** The 1-based line and column (in UTF-16 code units, as editors count) of an offset into `text`. */
export function lineColAt(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(offset, text.length);
  for (let i = text.indexOf('\n'); i >= 0 && i < end; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return { line, col: end - lineStart + 1 };
}

/**
 * Runs a synchronous parse and drops its verdict when it ran past the budget. A synchronous
 * parser cannot be stopped midway, so the budget is judged afterwards: a slow check still
 * costs its time once, but its verdict never decides anything.
 */
export function withinBudget(checker: string, budgetMs: number, parse: () => SyntaxVerdict): SyntaxVerdict {
  const start = performance.now();
  const verdict = parse();
  const elapsed = performance.now() - start;
  return elapsed > budgetMs ? overBudget(checker, elapsed, budgetMs) : verdict;
}

/** The verdict of a check that ran past its budget. */
export function overBudget(checker: string, elapsedMs: number, budgetMs: number): SyntaxVerdict {
  return {
    ...skippedVerdict(
      checker,
      `the check took ${Math.round(elapsedMs)} ms, over its ${budgetMs} ms budget; not judged`,
    ),
    bound: 'time',
  };
}

/** The verdict on a text over MAX_SYNTAX_CHECK_BYTES, or null when the text is within it. */
export function overSizeLimit(checker: string, text: string): SyntaxVerdict | null {
  // A UTF-16 code unit is at most 3 UTF-8 bytes, and never fewer than 1.
  if (text.length * 3 <= MAX_SYNTAX_CHECK_BYTES) return null;
  if (text.length > MAX_SYNTAX_CHECK_BYTES) return sizeVerdict(checker, utf8Length(text));
  const bytes = utf8Length(text);
  return bytes > MAX_SYNTAX_CHECK_BYTES ? sizeVerdict(checker, bytes) : null;
}

function sizeVerdict(checker: string, bytes: number): SyntaxVerdict {
  const limitMb = MAX_SYNTAX_CHECK_BYTES / 1e6;
  const mb = Math.round(bytes / 1e5) / 10;
  // Just over the limit, one decimal would read as the limit itself: give the bytes then.
  const size = mb > limitMb ? `${mb.toFixed(1)} MB` : `${bytes.toLocaleString('en')} bytes`;
  return { ...skippedVerdict(checker, `the file is ${size}, over the ${limitMb} MB limit; not judged`), bound: 'size' };
}
