/**
 * Shell words: turns tree-sitter-bash word nodes into the literal argument bash would pass,
 * decoding quotes and escapes the way bash does, and remembering which characters were quoted.
 * Quoting matters after decoding: only unquoted `*?[` glob, only unquoted `{a,b}` brace-expands,
 * only an unquoted leading `~` reads $HOME. Anything whose value is only known at run time
 * (parameter, command, process and arithmetic expansion) is a finding, never a guess.
 */
import type { Node } from 'web-tree-sitter';
import { never, q, USE, type Finding } from './decision.ts';

/** One argument as bash would pass it. */
export interface Word {
  /** The decoded argument. */
  readonly text: string;
  /** The source text it came from (for messages). */
  readonly raw: string;
  /** Per UTF-16 unit of `text`: true when that character was quoted or backslash-escaped. */
  readonly quoted: readonly boolean[];
  /** True when the source had no quotes and no escapes at all. */
  readonly plain: boolean;
}

class WordBuilder {
  text = '';
  readonly quoted: boolean[] = [];
  plain = true;

  push(s: string, isQuoted: boolean): void {
    this.text += s;
    for (let i = 0; i < s.length; i++) this.quoted.push(isQuoted);
    if (isQuoted) this.plain = false;
  }
}

/** True for `${x@P}`, also nested: the operator pair `@` `P` among an expansion's tokens. */
function isPromptTransform(node: Node): boolean {
  return [node, ...node.descendantsOfType('expansion')].some((e) => {
    const kids = e.children;
    return kids.some((k, i) => k.type === '@' && kids[i + 1]?.type === 'P');
  });
}

/**
 * The first place anywhere in the tree where bash would run code while expanding words: command
 * or process substitution, or a `${x@P}` prompt expansion. Reported before anything else, since
 * it is the most serious reason and the clearest message.
 */
export function codeExpansionFinding(root: Node, src: string): Finding | null {
  const sub = root.descendantsOfType(['command_substitution', 'process_substitution'])[0];
  if (sub) return expansionFinding(sub, src);
  const prompt = root.descendantsOfType('expansion').find(isPromptTransform);
  return prompt ? expansionFinding(prompt, src) : null;
}

/** Why a node whose value is only known at run time is refused. */
export function expansionFinding(node: Node, src: string): Finding {
  const raw = src.slice(node.startIndex, node.endIndex);
  const inner = node.descendantsOfType(['command_substitution', 'process_substitution'])[0];
  if (node.type === 'command_substitution' || (inner && inner.type === 'command_substitution')) {
    const sub = inner ?? node;
    return never(
      'substitution',
      `command substitution ${q(src.slice(sub.startIndex, sub.endIndex))} runs a second command`,
      USE.substitution,
    );
  }
  if (node.type === 'process_substitution' || inner) {
    const sub = inner ?? node;
    return never(
      'substitution',
      `process substitution ${q(src.slice(sub.startIndex, sub.endIndex))} runs a second command`,
      USE.substitution,
    );
  }
  if (node.type === 'arithmetic_expansion') {
    return never('arithmetic', `arithmetic expansion ${q(raw)} can run code through array subscripts`, USE.literal);
  }
  if (node.type === 'brace_expression') {
    return never(
      'brace-expansion',
      `brace expansion ${q(raw)} turns one word into several after any check`,
      USE.literal,
    );
  }
  if (node.type === 'expansion' && isPromptTransform(node)) {
    return never(
      'prompt-expansion',
      `prompt expansion ${q(raw)} (@P) evaluates its value as a prompt string, which can run commands`,
      USE.literal,
    );
  }
  if (node.type === 'simple_expansion' || node.type === 'expansion') {
    return never(
      'expansion',
      `parameter expansion ${q(raw)} makes the arguments unknowable before the shell runs (and can print secrets from the environment)`,
      USE.literal,
    );
  }
  return never('syntax', `unsupported shell syntax ${q(raw)} (${node.type})`, USE.oneCommand);
}

/** Decodes the inside of "…": only \$ \` \" \\ and backslash-newline are escapes there. */
function pushDoubleQuoted(b: WordBuilder, s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c === '\\' && next !== undefined && '$`"\\\n'.includes(next)) {
      if (next !== '\n') b.push(next, true);
      i++;
    } else b.push(c, true);
  }
}

