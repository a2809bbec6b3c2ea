/**
 * The shape rules: a tree-sitter-bash tree is accepted only when it is one simple command or one
 * pipeline of simple commands. Everything else — lists (`;`, `&&`, `||`, newlines), backgrounding,
 * subshells, groups, functions, compound commands, declarations — is a finding, and every node
 * type not recognized here is refused rather than skipped. The result is the pipeline's stages
 * with their words decoded, ready for the per-command rules.
 */
import type { Node } from 'web-tree-sitter';
import { never, q, USE, type Finding } from './decision.ts';
import { decodeWords, expansionFinding, type Word } from './words.ts';

/** `NAME=value` before the command name. */
export interface Assignment {
  readonly name: string;
  readonly value: Word;
  readonly raw: string;
}

/** One redirection of a stage, its target decoded. */
export interface Redirect {
  readonly kind: 'file' | 'heredoc' | 'herestring';
  /** The operator as written: `>`, `>>`, `<`, `&>`, `>&`, `<<`, `<<<` … */
  readonly op: string;
  /** The explicit descriptor number before the operator, if any. */
  readonly fd: string | null;
  /** The decoded target word (null for `>&-` or a heredoc). */
  readonly target: Word | null;
  readonly raw: string;
  /** For a heredoc: what the plan needs to find its body the way bash does (heredoc.ts). */
  readonly heredoc?: HeredocSource;
}

/** Where a heredoc sits in the source, as tree-sitter read it. */
export interface HeredocSource {
  /** The delimiter word as written (`EOF`, `'EOF'` …). */
  readonly delimiterRaw: string;
  /** `<<-`: leading tabs are stripped from the body's lines. */
  readonly stripTabs: boolean;
  /** Where the last token tree-sitter read on the command line ends. */
  readonly lineTokensEnd: number;
  /** Where tree-sitter's heredoc_end ends (-1 when it found none). */
  readonly treeEnd: number;
}

/** One simple command of the pipeline. */
export interface Stage {
  readonly assignments: readonly Assignment[];
  /** argv: the command name first. Empty when the stage is a bare redirection. */
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  readonly raw: string;
  /** True when `|&` follows the stage: its stderr joins its stdout into the pipe. */
  readonly pipeStderr?: boolean;
}

const REDIRECT_TYPES = new Set(['file_redirect', 'heredoc_redirect', 'herestring_redirect']);

/** Statement kinds that are not one simple command: [description, rule, next step]. */
const COMPOUND: Record<string, readonly [string, string, string?]> = {
  subshell: ['a subshell ( … )', 'compound'],
  compound_statement: ['a command group { …; }', 'compound'],
  function_definition: ['a function definition', 'compound'],
  if_statement: ['an if statement', 'compound'],
  while_statement: ['a loop', 'compound'],
  for_statement: ['a loop', 'compound'],
  c_style_for_statement: ['a loop', 'compound'],
  case_statement: ['a case statement', 'compound'],
  negated_command: ['a negated command (!)', 'compound'],
  test_command: [
    'a test expression [ … ] / [[ … ]]',
    'compound',
    'Write the check as test -f FILE, or use ws_list or ws_glob to see whether a file exists.',
  ],
  declaration_command: [
    'a declaration (export, declare, local, readonly, typeset) that changes the environment of later commands',
    'environment',
  ],
  unset_command: ['an unset that changes the environment of later commands', 'environment'],
  variable_assignment: ['a bare variable assignment', 'environment'],
  variable_assignments: ['bare variable assignments', 'environment'],
};

function text(src: string, n: Node): string {
  return src.slice(n.startIndex, n.endIndex);
}

function compoundFinding(node: Node, src: string): Finding {
  const kind = COMPOUND[node.type];
  if (kind === undefined)
    return never('syntax', `unsupported shell syntax ${q(text(src, node))} (${node.type})`, USE.oneCommand);
  return never(kind[1], `${q(text(src, node))} is ${kind[0]}, not a single simple command`, kind[2] ?? USE.oneCommand);
}

