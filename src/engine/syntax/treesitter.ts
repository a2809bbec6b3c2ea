/**
 * The Python and Go checkers: tree-sitter grammars (wasm, so they run in the worker) in place
 * of the spec's `python3 compile()` and `gofmt -e`, which need processes the browser lacks.
 *
 * tree-sitter recovers from errors instead of stopping, so a text parses when its tree holds
 * no ERROR and no MISSING node; the first of those in document order is reported. It is more
 * lenient than CPython in a few places (Python 2 `print "x"`; indentation, which
 * python-rules.ts checks on the tree), so it misses some breakage, but it does not reject
 * code that compiles — the direction that matters, because a wrong "broken" verdict reverts a
 * good edit.
 *
 * No WasmSource registered (a host that never called `setWasmSource`) or a grammar that fails
 * to load means the checker is missing: the verdict is `skipped`, never `error`.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { hasWasmSource, parserFor, type GrammarName } from '../treesitter/loader.ts';
import { errorAt, lineColAt, okVerdict, overBudget, skippedVerdict, type SyntaxVerdict } from './verdict.ts';

/** One parser per grammar, kept for the session: creating one is cheap, but not free. */
const parsers = new Map<GrammarName, Promise<Parser>>();

/** The name a tree-sitter verdict carries, e.g. `tree-sitter-python`. */
export function treeSitterCheckerName(grammar: GrammarName): string {
  return `tree-sitter-${grammar}`;
}

/** Problems the grammar's error recovery lets through (Python's indentation): an offset and a message. */
export type ExtraRule = (root: Node, text: string) => { readonly offset: number; readonly text: string } | null;

/**
 * Judges `text` with the grammar, then with `extra` when the tree has no error; the parse
 * itself stops at `budgetMs`.
 */
export async function checkWithTreeSitter(
  grammar: GrammarName,
  text: string,
  budgetMs: number,
  extra?: ExtraRule,
): Promise<SyntaxVerdict> {
  const checker = treeSitterCheckerName(grammar);
  if (!hasWasmSource()) return skippedVerdict(checker, 'no tree-sitter runtime is registered in this host; not judged');
  let parser: Parser;
  try {
    parser = await loadParser(grammar);
  } catch (e) {
    return skippedVerdict(
      checker,
      `the ${grammar} grammar did not load (${e instanceof Error ? e.message : String(e)}); not judged`,
    );
  }
  const start = performance.now();
  const deadline = start + budgetMs;
  // Returning true from the progress callback cancels the parse.
  const tree = parser.parse(text, null, { progressCallback: () => performance.now() > deadline });
  if (!tree) {
    // A cancelled parse would otherwise resume on the next call.
    parser.reset();
    return overBudget(checker, performance.now() - start, budgetMs);
  }
  try {
    const bad = tree.rootNode.hasError ? firstProblem(tree.rootNode) : null;
    const problem = bad ? describe(bad, text) : (extra?.(tree.rootNode, text) ?? null);
    if (!problem) return okVerdict(checker);
    const { line, col } = lineColAt(text, problem.offset);
    return errorAt(checker, line, col, problem.text);
  } finally {
    tree.delete(); // wasm memory is not garbage-collected
  }
}

function loadParser(grammar: GrammarName): Promise<Parser> {
  let p = parsers.get(grammar);
  if (!p) {
    p = parserFor(grammar);
    parsers.set(grammar, p);
    // Keep no failed load: the host may register its wasm source later.
    p.catch(() => parsers.delete(grammar));
  }
  return p;
}

/**
 * The first ERROR or MISSING node in document order, descending only into subtrees that hold
 * one, down to the innermost: an outer ERROR can span the whole file, the inner one is where
 * the grammar actually lost its way.
 */
function firstProblem(root: Node): Node | null {
  let node: Node = root;
  let found: Node | null = null;
  for (;;) {
    if (node.isError || node.isMissing) found = node;
    const next = node.children.find((c): c is Node => c !== null && (c.hasError || c.isMissing));
    if (!next) return found ?? (node === root ? null : node);
    node = next;
  }
}

/** The problem's message, positioned at its first non-blank character (an ERROR often starts with a line break). */
function describe(node: Node, text: string): { offset: number; text: string } {
  if (node.isMissing) return { offset: node.startIndex, text: `missing ${JSON.stringify(node.type)}` };
  const span = text.slice(node.startIndex, node.endIndex);
  const lead = span.length - span.trimStart().length;
  const first = span.trimStart().split('\n', 1)[0]!.trimEnd();
  if (!first)
    return {
      offset: node.startIndex,
      text: node.startIndex >= text.length ? 'unexpected end of file' : 'syntax error',
    };
  const shown = first.length > 60 ? `${first.slice(0, 57)}...` : first;
  return { offset: node.startIndex + lead, text: `syntax error at ${JSON.stringify(shown)}` };
}
