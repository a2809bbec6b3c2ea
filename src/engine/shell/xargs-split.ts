/**
 * GNU xargs, done by the runner instead of run as a process: its options read as GNU xargs
 * reads them, and its input split into the command lines xargs would run — so each of those can
 * be judged by the policy before it runs, and what runs is what was checked. The splitting
 * follows findutils' `read_line` / `read_string`:
 *
 * - by default, arguments are separated by blanks (space, tab) and newlines; leading white space
 *   of a line (also \v \f \r) is skipped; `'…'` and `"…"` quote (not across a newline: that is
 *   "unmatched quote", after which xargs runs what it had, unless -L or -I, and fails), a backslash escapes the
 *   next character (a newline too); an empty quoted `''` is an empty argument; a NUL in the input
 *   is refused (xargs would cut the argument there);
 * - `-0`/`--null` and `-d C`/`--delimiter=C` split at that one character, with no quoting, an
 *   empty item between two delimiters kept and a trailing delimiter ending the last item;
 * - `-n N` runs at most N arguments per command, `-L N` the arguments of at most N input lines
 *   (a line ending in a blank goes on on the next one), `-I R` (`-i`, `--replace`) one command per
 *   line (leading blanks dropped, blanks kept), with R replaced in every word — the command name
 *   included — and `-r` runs nothing for empty input (without it, the command runs once);
 * - without -n/-L/-I, as many arguments as fit in xargs's default 128 KiB command buffer (each
 *   word's bytes plus its NUL) go into one command; a single argument that does not fit fails.
 *
 * Options GNU xargs has and this does not do (`-a`, `-E`/`-e`, `-s`, `-x`, `-t`, `-p`, `-o`, `-P`,
 * `--process-slot-var`, `--show-limits`, …) are refused, with the reason, where the policy reads
 * the command.
 */

/** How one xargs call splits its input, read from its options. */
export interface XargsSpec {
  /** The command and its initial arguments (`echo` when none is given). */
  readonly command: readonly string[];
  /** Split at this one character (-0, -d), or undefined for the default quoting rules. */
  readonly delimiter?: string;
  readonly maxArgs?: number;
  readonly maxLines?: number;
  /** -I: the string replaced by each input line. */
  readonly replace?: string;
  readonly noRunIfEmpty: boolean;
}

/** The commands xargs runs for an input, or, after `error`, what it ran before it failed. */
export interface XargsRun {
  readonly commands: string[][];
  /** xargs's own message when it stops with exit 1 (unmatched quote, argument too long). */
  readonly error?: string;
}

/** GNU xargs' default command buffer: words' bytes plus one NUL each. */
export const XARGS_BUFFER_BYTES = 128 * 1024;

const LONG: Readonly<
  Record<string, 'null' | 'delimiter' | 'max-args' | 'max-lines' | 'replace' | 'no-run-if-empty' | 'refused'>
> = {
  null: 'null',
  delimiter: 'delimiter',
  'max-args': 'max-args',
  'max-lines': 'max-lines',
  replace: 'replace',
  'no-run-if-empty': 'no-run-if-empty',
  'arg-file': 'refused',
  eof: 'refused',
  'max-chars': 'refused',
  'max-procs': 'refused',
  exit: 'refused',
  verbose: 'refused',
  interactive: 'refused',
  'open-tty': 'refused',
  'process-slot-var': 'refused',
  'show-limits': 'refused',
  help: 'refused',
  version: 'refused',
};

/** Short options that take a value (attached or the next word) and those whose value can only be attached. */
const SHORT_VALUE = 'adEILnPs';
const SHORT_OPTIONAL = 'eil';

/** The one character `-d` names: a character, or a C escape as xargs reads it. */
function delimiterOf(value: string): string | null {
  const escapes: Record<string, string> = {
    a: '\x07',
    b: '\b',
    f: '\f',
    n: '\n',
    r: '\r',
    t: '\t',
    v: '\v',
    '\\': '\\',
    '0': '\0',
  };
  if ([...value].length === 1) return value;
  if (value.length === 2 && value[0] === '\\' && Object.hasOwn(escapes, value[1]!)) return escapes[value[1]!]!;
  return null;
}

function count(value: string, option: string): number | string {
  return /^[1-9][0-9]{0,8}$/.test(value)
    ? Number(value)
    : `xargs ${option} needs a positive whole number, not ${JSON.stringify(value)}`;
}