function chainFinding(sep: string, second: string): Finding {
  const shown = sep === '\n' ? 'a newline' : `"${sep}"`;
  return never('chaining', `${shown} chains a second command ${q(second)}`, USE.oneCommand);
}

/** Reads the program: exactly one statement, no `&`, no comment, nothing tree-sitter dropped or left unparsed. */
export function readProgram(root: Node, src: string): Stage[] | Finding {
  const kids = root.children;
  // A comment runs nothing, but text after `#` could hide what a reader takes for more command.
  const comment = root.descendantsOfType('comment')[0];
  if (comment)
    return never(
      'comment',
      `the comment ${q(text(src, comment))} is not run`,
      'Send only the command, without a # comment.',
    );
  const statements = kids.filter((k) => k.isNamed);
  const amp = kids.find((k) => k.type === '&');
  if (amp) {
    const before = statements.filter((s) => s.endIndex <= amp.startIndex).pop();
    return never(
      'background',
      `"&" runs ${q(before ? text(src, before) : src)} in the background`,
      'Run it in the foreground; ws_shell waits for it, with a timeout.',
    );
  }
  // Whatever lies between the top-level nodes must be blank: a safety net against dropped text.
  let cursor = root.startIndex;
  for (const k of kids) {
    if (/\S/.test(src.slice(cursor, k.startIndex).replace(/\\\n/g, ''))) {
      return never(
        'parse',
        `part of the command was not understood near ${q(src.slice(cursor, k.startIndex))}`,
        USE.oneCommand,
      );
    }
    cursor = k.endIndex;
  }
  // And after the last one: `tail \ ⏎` ends with an escaped blank bash passes as an argument.
  if (/\S/.test(src.slice(cursor).replace(/\\\n/g, ''))) {
    return never('parse', `part of the command was not understood near ${q(src.slice(cursor))}`, USE.oneCommand);
  }
  if (statements.length === 0) return never('empty', 'the command is empty', USE.readOnly);
  if (statements.length > 1) {
    const [first, second] = statements as [Node, Node];
    const between = src.slice(first.endIndex, second.startIndex);
    const sep =
      kids.find((k) => !k.isNamed && k.startIndex >= first.endIndex && k.endIndex <= second.startIndex)?.type ??
      (between.includes('\n') ? '\n' : ';');
    return chainFinding(sep, text(src, second));
  }
  const dropped = droppedText(statements[0]!, src);
  if (dropped) return dropped;
  const stages = readStatement(statements[0]!, src);
  if (!Array.isArray(stages)) return stages;
  for (const stage of stages) {
    // Bash opens every input redirection in turn (a missing file stops the command) and keeps the
    // last; a plan carries exactly one input per command.
    const inputs = stage.redirects.filter(
      (r) => (r.fd === null || r.fd === '0') && (r.kind !== 'file' || r.op === '<'),
    );
    if (inputs.length > 1) {
      const shown = inputs
        .map((r) => q(r.kind === 'heredoc' ? `${r.op}${r.heredoc?.delimiterRaw ?? ''}` : r.raw))
        .join(', ');
      return never(
        'redirect-input',
        `the command ${q(stage.words[0]?.raw ?? stage.raw)} redirects its input ${inputs.length} times (${shown})`,
        'Give the command one input: a file (< FILE), a here-string or one heredoc.',
      );
    }
  }
  return stages;
}

/** Nodes whose children are separated by blanks only; inside them, any other text between children was dropped by the parser. */
const SEPARATED_BY_BLANKS = new Set([
  'command',
  'pipeline',
  'redirected_statement',
  'file_redirect',
  'herestring_redirect',
  'variable_assignment',
  'concatenation',
  'command_name',
]);

/**
 * Text inside a command that tree-sitter-bash read as no part of any node. It drops an escaped
 * blank that starts a word (`echo \ a` reads as `echo a`; bash passes " a"), so a word could run
 * with a different value than the one checked. Each node's type, span and children are read from
 * the tree once: every read crosses into the parser's wasm, and a pipeline has thousands of nodes.
 */