/** Decodes an unquoted word: a backslash quotes the next character; backslash-newline vanishes. */
function pushUnquoted(b: WordBuilder, s: string): void {
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    const next = s[i + 1];
    if (c === '\\' && next !== undefined) {
      b.plain = false;
      if (next !== '\n') b.push(next, true);
      i++;
    } else b.push(c, false);
  }
}

/**
 * True when a `$` ending before `at` starts an expansion for bash: a name, a digit, a special
 * parameter (`$-`, `$?`, `$@` …), `${`, `$(` or `$[`. tree-sitter-bash sometimes leaves such a `$`
 * as a lone token (`[a]$-x`), which would otherwise read as a literal dollar sign.
 */
function startsExpansion(src: string, at: number): boolean {
  return /[A-Za-z0-9_@*#?$!{(\[-]/.test(src[at] ?? '');
}

function dollarFinding(src: string, dollar: Node): Finding {
  const raw = src.slice(dollar.endIndex - 1, dollar.endIndex + 1);
  return never(
    'expansion',
    `parameter expansion ${q(raw)} makes the arguments unknowable before the shell runs (and can print secrets from the environment)`,
    USE.literal,
  );
}

/** True when unquoted source text has a blank that no backslash escapes: there bash ends the word. */
function hasUnescapedBlank(raw: string): boolean {
  for (let i = 0; i < raw.length; i++) {
    if (raw[i] === '\\') i++;
    else if (raw[i] === ' ' || raw[i] === '\t' || raw[i] === '\n') return true;
  }
  return false;
}

const SIMPLE_ESCAPES: Record<string, string> = {
  a: '\x07',
  b: '\b',
  e: '\x1b',
  E: '\x1b',
  f: '\f',
  n: '\n',
  r: '\r',
  t: '\t',
  v: '\v',
  '\\': '\\',
  "'": "'",
  '"': '"',
  '?': '?',
};

/** An ANSI-C escape whose value bash and a runner without a shell could read differently. */
export interface RareEscape {
  readonly escape: string;
  readonly why: string;
}

/**
 * Decodes the body of $'…' (ANSI-C quoting) as bash does, or names the first escape refused
 * rather than guessed: one that makes a NUL (bash ends the string there), a byte above 0x7F
 * (no character: bash passes the raw byte), a non-ASCII \u/\U (its bytes depend on the locale)
 * or a \c control escape other than \cA…\cZ.
 */
/**
 * Whether bash reads a `$'…'` string with this body as tree-sitter-bash does: to bash, a
 * backslash escapes the next character (`\\` is one backslash, `\'` a quote), so an unescaped
 * `'` inside the body, or a lone backslash before the closing quote, means bash ends the string
 * somewhere else.
 */
function endsWhereBashEnds(body: string): boolean {
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\') {
      if (++i >= body.length) return false;
    } else if (body[i] === "'") return false;
  }
  return true;
}

export function decodeAnsiC(body: string): string | RareEscape {
  let out = '';
  for (let i = 0; i < body.length; i++) {
    const c = body[i]!;
    if (c !== '\\' || i + 1 >= body.length) {
      out += c;
      continue;
    }
    const at = i;
    const e = body[++i]!;
    const simple = SIMPLE_ESCAPES[e];
    if (simple !== undefined) {
      out += simple;
      continue;
    }
    const take = (re: RegExp, max: number): string => {
      let digits = '';
      while (digits.length < max && i + 1 < body.length && re.test(body[i + 1]!)) digits += body[++i]!;
      return digits;
    };
    const code = (value: number): RareEscape | null => {
      const escape = body.slice(at, i + 1);
      if (value === 0) return { escape, why: 'makes a NUL byte, where bash ends the string' };
      if (value > 0x7f) {
        return e === 'u' || e === 'U'
          ? { escape, why: 'writes a non-ASCII character, whose bytes depend on the locale bash runs in' }
          : {
              escape,
              why: `makes the byte 0x${(value & 0xff).toString(16).toUpperCase()}, which is no character on its own (bash passes the raw byte)`,
            };
      }
      out += String.fromCharCode(value);
      return null;
    };
    let rare: RareEscape | null = null;
    if (/[0-7]/.test(e)) {
      i--;
      rare = code(parseInt(take(/[0-7]/, 3), 8) & 0xff);
    } else if (e === 'x' || e === 'u' || e === 'U') {
      const digits = take(/[0-9A-Fa-f]/, e === 'x' ? 2 : e === 'u' ? 4 : 8);
      if (digits === '') out += `\\${e}`;
      else rare = code(parseInt(digits, 16));
    } else if (e === 'c') {
      const letter = body[i + 1];
      if (letter === undefined || !/[A-Za-z]/.test(letter))
        return { escape: body.slice(at, i + 2), why: 'is a control escape other than \\cA…\\cZ' };
      i++;
      out += String.fromCharCode(letter.toUpperCase().charCodeAt(0) & 0x1f);
    } else out += `\\${e}`;
    if (rare) return rare;
  }
  return out;
}

