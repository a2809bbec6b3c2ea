/**
 * What CPython's compiler rejects but tree-sitter-python's error recovery accepts silently —
 * exactly the indentation slips small models make (and the revert message warns about):
 * - a statement indented deeper or shallower than its siblings ("unexpected indent",
 *   "unindent does not match any outer indentation level"), including a module-level
 *   statement that does not start at column 0;
 * - a block with no statement in it ("expected an indented block");
 * - a `try` with neither `except` nor `finally`.
 * Each rule reads the tree tree-sitter built: siblings in one block share one indentation in
 * every program CPython compiles, so the rules cannot call a compiling file broken.
 *
 * Only blocks, the module and `try` statements carry a rule, so the walk enters only the nodes
 * that can hold one (BLOCK_HOLDERS) and never the expressions and simple statements that make
 * up most of a tree: visiting every node cost as much as the parse itself on a 2,000-line file.
 */
import type { Node } from 'web-tree-sitter';

export interface PythonProblem {
  /** UTF-16 offset into the text. */
  readonly offset: number;
  readonly text: string;
}

const HANDLERS = new Set(['except_clause', 'except_group_clause', 'finally_clause']);

/**
 * The node types whose subtrees can contain a `block` or a `try_statement`, as
 * tree-sitter-python's node-types.json lists their children (python-rules.test.ts checks the
 * list against that file, so a grammar upgrade cannot silently hide a rule). `except_group_clause`
 * is the `except*` clause of grammars before 0.25.
 */
export const BLOCK_HOLDERS: ReadonlySet<string> = new Set([
  'module',
  'block',
  'function_definition',
  'class_definition',
  'decorated_definition',
  'if_statement',
  'elif_clause',
  'else_clause',
  'for_statement',
  'while_statement',
  'with_statement',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'match_statement',
  'case_clause',
]);

/** The first indentation or block-structure problem in document order, or null. */
export function firstPythonProblem(root: Node, text: string): PythonProblem | null {
  // Depth-first in document order, with an explicit stack: deep nesting must not overflow.
  const stack: Node[] = [root];
  while (stack.length) {
    const node = stack.pop()!;
    const type = node.type;
    // Read once: every `namedChildren` and `type` is a call into the wasm module.
    const kids = node.namedChildren.filter((c): c is Node => c !== null);
    const kidTypes = kids.map((k) => k.type);
    const problem = checkNode(node, type, kids, kidTypes, text);
    if (problem) return problem;
    for (let i = kids.length - 1; i >= 0; i--) {
      if (BLOCK_HOLDERS.has(kidTypes[i]!)) stack.push(kids[i]!);
    }
  }
  return null;
}

function checkNode(
  node: Node,
  type: string,
  kids: readonly Node[],
  kidTypes: readonly string[],
  text: string,
): PythonProblem | null {
  if (type === 'try_statement' && !node.children.some((c) => c !== null && HANDLERS.has(c.type))) {
    return { offset: node.startIndex, text: "expected 'except' or 'finally' block after this try" };
  }
  if (type !== 'block' && type !== 'module') return null;
  const statements = kids.filter((_, i) => kidTypes[i] !== 'comment');
  if (type === 'block' && statements.length === 0) {
    const header = node.parent ? firstLine(text, node.parent.startIndex) : 'the line before';
    return { offset: node.startIndex, text: `expected an indented block after ${JSON.stringify(header)}` };
  }
  // Only statements that begin their own line carry indentation (`a; b` and `if x: y` do not).
  let expected: number | null = type === 'module' ? 0 : null;
  for (const s of statements) {
    const width = indentWidth(text, s.startIndex);
    if (width === null) continue;
    if (expected === null) expected = width;
    else if (width !== expected)
      return { offset: s.startIndex, text: misindentText(text, s.startIndex, width, expected) };
  }
  return null;
}

/**
 * CPython's two words for a misplaced statement: deeper than the line before it is an
 * "unexpected indent"; back out to a width no enclosing block uses is an "unindent".
 */
function misindentText(text: string, offset: number, width: number, expected: number): string {
  if (width < expected) return 'unindent does not match any outer indentation level';
  const previous = previousCodeLineIndent(text, text.lastIndexOf('\n', offset - 1));
  return previous !== null && width < previous
    ? 'unindent does not match any outer indentation level'
    : 'unexpected indent';
}

/** The indentation of the nearest line before `newlineAt` that holds code (not blank, not only a comment). */
function previousCodeLineIndent(text: string, newlineAt: number): number | null {
  let end = newlineAt;
  while (end > 0) {
    const start = text.lastIndexOf('\n', end - 1) + 1;
    const line = text.slice(start, end);
    const body = line.trimStart();
    if (body !== '' && body !== '\r' && !body.startsWith('#'))
      return indentWidth(text, start + (line.length - body.length));
    end = start - 1;
  }
  return null;
}

/**
 * The indentation width of the line holding `offset`, as CPython's tokenizer counts it (tabs
 * to the next multiple of 8, a form feed resets), or null when something other than
 * whitespace precedes `offset` on its line. The line start is found by walking back over
 * whitespace only, so a line of many statements (`a = 1; b = 2; …`) costs each statement its
 * own indentation, not the whole line before it.
 */
function indentWidth(text: string, offset: number): number | null {
  let lineStart = offset;
  for (; lineStart > 0; lineStart--) {
    const c = text[lineStart - 1];
    if (c === '\n') break;
    if (c !== ' ' && c !== '\t' && c !== '\f') return null;
  }
  let width = 0;
  for (let i = lineStart; i < offset; i++) {
    if (text[i] === '\t') width = (Math.floor(width / 8) + 1) * 8;
    else if (text[i] === '\f') width = 0;
    else width++;
  }
  return width;
}

function firstLine(text: string, offset: number): string {
  const line = text
    .slice(offset, offset + 200)
    .split('\n', 1)[0]!
    .trim();
  return line.length > 60 ? `${line.slice(0, 57)}...` : line;
}