function droppedText(node: Node, src: string, type: string = node.type): Finding | null {
  if (!SEPARATED_BY_BLANKS.has(type)) {
    for (const k of node.namedChildren) {
      const f = droppedText(k, src);
      if (f) return f;
    }
    return null;
  }
  // A newline may follow a pipe operator; elsewhere only blanks and line continuations separate.
  const blanks = type === 'pipeline' ? /^(?:[ \t\n]|\\\n)*$/ : /^(?:[ \t]|\\\n)*$/;
  const kids = node.children;
  const named: [Node, string][] = [];
  let cursor = node.startIndex;
  let afterRedirect = false;
  for (let i = 0; ; i++) {
    const k = kids[i];
    const gap = src.slice(cursor, k ? k.startIndex : node.endIndex);
    if (!blanks.test(gap)) {
      return never(
        'parse',
        `part of the command was not understood near ${near(src, node, cursor, gap)}`,
        "Quote an argument that starts with a blank (' a'), and send one plain command.",
      );
    }
    if (k === undefined) break;
    const kType = k.type;
    const kNamed = k.isNamed;
    // `<<<'a'\t` is one word for bash (also across a line continuation); tree-sitter-bash ends
    // the target at the quote and makes `\t` an argument.
    const wordNext = (kNamed || kType === '$') && !REDIRECT_TYPES.has(kType);
    if (wordNext && afterRedirect && gap.replace(/\\\n/g, '') === '') {
      return never(
        'parse',
        `the redirection target in ${near(src, node, cursor, gap)} runs on into the next word, which bash and tree-sitter-bash split differently`,
        "Quote the whole redirection target (<<< 'a b'), and put a space after it.",
      );
    }
    if (kNamed) named.push([k, kType]);
    cursor = k.endIndex;
    afterRedirect = REDIRECT_TYPES.has(kType);
  }
  // The named children from `children`, which the readers below reuse with what they cached.
  for (const [k, kType] of named) {
    const f = droppedText(k, src, kType);
    if (f) return f;
  }
  return null;
}

/** The source around a gap inside `node`, quoted for a message. */
function near(src: string, node: Node, cursor: number, gap: string): string {
  return q(src.slice(Math.max(node.startIndex, cursor - 8), cursor + gap.length + 8));
}

function readStatement(node: Node, src: string): Stage[] | Finding {
  switch (node.type) {
    case 'command':
      return readCommand(node, src);
    case 'pipeline':
      return readPipeline(node, src);
    case 'redirected_statement':
      return readRedirected(node, src);
    case 'list': {
      const op = node.children.find((k) => !k.isNamed);
      const right = node.lastNamedChild;
      return chainFinding(op?.type ?? '&&', right ? text(src, right) : '');
    }
    default:
      return compoundFinding(node, src);
  }
}

function readPipeline(node: Node, src: string): Stage[] | Finding {
  let stages: Stage[] = [];
  for (const k of node.children) {
    const type = k.type;
    if (type === '|&') {
      const last = stages.pop();
      if (last) stages.push({ ...last, pipeStderr: true });
      continue;
    }
    if (type === '|') continue;
    const part =
      type === 'command'
        ? readCommand(k, src)
        : type === 'redirected_statement'
          ? readRedirected(k, src)
          : // tree-sitter nests the rest of a pipeline written after a heredoc's delimiter (`<<EOF | a |& b`).
            type === 'pipeline'
            ? readPipeline(k, src)
            : compoundFinding(k, src);
    if (!Array.isArray(part)) return part;
    // A redirected stage nests the pipeline before it (`a | b 2>&1 | c` is a pipeline inside a
    // redirected statement inside a pipeline): its stages are taken over, not copied per level.
    if (stages.length === 0) stages = part;
    else stages.push(...part);
  }
  return stages;
}

/** What redirections add to a stage while it is read. */
interface Collected {
  readonly redirects: Redirect[];
  /** Words tree-sitter put in a redirection that bash passes to the command (`cat < a b` reads b). */
  readonly spill: Word[];
  /** Pipeline stages written after a heredoc's delimiter (`cat <<EOF | wc`). */
  readonly extra: Stage[];
  /** True when those stages follow `|&` (`cat <<EOF |& wc`): the stage's stderr joins the pipe. */
  pipeStderr: boolean;
}