/** Appends one word-part node (ending at `end`); returns a finding when the part is only known at run time. */
function pushNode(b: WordBuilder, node: Node, end: number, src: string, next: Node | null): Finding | null {
  const raw = src.slice(node.startIndex, end);
  switch (node.type) {
    case 'word':
    case 'number':
      if (hasUnescapedBlank(raw)) {
        return never(
          'parse',
          `tree-sitter-bash reads ${q(raw)} as one word where bash splits it at the blank`,
          'Quote the argument, or write the words apart plainly.',
        );
      }
      pushUnquoted(b, raw);
      return null;
    case 'raw_string':
      b.push(raw.slice(1, -1), true);
      return null;
    case 'ansi_c_string': {
      if (!endsWhereBashEnds(raw.slice(2, -1))) {
        return never(
          'parse',
          `bash ends the string ${q(raw)} at another quote than tree-sitter-bash does (a backslash escapes the next character, \\\\ included)`,
          "Write the string with plain single quotes, or escape a quote inside $'…' as \\'.",
        );
      }
      const decoded = decodeAnsiC(raw.slice(2, -1));
      if (typeof decoded !== 'string') {
        return never(
          'ansi-c-escape',
          `the escape ${q(decoded.escape)} in ${q(raw)} ${decoded.why}`,
          'Write the character itself inside quotes, or use a plain ASCII escape such as \\t, \\n or \\x41.',
        );
      }
      b.push(decoded, true);
      return null;
    }
    case 'string':
      return pushString(b, node, src);
    case 'concatenation':
      return pushParts(b, node.children, src, node.startIndex);
    case '$': {
      // A lone `$` is literal, and `$"…"` is a locale-translated string: both add no expansion.
      // tree-sitter puts the string of `$"a"b` inside a concatenation after the `$`, and its `$`
      // token can take the text before it (`-$"b"` is one token "-$" and a string).
      if (!raw.endsWith('$') || hasUnescapedBlank(raw))
        return never('syntax', `unsupported shell syntax ${q(raw)}`, USE.oneCommand);
      // An escaped `\$` is a literal dollar sign, never the start of `$"…"`.
      if (/(?:^|[^\\])(?:\\\\)*\\\$$/.test(raw)) {
        pushUnquoted(b, raw);
        return null;
      }
      pushUnquoted(b, raw.slice(0, -1));
      const string = next?.type === 'concatenation' ? next.firstChild : next;
      if (string?.type === 'string' && string.startIndex === end) return null;
      if (startsExpansion(src, end)) return dollarFinding(src, node);
      b.push('$', false);
      return null;
    }
    default:
      return expansionFinding(node, src);
  }
}

/** "…": string_content is decoded, a lone `$` is literal, anything else expands. */
function pushString(b: WordBuilder, node: Node, src: string): Finding | null {
  b.plain = false;
  const end = node.endIndex - 1;
  let cursor = node.startIndex + 1;
  for (const child of node.children) {
    const childEnd = child.endIndex;
    if (child.startIndex < cursor || childEnd > end) continue; // the quote tokens themselves
    if (child.startIndex > cursor) pushDoubleQuoted(b, src.slice(cursor, child.startIndex));
    const type = child.type;
    // tree-sitter's `$` token can take the blanks before it (`" $ "`): its text is content too.
    if (type === '$' && startsExpansion(src, childEnd)) return dollarFinding(src, child);
    if (type === 'string_content' || type === '$') pushDoubleQuoted(b, src.slice(child.startIndex, childEnd));
    else return expansionFinding(child, src);
    cursor = childEnd;
  }
  if (end > cursor) pushDoubleQuoted(b, src.slice(cursor, end));
  return null;
}

