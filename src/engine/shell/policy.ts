/**
 * The ws_shell command policy: one pure function from a command line to a decision. It parses
 * with tree-sitter-bash, refuses anything that does not parse cleanly, reduces the tree to one
 * simple command or a pipeline of them (syntax.ts), rebuilds each argv with quotes and escapes
 * decoded (words.ts), and decides from the argv alone — never from patterns over the raw text.
 * A pipeline is as strict as its worst stage.
 */
import type { Node, Parser } from 'web-tree-sitter';
import { decisionFrom, isFinding, never, q, USE, worst, type Finding, type ShellDecision } from './decision.ts';
import { checkCommand } from './commands.ts';
import { assignmentFinding, redirectFinding } from './redirects.ts';
import { readProgram, type Stage } from './syntax.ts';
import { codeExpansionFinding, wordFinding, type Word } from './words.ts';
import { displayFinding } from './display.ts';
import { planFor } from './plan.ts';
import { xargsInputFinding } from './find-xargs.ts';
import { protectedMentionFinding } from './protected.ts';
import { depthFinding } from './depth.ts';

/** Longer command lines are refused outright: no analysis cap may fall open. */
export const MAX_COMMAND_CHARS = 8000;

/** The first node tree-sitter could not parse (an ERROR or a MISSING token), depth first. */
function firstError(node: Node): Node | null {
  if (node.isError || node.isMissing) return node;
  for (const child of node.children) {
    if (child.hasError || child.isMissing) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return null;
}

function parseFinding(root: Node, src: string): Finding {
  const bad = firstError(root) ?? root;
  const near = src.slice(Math.max(0, bad.startIndex - 12), Math.min(src.length, bad.endIndex + 12));
  const missing = bad.isMissing ? ` (missing ${q(bad.type)})` : '';
  return never(
    'parse',
    `the command does not parse as bash near ${q(near)}${missing}; ws_shell runs only commands it can read completely`,
    'Check the quotes, brackets and operators, and send one plain command.',
  );
}

/** One stage's worst finding, or its free description. */
function judgeStage(stage: Stage): Finding | string {
  const findings: (Finding | null)[] = [
    ...stage.assignments.map(assignmentFinding),
    ...stage.redirects.map(redirectFinding),
    ...stage.words.map(wordFinding),
  ];
  const verdict = checkCommand(stage.words);
  if (isFinding(verdict)) return worst([...findings, verdict])!;
  return worst(findings) ?? verdict.free;
}

/**
 * Decides whether `cmd` may run through ws_shell: allow (tier free), gated (a person must
 * approve it) or refuse (tier never), with a reason that quotes the offending part and names the
 * tool to use instead. `parser` must have the bash grammar loaded (`parserFor('bash')`).
 */
export function decideShell(parser: Parser, cmd: string): ShellDecision {
  if (cmd.trim() === '') return decisionFrom(never('empty', 'the command is empty', USE.readOnly), '');
  if (cmd.length > MAX_COMMAND_CHARS) {
    return decisionFrom(
      never('too-long', `the command is ${cmd.length} characters long (limit ${MAX_COMMAND_CHARS})`, USE.oneCommand),
      '',
    );
  }
  const tree = parser.parse(cmd);
  if (tree === null) return decisionFrom(never('parse', 'the command could not be parsed', USE.oneCommand), '');
  try {
    // Before anything reads a node: every reader below recurses, and so does node marshalling.
    const deep = depthFinding(tree);
    if (deep) return decisionFrom(deep, '');
    const root = tree.rootNode;
    const shown = displayFinding(root, cmd);
    if (shown) return decisionFrom(shown, '');
    const code = codeExpansionFinding(root, cmd);
    if (code) return decisionFrom(code, '');
    if (root.hasError) return decisionFrom(parseFinding(root, cmd), '');
    const stages = readProgram(root, cmd);
    if (!Array.isArray(stages)) return decisionFrom(stages, '');
    const argv = stages.map((s) => s.words.map((w) => w.text));
    const judged = stages.map(judgeStage);
    const plan = planFor(stages, cmd);
    const planFinding = 'tier' in plan ? plan : null;
    const pipeline = xargsInputFinding(stages.map((s) => s.words));
    const found = worst([...judged.map((j) => (typeof j === 'string' ? null : j)), planFinding, pipeline]);
    const finding = found?.tier === 'gated' ? (protectedMentionFinding(stages.map((s) => s.words)) ?? found) : found;
    const allowed =
      stages.length === 1
        ? `${q(cmd.trim())} ${judged[0] as string}`
        : `every stage of the pipeline ${q(cmd.trim())} is read-only or a test run (${stages.map((s, i) => `${s.words[0]?.text ?? ''}: ${judged[i] as string}`).join('; ')})`;
    return decisionFrom(finding, allowed, argv, 'tier' in plan ? undefined : plan);
  } finally {
    tree.delete();
  }
}

/**
 * A literal argument as the policy reads words: the command name unquoted, every other character
 * quoted (nothing is expanded again); plain when the command itself wrote it.
 */
function literalWord(text: string, name: boolean, plain: boolean): Word {
  return {
    text,
    raw: text,
    quoted: [...text].flatMap((c) => Array.from({ length: c.length }, () => !name)),
    plain,
  };
}

/**
 * Judges argument vectors that are already literal — a plan's stages after the runner expanded
 * their patterns — with the same command rules. A pattern can expand to more operands than the
 * command was judged with (`uniq [ab].txt` is `uniq a.txt b.txt`, which writes b.txt), so the
 * runner asks again before it runs anything. `written` marks the words the command itself
 * wrote (not a pattern's matches): those are plain words, as the first judgment read them, so a
 * command xargs runs is still recognised (a pattern's match never is: a file name must not choose
 * the program).
 */
export function decideLiteral(
  argv: readonly (readonly string[])[],
  written?: readonly (readonly boolean[])[],
): ShellDecision {
  const stages = argv.map((a, s) => a.map((t, i) => literalWord(t, i === 0, i === 0 || written?.[s]?.[i] === true)));
  const judged = stages.map((words) => {
    const v = checkCommand(words);
    return isFinding(v) ? v : null;
  });
  const found = worst([...judged, xargsInputFinding(stages)]);
  const finding = found?.tier === 'gated' ? (protectedMentionFinding(stages) ?? found) : found;
  return decisionFrom(
    finding,
    `${argv.map((a) => a.join(' ')).join(' | ')} is read-only or a test run`,
    argv.map((a) => [...a]),
  );
}