function collected(): Collected {
  return { redirects: [], spill: [], extra: [], pipeStderr: false };
}

function readRedirected(node: Node, src: string): Stage[] | Finding {
  // The body taken from `children`, whose nodes droppedText already read (and cached) below it.
  const bodyId = node.childForFieldName('body')?.id;
  let body: Node | null = null;
  const acc = collected();
  for (const k of node.children) {
    if (k.id === bodyId) {
      body = k;
      continue;
    }
    const type = k.type;
    if (!REDIRECT_TYPES.has(type)) return compoundFinding(k, src);
    const f = collectRedirect(k, src, acc, type);
    if (f) return f;
  }
  if (body === null)
    return withExtra([{ assignments: [], words: acc.spill, redirects: acc.redirects, raw: text(src, node) }], acc);
  const bodyType = body.type;
  if (bodyType === 'command') return readCommand(body, src, acc);
  if (bodyType === 'pipeline') {
    // Redirections after a pipeline belong to its last stage.
    const stages = readPipeline(body, src);
    if (!Array.isArray(stages)) return stages;
    const last = stages.pop()!;
    stages.push({ ...last, words: [...last.words, ...acc.spill], redirects: [...last.redirects, ...acc.redirects] });
    return withExtra(stages, acc);
  }
  return compoundFinding(body, src);
}

/** `stages` followed by the stages a heredoc's line added, joined by `|&` when it was written so. */
function withExtra(stages: Stage[], acc: Collected): Stage[] {
  if (acc.extra.length === 0) return stages;
  const last = stages.pop()!;
  return [...stages, acc.pipeStderr ? { ...last, pipeStderr: true } : last, ...acc.extra];
}

/** Reads one redirection node (of type `type`) into `acc`. */
function collectRedirect(node: Node, src: string, acc: Collected, type: string = node.type): Finding | null {
  const raw = text(src, node);
  let op = '';
  let fd: string | null = null;
  const targetNodes: Node[] = [];
  // Redirections written after a heredoc's delimiter (`cat <<EOF <a.txt`) are its children in the
  // tree but come after it for bash, which applies them in order (the last stdin wins).
  const at = acc.redirects.length;
  for (const k of node.children) {
    const kType = k.type;
    const kNamed = k.isNamed;
    if (kType === 'file_descriptor') fd = text(src, k);
    else if (!kNamed && op === '') op = kType;
    else if (type === 'heredoc_redirect') {
      const f = heredocPart(k, src, acc);
      if (f) return f;
    } else if (kNamed) targetNodes.push(k);
    else return never('syntax', `unsupported redirection ${q(raw)}`, USE.write);
  }
  if (fd === null) {
    const f = descriptorWordFinding(node, src);
    if (f) return f;
  }
  if (type === 'heredoc_redirect') {
    acc.redirects.splice(at, 0, { kind: 'heredoc', op, fd, target: null, raw, heredoc: heredocSource(node, src, op) });
    return null;
  }
  const targets = targetNodes.length ? decodeWords(targetNodes, src) : [];
  if (!Array.isArray(targets)) return targets;
  acc.spill.push(...targets.slice(1));
  acc.redirects.push({
    kind: type === 'herestring_redirect' ? 'herestring' : 'file',
    op,
    fd,
    target: targets[0] ?? null,
    raw,
  });
  return null;
}

function heredocSource(node: Node, src: string, op: string): HeredocSource {
  const start = node.children.find((k) => k.type === 'heredoc_start');
  const end = node.children.find((k) => k.type === 'heredoc_end');
  const onLine = node.children.filter((k) => k.type !== 'heredoc_body' && k.type !== 'heredoc_end');
  return {
    delimiterRaw: start ? text(src, start) : '',
    stripTabs: op === '<<-',
    lineTokensEnd: Math.max(node.startIndex, ...onLine.map((k) => k.endIndex)),
    treeEnd: end ? end.endIndex : -1,
  };
}

/**
 * A word written right before a redirection that bash reads as its descriptor — digits (`0<f`,
 * `0>/dev/null`) or `{name}` (a variable to hold a new descriptor) — where tree-sitter-bash reads
 * an argument and a redirection of another descriptor.
 */