/**
 * Reads xargs's arguments (after the name) as GNU getopt does: bundles, attached values,
 * unambiguous long abbreviations, options up to the first operand. A string says why the call
 * is refused.
 */
export function readXargs(args: readonly string[]): XargsSpec | string {
  let delimiter: string | undefined;
  let maxArgs: number | undefined;
  let maxLines: number | undefined;
  let replace: string | undefined;
  let noRunIfEmpty = false;
  const refused = (o: string) => `xargs ${o} is not an option ws_shell carries out (it does -0, -d, -n, -L, -I and -r)`;
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!;
    if (t === '--') {
      i++;
      break;
    }
    if (!t.startsWith('-') || t === '-') break;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const written = eq < 0 ? t.slice(2) : t.slice(2, eq);
      const matches = Object.keys(LONG).filter((n) => n.startsWith(written));
      const name = Object.hasOwn(LONG, written) ? written : matches.length === 1 ? matches[0]! : undefined;
      if (name === undefined) return `xargs ${t} is ${matches.length ? 'ambiguous' : 'not an option of xargs'}`;
      const takes = ['delimiter', 'max-args'].includes(name);
      let value: string | undefined = eq < 0 ? undefined : t.slice(eq + 1);
      if (value === undefined && takes) {
        value = args[++i];
        if (value === undefined) return `xargs ${t} needs a value`;
      }
      const r = apply(LONG[name]!, value, t);
      if (r) return r;
      continue;
    }
    for (let j = 1; j < t.length; j++) {
      const c = t[j]!;
      const rest = t.slice(j + 1);
      if (SHORT_VALUE.includes(c) || SHORT_OPTIONAL.includes(c)) {
        let value: string | undefined = rest === '' ? undefined : rest;
        if (value === undefined && SHORT_VALUE.includes(c)) {
          value = args[++i];
          if (value === undefined) return `xargs -${c} needs a value`;
        }
        const kind =
          ({ d: 'delimiter', n: 'max-args', L: 'max-lines', I: 'replace', i: 'replace' } as const)[c as 'd'] ??
          'refused';
        const r = apply(kind, c === 'i' ? (value ?? '{}') : value, `-${c}`);
        if (r) return r;
        break;
      }
      const r =
        c === '0'
          ? apply('null', undefined, '-0')
          : c === 'r'
            ? apply('no-run-if-empty', undefined, '-r')
            : refused(`-${c}`);
      if (r) return r;
    }
  }
  const command = args.slice(i);

  function apply(kind: (typeof LONG)[string], value: string | undefined, option: string): string | null {
    switch (kind) {
      case 'null':
        delimiter = '\0';
        return null;
      case 'delimiter': {
        const d = delimiterOf(value ?? '');
        if (d === null)
          return `xargs ${option} takes one character or an escape such as \\n, not ${JSON.stringify(value)}`;
        delimiter = d;
        return null;
      }
      case 'max-args':
      case 'max-lines': {
        const n = count(value ?? (kind === 'max-lines' ? '1' : ''), option);
        if (typeof n === 'string') return n;
        if (kind === 'max-args') maxArgs = n;
        else maxLines = n;
        return null;
      }
      case 'replace':
        if (value === '') return `xargs ${option} needs a non-empty replace string`;
        replace = value ?? '{}';
        return null;
      case 'no-run-if-empty':
        noRunIfEmpty = true;
        return null;
      case 'refused':
        return refused(option);
    }
  }

  if ([maxArgs, maxLines, replace].filter((v) => v !== undefined).length > 1)
    return 'xargs takes only one of -n, -L and -I here (GNU xargs lets the last one win, with a warning)';
  return {
    command: command.length ? command : ['echo'],
    ...(delimiter !== undefined ? { delimiter } : {}),
    ...(maxArgs !== undefined ? { maxArgs } : {}),
    ...(maxLines !== undefined ? { maxLines } : {}),
    ...(replace !== undefined ? { replace } : {}),
    noRunIfEmpty,
  };
}

/** One input line as xargs reads it: its arguments (or, for -I, its text), and whether it counts as a line for -L. */
interface Line {
  readonly args: string[];
  readonly counts: boolean;
}