/** Parts of one word, in order; the text between parts (a line continuation) is decoded as unquoted. */
function pushParts(b: WordBuilder, parts: readonly Node[], src: string, start: number): Finding | null {
  let cursor = start;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i]!;
    if (part.startIndex > cursor) pushUnquoted(b, src.slice(cursor, part.startIndex));
    const end = part.endIndex;
    const f = pushNode(b, part, end, src, parts[i + 1] ?? null);
    if (f) return f;
    cursor = end;
  }
  return null;
}

/** True when the source between two nodes is only line continuations, so bash reads them as one word. */
function joined(src: string, from: number, to: number): boolean {
  return /^(?:\\\n)*$/.test(src.slice(from, to));
}

/**
 * Groups adjacent word nodes into words (tree-sitter splits `a\<newline>b`, which bash reads as
 * one word) and decodes each. Returns the words, or the first finding. Each node's end is read
 * once: every read crosses into the parser's wasm, and a command may have thousands of words.
 */
export function decodeWords(nodes: readonly Node[], src: string): Word[] | Finding {
  const words: Word[] = [];
  const ends = nodes.map((n) => n.endIndex);
  let i = 0;
  while (i < nodes.length) {
    let j = i + 1;
    while (j < nodes.length && joined(src, ends[j - 1]!, nodes[j]!.startIndex)) j++;
    const group = nodes.slice(i, j);
    const b = new WordBuilder();
    const f = pushParts(b, group, src, group[0]!.startIndex);
    if (f) return f;
    const raw = src.slice(group[0]!.startIndex, ends[j - 1]!);
    words.push({ text: b.text, raw, quoted: b.quoted, plain: b.plain && group.length === 1 });
    i = j;
  }
  return words;
}

function unquoted(w: Word, i: number): boolean {
  return w.quoted[i] === false;
}

/** True when an unquoted `*`, `?` or `[` makes bash treat the word as a file-name pattern. */
export function hasGlob(w: Word): boolean {
  for (let i = 0; i < w.text.length; i++) if (unquoted(w, i) && '*?['.includes(w.text[i]!)) return true;
  return false;
}

/** True when the word starts with a pattern character, so it may expand to a name like `-delete`. */
export function startsWithGlob(w: Word): boolean {
  return w.text.length > 0 && unquoted(w, 0) && '*?['.includes(w.text[0]!);
}

/** True when an unquoted `{…}` holds an unquoted top-level `,` or `..`: bash brace-expands it. */
function hasBraceExpansion(w: Word): boolean {
  for (let open = 0; open < w.text.length; open++) {
    if (!(unquoted(w, open) && w.text[open] === '{')) continue;
    let depth = 0;
    for (let i = open; i < w.text.length; i++) {
      if (!unquoted(w, i)) continue;
      const c = w.text[i]!;
      if (c === '{') depth++;
      else if (c === '}' && --depth === 0) break;
      else if (depth === 1 && (c === ',' || (c === '.' && w.text[i + 1] === '.' && unquoted(w, i + 1)))) return true;
    }
  }
  return false;
}

/** True when bash would tilde-expand the word: a leading `~`, or `~` after `=`/`:` in an assignment-shaped word. */
function hasTildeExpansion(w: Word): boolean {
  if (w.text.startsWith('~') && unquoted(w, 0)) return true;
  const m = /^[A-Za-z_][A-Za-z0-9_]*=/.exec(w.text);
  if (!m || ![...m[0]].every((_, i) => unquoted(w, i))) return false;
  for (let i = m[0].length; i < w.text.length; i++) {
    const before = w.text[i - 1]!;
    if (w.text[i] === '~' && unquoted(w, i) && (i === m[0].length || (before === ':' && unquoted(w, i - 1))))
      return true;
  }
  return false;
}

/** The word-level rules every argument obeys, whatever the command: no brace or tilde expansion. */
export function wordFinding(w: Word): Finding | null {
  if (hasBraceExpansion(w)) {
    return never(
      'brace-expansion',
      `brace expansion in ${q(w.raw)} turns one word into several after any check`,
      'Write each argument out in full (quote the braces if they are meant literally).',
    );
  }
  if (hasTildeExpansion(w)) {
    return never('tilde', `${q(w.raw)} expands ~ to the home directory, outside the workspace`, USE.jail);
  }
  return null;
}
