/**
 * jq reads JSON and prints it; it writes nothing. What needs checking is every file it reads —
 * the inputs, `--rawfile`/`--slurpfile` (which take a name and then a path), `-f` program files
 * and `-L` module directories must stay inside the workspace — and the program itself: `env` and
 * `$ENV` print the environment (secrets), `import`/`include` load modules from elsewhere.
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import { pathFinding } from './paths.ts';
import type { Word } from './words.ts';

/** Options followed by two words; the second is a path when the option reads a file. */
const TWO_VALUES: Readonly<Record<string, boolean>> = { '--arg': false, '--argjson': false, '--rawfile': true, '--slurpfile': true };
/** Options followed by one word; true when it is a path. */
const ONE_VALUE: Readonly<Record<string, boolean>> = { '-f': true, '--from-file': true, '-L': true, '--indent': false };

/** Identifiers in a jq program that reach outside the JSON it is given. */
const OUTSIDE: Readonly<Record<string, string>> = {
  env: 'prints the environment, which holds secrets',
  $ENV: 'prints the environment, which holds secrets',
  import: 'loads a module from outside the program',
  include: 'loads a module from outside the program',
};

const IDENT = /\$?[A-Za-z_][A-Za-z0-9_]*/y;

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

/** The verdict for `jq ARGS…`. */
export function checkJq(args: readonly Word[]): Verdict {
  const reads: Word[] = [];
  const positional: Word[] = [];
  let programFile = false;
  let argsMode = false;
  for (let i = 0; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (!t.startsWith('-') || t === '-') {
      positional.push(w);
      continue;
    }
    if (t === '--args' || t === '--jsonargs') {
      // Operands other than the program are then values for $ARGS, not files.
      argsMode = true;
      continue;
    }
    const two = TWO_VALUES[t];
    const one = ONE_VALUE[t];
    if (two !== undefined) {
      if (i + 2 >= args.length) return never('jq-args', `jq ${t} needs a name and a value`, USE.literal);
      if (two) reads.push(args[i + 2]!);
      i += 2;
    } else if (one !== undefined) {
      if (one && i + 1 < args.length) reads.push(args[i + 1]!);
      programFile ||= t === '-f' || t === '--from-file';
      i++;
    } else if (t.startsWith('-L')) reads.push({ ...w, text: t.slice(2) });
  }
  const inputs = argsMode ? [] : programFile ? positional : positional.slice(1);
  for (const w of [...reads, ...inputs]) {
    const f = pathFinding(w.text, w.raw);
    if (f) return f;
  }
  if (programFile) return gated('jq-program-file', 'jq -f runs a program file ws_shell cannot check', "Put the program on the command line: jq '.name' package.json.");
  return jqProgramFinding(positional[0]?.text ?? '.') ?? { free: 'reads JSON and prints it' };
}