const BLANK = (c: string) => c === ' ' || c === '\t';
const SPACE = (c: string) => BLANK(c) || c === '\n' || c === '\v' || c === '\f' || c === '\r';

/** The default rules: quotes, backslashes, blanks (not separators with -I). */
function quotedLines(input: string, replaceMode: boolean): { lines: Line[]; error?: string } {
  const lines: Line[] = [];
  let args: string[] = [];
  let arg = '';
  let state: 'space' | 'norm' | 'quote' | 'backslash' = 'space';
  let quote = '';
  let prev = '';
  const push = () => {
    args.push(arg);
    arg = '';
  };
  const end = (counts: boolean) => {
    lines.push({ args, counts });
    args = [];
  };
  for (const c of input) {
    const before = prev;
    prev = c;
    if (state === 'space') {
      if (SPACE(c)) continue;
      state = 'norm';
    }
    if (state === 'norm') {
      if (c === '\n') {
        push();
        end(!BLANK(before));
        state = 'space';
      } else if (!replaceMode && BLANK(c)) {
        push();
        state = 'space';
      } else if (c === '\\') state = 'backslash';
      else if (c === "'" || c === '"') {
        state = 'quote';
        quote = c;
      } else arg += c;
      continue;
    }
    if (state === 'quote') {
      if (c === '\n') {
        end(false);
        return { lines, error: unmatched(quote) };
      }
      if (c === quote) state = 'norm';
      else arg += c;
      continue;
    }
    state = 'norm';
    arg += c;
  }
  // At the end of the input, an argument with no characters yet is dropped, even an open quote.
  if (arg !== '') {
    if (state === 'quote') {
      end(false);
      return { lines, error: unmatched(quote) };
    }
    push();
  }
  if (args.length) end(false);
  return { lines };
}

function unmatched(quote: string): string {
  return `xargs: unmatched ${quote === '"' ? 'double' : 'single'} quote; by default quotes are special to xargs unless you use the -0 option`;
}

/** -0 and -d: items between delimiters, each one a line for -L. */
function delimitedLines(input: string, delimiter: string): Line[] {
  const items = input.split(delimiter);
  if (items[items.length - 1] === '') items.pop();
  return items.map((item) => ({ args: [item], counts: true }));
}

function bytes(s: string): number {
  return new TextEncoder().encode(s).length + 1;
}

/** The command lines xargs runs for `input` under `spec`. */
export function splitXargs(spec: XargsSpec, input: string): XargsRun | string {
  if (spec.delimiter !== '\0' && input.includes('\0'))
    return 'the input to xargs holds a NUL character, which xargs would cut the argument at; use xargs -0 with find -print0';
  const read =
    spec.delimiter !== undefined
      ? { lines: delimitedLines(input, spec.delimiter) }
      : quotedLines(input, spec.replace !== undefined);
  const commands: string[][] = [];
  if (spec.replace !== undefined) {
    const r = spec.replace;
    for (const line of read.lines) {
      const text = line.args.join('');
      if (line.args.length === 0) continue;
      commands.push(spec.command.map((w) => w.split(r).join(text)));
    }
    return read.error ? { commands, error: read.error } : { commands };
  }
  const base = spec.command.reduce((n, w) => n + bytes(w), 0);
  let pending: string[] = [];
  let size = base;
  let lines = 0;
  let ran = false;
  const exec = () => {
    commands.push([...spec.command, ...pending]);
    pending = [];
    size = base;
    lines = 0;
    ran = true;
  };
  for (const line of read.lines) {
    for (const a of line.args) {
      if (base + bytes(a) > XARGS_BUFFER_BYTES) return { commands, error: 'xargs: argument line too long' };
      if (size + bytes(a) > XARGS_BUFFER_BYTES) exec();
      pending.push(a);
      size += bytes(a);
      if (spec.maxArgs !== undefined && pending.length >= spec.maxArgs) exec();
    }
    if (line.counts) lines++;
    if (spec.maxLines !== undefined && lines >= spec.maxLines && pending.length) exec();
  }
  if (read.error) {
    // xargs runs what it holds before it stops, unless -L made it exit on any overflow (-x).
    if (pending.length && spec.maxLines === undefined) exec();
    return { commands, error: read.error };
  }
  if (pending.length || (!spec.noRunIfEmpty && !ran)) exec();
  return { commands };
}
