/**
 * awk is free as a text filter (`awk '{print $1}' data.txt`). Its program is scanned token by
 * token — strings, regex literals and comments skipped — statement by statement, for the ways
 * awk leaves the text: `system()`, pipes to or from commands (`|`, `|&`), output redirection in
 * a print/printf statement (`print > "f"`; a `>` elsewhere is a comparison), `getline` from files
 * or commands, ARGV (which names the files awk reads next), ENVIRON, PROCINFO and gawk's
 * SYMTAB/FUNCTAB (which reach both), and gawk's `@include`/`@load`. A print statement ends only
 * where awk ends it: at `;`, a brace, or a newline after a complete value — a newline after a
 * comma, an operator, `&&` or `||` continues it, so `print "x",⏎ "y" > "f"` is still a
 * redirection. Options that load code or write files are refused; `-f` program files are gated.
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import { findAll, longSelects, operands, scanOptions, shown, type Token } from './options.ts';
import { optionPathFinding } from './paths.ts';
import { pathOperandsFinding } from './simple-tools.ts';
import type { Word } from './words.ts';
import { writing } from './writers.ts';

const DANGEROUS_NAMES: Readonly<Record<string, string>> = {
  system: 'runs a shell command',
  getline: 'reads other files or the output of commands',
  ENVIRON: 'reads the environment, which holds secrets',
  PROCINFO: 'reads process information',
  ARGV: 'names the files awk reads next, which can be outside the workspace',
  SYMTAB: 'reaches every variable, ENVIRON and ARGV included',
  FUNCTAB: 'calls functions by name, system included',
};
/** After these words a `/` starts a regex, not a division. */
const KEYWORDS = new Set([
  'if',
  'while',
  'for',
  'do',
  'else',
  'return',
  'in',
  'print',
  'printf',
  'case',
  'delete',
  'exit',
  'next',
  'nextfile',
  'function',
  'func',
]);

function problem(program: string, what: string, use: string = USE.write): Finding {
  return never('awk-program', `awk program ${q(program)} ${what}`, use);
}

/** Why an awk program writes, runs, reads outside or reads secrets, or null when it only filters text. */
export function awkProgramFinding(p: string): Finding | null {
  let operand = false; // was the last token a value (so `/` divides)?
  let depth = 0;
  let printDepth = -1; // paren depth of the print statement being read, -1 outside print
  for (let i = 0; i < p.length; i++) {
    const c = p[i]!;
    if (c === '#') {
      while (i < p.length && p[i] !== '\n') i++;
      continue;
    }
    if (c === '\\' && p[i + 1] === '\n') {
      i++;
      continue;
    }
    if (c === ';' || c === '{' || c === '}') {
      printDepth = -1;
      operand = false;
      continue;
    }
    if (c === '\n') {
      // A newline ends a print statement only after a complete value outside its parentheses.
      if (operand) {
        if (depth <= printDepth) printDepth = -1;
        operand = false;
      }
      continue;
    }
    if (c === ' ' || c === '\t') continue;
    if (c === '"' || (c === '/' && !operand)) {
      // A string, or a regex literal (a `[…]` class may hold an unescaped `/`).
      let inClass = false;
      for (i++; i < p.length && (p[i] !== c || inClass); i++) {
        if (p[i] === '\\') i++;
        else if (c === '/' && p[i] === '[') inClass = true;
        else if (c === '/' && p[i] === ']') inClass = false;
      }
      if (i >= p.length) return problem(p, 'has an unterminated string or regex', USE.literal);
      operand = true;
      continue;
    }
    const ident = /^[A-Za-z_][A-Za-z0-9_]*/.exec(p.slice(i));
    if (ident) {
      const name = ident[0];
      const danger = DANGEROUS_NAMES[name];
      if (danger)
        return problem(p, `uses ${name}, which ${danger}`, danger.includes('command') ? USE.oneCommand : USE.readOnly);
      if (name === 'print' || name === 'printf') printDepth = depth;
      operand = !KEYWORDS.has(name);
      i += name.length - 1;
      continue;
    }
    if (c === '|') {
      if (p[i + 1] === '|') {
        i++;
        operand = false;
        continue;
      }
      return problem(p, `pipes to or from a command with ${q(p.slice(i, i + 2).trim())}`, USE.oneCommand);
    }
    if (c === '>' && printDepth >= 0 && depth === printDepth)
      return problem(p, 'redirects print output to a file with ">"');
    if (c === '@') return problem(p, 'uses a gawk @ directive (@include, @load) or an indirect call', USE.literal);
    if (c === '(') depth++;
    if (c === ')') depth--;
    operand = c === ')' || c === ']' || /[0-9.]/.test(c);
  }
  return null;
}

/** gawk long options that only change parsing or reporting. */
const SAFE_LONG = [
  'field-separator',
  'assign',
  'source',
  'sandbox',
  'posix',
  'traditional',
  'characters-as-bytes',
  're-interval',
  'lint',
  'version',
  'help',
  'use-lc-numeric',
  'non-decimal-data',
  'copyright',
  'optimize',
  'no-optimize',
];

function optionFinding(t: Token): Verdict | null {
  if (t.kind === 'operand') return null;
  const name = t.name;
  if (t.kind === 'short' ? 'fE'.includes(name) : ['file', 'exec'].some((n) => longSelects(name, n))) {
    return (
      optionPathFinding(t) ??
      writing(
        gated(
          'awk-program-file',
          `awk ${q(shown(t))} runs a program file ws_shell cannot check`,
          "Put the program on the command line: awk '{print $1}' FILE.",
        ),
        ['whatever the program file writes (not known before it runs)'],
      )
    );
  }
  // -W passes an implementation option: mawk's -W exec runs a program file, gawk's -W takes any long option.
  if (t.kind === 'short' && name === 'W') {
    return never(
      'awk-option',
      `awk ${q(shown(t))} passes an implementation option (mawk's -W exec runs a program file)`,
      "Put the program on the command line: awk '{print $1}' FILE.",
    );
  }
  // -i/--include loads a library (gawk's "inplace" edits files in place), -l an extension.
  if (t.kind === 'short' ? 'ildDopL'.includes(name) : !SAFE_LONG.some((n) => longSelects(name, n))) {
    return never(
      'awk-option',
      `awk ${q(shown(t))} loads a library or extension (such as inplace), starts a debugger or writes a file`,
      USE.write,
    );
  }
  return null;
}

/** The verdict for `awk ARGS…` (also gawk, mawk, nawk). */
export function checkAwk(name: string, args: readonly Word[]): Verdict {
  const tokens = scanOptions(args, {
    shortValue: 'FvfeEilW',
    shortOptional: 'dDopL',
    longValue: ['field-separator', 'assign', 'file', 'source', 'exec', 'include', 'load'],
  });
  for (const t of tokens) {
    const f = optionFinding(t);
    if (f) return f;
  }
  const given = findAll(tokens, 'e', ['source']);
  const ops = operands(tokens);
  const programs = given.length ? given.map((t) => t.value ?? '') : ops.slice(0, 1).map((o) => o.text);
  if (programs.length === 0)
    return never('awk-program', `${name} without a program does nothing useful`, "Run awk '{print $1}' FILE.");
  for (const p of programs) {
    const f = awkProgramFinding(p);
    if (f) return f;
  }
  // Operands of the form var=value are assignments, not files.
  const files = (given.length ? ops : ops.slice(1))
    .filter((o) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(o.text))
    .map((o) => o.word);
  return pathOperandsFinding(name, files, true) ?? { free: 'filters text only' };
}
