/**
 * jq reads JSON and prints it; it writes nothing. What needs checking is every file it reads —
 * the inputs, `--rawfile`/`--slurpfile` (which take a name and then a path), `-f` program files
 * and `-L` module directories must stay inside the workspace — and the program itself: `env` and
 * `$ENV` print the environment (secrets), `import`/`include`/`modulemeta` load modules from
 * elsewhere. `input_filename` stays allowed: it only names an input file the command line gave.
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import { pathFinding } from './paths.ts';
import type { Word } from './words.ts';
import { writing } from './writers.ts';

/** Long options followed by two words; true when the second is a file jq reads. */
const TWO_VALUES: Readonly<Record<string, boolean>> = {
  '--arg': false,
  '--argjson': false,
  '--rawfile': true,
  '--slurpfile': true,
};
/** Long options followed by one word; true when it is a path. */
const ONE_VALUE: Readonly<Record<string, boolean>> = { '--indent': false, '--library-path': true };
/** jq's long options without a value (jq matches long names exactly, no abbreviations). */
const FLAGS = new Set(
  'null-input raw-input slurp compact-output tab ascii-output unbuffered sort-keys color-output monochrome-output raw-output raw-output0 join-output exit-status seq stream stream-errors help version build-configuration from-file args jsonargs'
    .split(' ')
    .map((n) => `--${n}`),
);
/** jq's short letters (a bundle such as `-nrf` sets each); `-L` takes a directory and must come first. */
const SHORT = 'nRscCMSajrehVf';

/** Identifiers in a jq program that reach outside the JSON it is given. */
const OUTSIDE: Readonly<Record<string, string>> = {
  env: 'prints the environment, which holds secrets',
  $ENV: 'prints the environment, which holds secrets',
  import: 'loads a module from outside the program',
  include: 'loads a module from outside the program',
  modulemeta: 'reads modules from the library search path',
  get_search_list: 'reads the library search path',
};

const IDENT = /[A-Za-z_][A-Za-z0-9_]*/y;

/** The index of the first character at or after `i` that is neither a blank nor inside a `#` comment. */
function afterBlanks(program: string, i: number): number {
  for (; i < program.length; i++) {
    if (program[i] === '#') while (i < program.length && program[i] !== '\n') i++;
    else if (!/\s/.test(program[i]!)) break;
  }
  return i;
}

/**
 * Why a jq program reads the environment or other modules, or null. String literals are skipped
 * except for their `\\(…)` interpolations, which are code; so are comments.
 */
export function jqProgramFinding(program: string): Finding | null {
  let found: Finding | null = null;
  /** Scans code from `i`; with `inner`, stops at the `)` closing an interpolation. Returns where it stopped. */
  const code = (i: number, inner: boolean): number => {
    let depth = 0;
    for (; i < program.length && !found; i++) {
      const c = program[i]!;
      if (c === '"') i = string(i + 1);
      else if (c === '#') while (i < program.length && program[i] !== '\n') i++;
      else if (c === '(') depth++;
      else if (c === ')') {
        if (depth === 0 && inner) return i;
        depth--;
      } else if (c === '$') {
        // jq's lexer lets blanks and comments stand between `$` and the name: `$ ENV` is `$ENV`.
        const at = afterBlanks(program, i + 1);
        IDENT.lastIndex = at;
        const name = program[at] === '$' ? null : IDENT.exec(program);
        const why = name ? OUTSIDE[`$${name[0]}`] : undefined;
        if (why) found = never('jq-program', `jq program ${q(program)} uses $${name![0]}, which ${why}`, USE.readOnly);
        if (name) i = at + name[0].length - 1;
      } else {
        IDENT.lastIndex = i;
        const ident = IDENT.exec(program);
        if (!ident) continue;
        // Field access (`.env`) is not the builtin.
        const why = program[i - 1] !== '.' ? OUTSIDE[ident[0]] : undefined;
        if (why) found = never('jq-program', `jq program ${q(program)} uses ${ident[0]}, which ${why}`, USE.readOnly);
        i += ident[0].length - 1;
      }
    }
    return i;
  };
  /** Skips a string from just after its opening quote; returns the index of its closing quote. */
  const string = (i: number): number => {
    for (; i < program.length && program[i] !== '"'; i++) {
      if (program[i] === '\\') i = program[i + 1] === '(' ? code(i + 2, true) : i + 1;
    }
    return i;
  };
  code(0, false);
  return found;
}

/**
 * The verdict for `jq ARGS…`, read as jq's own parser reads them: short letters bundle (`-nrf`
 * holds `-f`), `-f`/`--from-file` is a flag that makes the first operand the program file, and
 * after `--args`/`--jsonargs` later operands are values, not files — operands before it are
 * still files.
 */
export function checkJq(args: readonly Word[]): Verdict {
  const reads: Word[] = [];
  const positional: { word: Word; value: boolean }[] = [];
  let programFile = false;
  let argsMode = false;
  let optionsDone = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (optionsDone || !t.startsWith('-') || t === '-') {
      positional.push({ word: w, value: argsMode });
      continue;
    }
    if (t === '--') {
      optionsDone = true;
      continue;
    }
    if (t === '--args' || t === '--jsonargs') argsMode = true;
    const two = TWO_VALUES[t];
    const one = ONE_VALUE[t];
    if (two !== undefined) {
      if (i + 2 >= args.length) return never('jq-args', `jq ${t} needs a name and a value`, USE.literal);
      if (two) reads.push(args[i + 2]!);
      i += 2;
    } else if (one !== undefined) {
      if (one && i + 1 < args.length) reads.push(args[i + 1]!);
      i++;
    } else if (t.startsWith('-L')) {
      const dir = t.length > 2 ? { ...w, text: t.slice(2) } : args[++i];
      if (dir) reads.push(dir);
    } else if (FLAGS.has(t)) programFile ||= t === '--from-file';
    else if (!t.startsWith('--') && [...t.slice(1)].every((c) => SHORT.includes(c))) programFile ||= t.includes('f');
    else
      return never(
        'jq-option',
        `jq option ${q(w.raw)} is not one ws_shell knows`,
        "Run jq with its usual options (-r, -c, -n, -s, --arg …): jq -r '.name' package.json.",
      );
  }
  // The first operand is the program (or, with -f, the program file); later ones are files unless they are $ARGS values.
  const [program, ...rest] = positional;
  const inputs = rest.filter((p) => !p.value).map((p) => p.word);
  for (const w of [...reads, ...(programFile && program ? [program.word] : []), ...inputs]) {
    const f = pathFinding(w.text, w.raw);
    if (f) return f;
  }
  if (programFile)
    return writing(
      gated(
        'jq-program-file',
        'jq -f runs a program file ws_shell cannot check',
        "Put the program on the command line: jq '.name' package.json.",
      ),
      [],
    );
  return jqProgramFinding(program?.word.text ?? '.') ?? { free: 'reads JSON and prints it' };
}