function descriptorWordFinding(node: Node, src: string): Finding | null {
  let start = node.startIndex;
  while (start > 0 && !/[\s|&;()<>]/.test(src[start - 1]!)) start--;
  const before = src.slice(start, node.startIndex);
  if (!/^(?:\d+|\{[A-Za-z_][A-Za-z0-9_]*\})$/.test(before)) return null;
  return never(
    'redirect-descriptor',
    `bash reads ${q(before)} in ${q(before + text(src, node))} as the descriptor to redirect, not as an argument`,
    'Put a space between an argument and a redirection, and redirect only stdin (<), stdout (>) or stderr (2>).',
  );
}

/** One child of a heredoc: its delimiter and body, or what follows the `<<EOF` on its line. */
function heredocPart(k: Node, src: string, acc: Collected): Finding | null {
  switch (k.type) {
    case 'heredoc_start':
    case 'heredoc_end':
      return null;
    case 'heredoc_body': {
      // With a quoted delimiter tree-sitter gives the body no children: it is literal text.
      const live = k.namedChildren.find((c) => c.type !== 'heredoc_content');
      return live ? expansionFinding(live, src) : null;
    }
    case 'pipeline': {
      const stages = readPipeline(k, src);
      if (!Array.isArray(stages)) return stages;
      if (k.firstChild?.type === '|&') acc.pipeStderr = true;
      acc.extra.push(...stages);
      return null;
    }
    case 'file_redirect':
    case 'herestring_redirect':
      return collectRedirect(k, src, acc);
    default: {
      // `cat <<EOF && rm x`: an operator after the delimiter chains the command that follows it.
      const next = k.nextNamedSibling;
      return k.isNamed ? compoundFinding(k, src) : chainFinding(k.type, next ? text(src, next) : '');
    }
  }
}

/** A simple command; `outer` holds what a redirected_statement around it collected. */
function readCommand(node: Node, src: string, outer: Collected = collected()): Stage[] | Finding {
  const assignments: Assignment[] = [];
  const wordNodes: Node[] = [];
  const acc = collected();
  for (const k of node.children) {
    const type = k.type;
    if (type === 'variable_assignment') {
      const a = readAssignment(k, src);
      if (!('name' in a)) return a;
      assignments.push(a);
    } else if (type === 'command_name') {
      const inner = k.children[0];
      if (inner === undefined) return never('syntax', `empty command name in ${q(text(src, node))}`, USE.oneCommand);
      wordNodes.push(inner);
    } else if (REDIRECT_TYPES.has(type)) {
      const f = collectRedirect(k, src, acc, type);
      if (f) return f;
    } else if (k.isNamed || type === '$') wordNodes.push(k);
    else return never('syntax', `unsupported shell syntax ${q(text(src, k))} in ${q(text(src, node))}`, USE.oneCommand);
  }
  const words = decodeWords(wordNodes, src);
  if (!Array.isArray(words)) return words;
  const stage: Stage = {
    assignments,
    words: [...words, ...acc.spill, ...outer.spill],
    redirects: [...acc.redirects, ...outer.redirects],
    raw: text(src, node),
  };
  return withExtra(withExtra([stage], acc), outer);
}

function readAssignment(node: Node, src: string): Assignment | Finding {
  const name = node.childForFieldName('name');
  const value = node.childForFieldName('value');
  const raw = text(src, node);
  if (name === null || name.type !== 'variable_name')
    return never('environment', `unsupported assignment ${q(raw)}`, USE.literal);
  if (node.children.some((k) => k.type === '+=')) {
    return never(
      'environment',
      `${q(raw)} appends to the value the command would inherit, which is not known before it runs`,
      'Set the whole value with NAME=value.',
    );
  }
  if (value === null) return { name: text(src, name), value: { text: '', raw: '', quoted: [], plain: true }, raw };
  if (value.type === 'array') return never('environment', `array assignment ${q(raw)}`, USE.literal);
  const words = decodeWords([value], src);
  if (!Array.isArray(words)) return words;
  return { name: text(src, name), value: words[0]!, raw };
}
