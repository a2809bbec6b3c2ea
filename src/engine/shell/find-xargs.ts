/**
 * find and xargs, the two classic ways to run a second command from a read-only one. find is
 * free without actions (-exec, -execdir, -ok, -okdir, -delete, -fprint*, -fls), checked on the
 * decoded words so `-'exec'` or `-de\lete` cannot hide one, and refusing any option-shaped
 * pattern (`-del*`) that could expand to one. xargs is free only when the command it runs is a
 * read-only tool that no appended argument can turn into a writer; its own options are scanned
 * exactly so that the first word of that command is found. The runner carries xargs out itself,
 * judging each command it starts (tools/xargs-run.ts).
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import { familyOf } from './families.ts';
import { longSelects, operands, scanOptions, shown, type OptionSpec } from './options.ts';
import { pathFinding } from './paths.ts';
import { readXargs } from './xargs-split.ts';
import { checkSimple, injectionSafe, pathOperandsFinding, SIMPLE_TOOLS } from './simple-tools.ts';
import { hasGlob, type Word } from './words.ts';

const ACTIONS: Readonly<Record<string, string>> = {
  '-exec': 'runs a command for every match',
  '-execdir': 'runs a command for every match',
  '-ok': 'runs a command for every match',
  '-okdir': 'runs a command for every match',
  '-delete': 'deletes every match',
  '-fprint': 'writes its results to a file',
  '-fprint0': 'writes its results to a file',
  '-fprintf': 'writes its results to a file',
  '-fls': 'writes its results to a file',
};

/** Predicates whose value names a file find reads. */
const PATH_PREDICATES = new Set(['-newer', '-anewer', '-cnewer', '-samefile', '-files0-from']);

/** The verdict for `find ARGS…`. */
export function checkFind(args: readonly Word[]): Verdict {
  let i = 0;
  // Leading options: -H -L -P, -D debugopts, -Olevel.
  while (i < args.length && /^-(?:[HLP]|O\d*|D)$/.test(args[i]!.text)) i += args[i]!.text === '-D' ? 2 : 1;
  const starts: Word[] = [];
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (t.startsWith('-') || ['(', '!', ')', ','].includes(t)) break;
    starts.push(args[i]!);
  }
  const startFinding = pathOperandsFinding('find', starts, true);
  if (startFinding) return startFinding;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const action = ACTIONS[w.text];
    if (action !== undefined) {
      return never(
        'find-action',
        `find ${q(w.raw)} ${action}`,
        w.text === '-delete' ? `${USE.delete} ${USE.find}` : USE.find,
      );
    }
    if (w.text.startsWith('-') && hasGlob(w)) {
      return never(
        'glob-option',
        `find ${q(w.raw)} is a pattern that can expand to an action such as -delete`,
        'Write find predicates out in full.',
      );
    }
    // -newerXY with a reference file (X is a, B, c or m; Y is a, B, c or m, or t for a date string).
    if ((PATH_PREDICATES.has(w.text) || /^-newer[aBcm][aBcm]$/.test(w.text)) && i + 1 < args.length) {
      const f = pathFinding(args[i + 1]!.text, args[i + 1]!.raw);
      if (f) return f;
    }
    if (w.text === '-files0-from') {
      const from = args[i + 1]?.text ?? '';
      return gated(
        'names-from',
        `find -files0-from ${q(from)} reads the names of the starting points from ${from === '-' ? 'stdin' : q(from)}, which can name directories outside the workspace`,
        'Name the starting points on the command line instead: there every path is checked.',
      );
    }
  }
  return { free: 'is read-only' };
}

/** GNU xargs: -e/-i/-l take an optional attached value, the rest of these a value; options stop at the command. */
const XARGS_SPEC: OptionSpec = {
  shortValue: 'adEILnPs',
  shortOptional: 'eil',
  longValue: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
  stopAtOperand: true,
};

/**
 * The verdict for `xargs OPTIONS… COMMAND ARGS…`. The runner carries xargs out itself
 * (xargs-split.ts) and judges every command it would start, so options it does not carry out
 * (`-a`, `-P`, `-t` …) are refused here, and so is an `-I` string in the command name (the
 * input would choose the program).
 */
export function checkXargs(args: readonly Word[]): Verdict {
  const spec = readXargs(args.map((w) => w.text));
  if (typeof spec === 'string')
    return never(
      'xargs-option',
      spec,
      'Use xargs with -0, -d, -n, -L, -I or -r only, or pass the files to the command directly.',
    );
  const tokens = scanOptions(args, XARGS_SPEC);
  const command = operands(tokens);
  const name = command[0];
  if (name === undefined) return { free: 'prints its input' };
  if (spec.replace !== undefined && name.text.includes(spec.replace)) {
    return never(
      'xargs',
      `xargs -I ${q(spec.replace)} would put its input into the command name ${q(name.word.raw)}, so the input would choose the program`,
      'Name the command plainly.',
    );
  }
  const tool = SIMPLE_TOOLS[name.text];
  if (tool && injectionSafe(tool) && name.word.plain)
    return checkSimple(
      name.text,
      tool,
      command.slice(1).map((o) => o.word),
    );
  const family = familyOf(name.text);
  const why = family ? `${family.why}` : 'is not a read-only tool that appended arguments cannot turn into a writer';
  return never(
    'xargs',
    `xargs runs ${q(name.word.raw)}, which ${why}`,
    family?.use ?? `xargs may run wc, cat, grep, ls, head and similar read-only tools. ${USE.find}`,
  );
}

/** Tools that pass lines of their input through unchanged (a subset, reordered), when given no file operand. */
const LINE_FILTERS = new Set(['grep', 'egrep', 'fgrep', 'head', 'tail', 'sort', 'uniq']);

/** True when a stage prints only paths below the directories it names (which the jail already checked). */
function listsPaths(words: readonly Word[]): boolean {
  const [name, ...args] = words.map((w) => w.text);
  // Long listings (`ls -l`, `find -ls`, `-printf`) print symlink targets and free text, not just names.
  if (name === 'find') return !args.some((a) => ['-printf', '-fprintf', '-ls', '-fls'].includes(a));
  if (name === 'ls') return !args.some((a) => /^-[^-]*[lngo]/.test(a) || a.startsWith('--format'));
  if (name === 'git')
    return (
      ['ls-files', 'diff', 'ls-tree'].includes(args[0] ?? '') &&
      !args.some((a) => a.startsWith('--format')) &&
      (args[0] === 'ls-files' || args.includes('--name-only'))
    );
  if (name === 'rg') return args.some((a) => ['--files', '-l', '--files-with-matches'].includes(a));
  if (name === 'grep' || name === 'egrep' || name === 'fgrep')
    return args.some((a) => /^-[^-]*[lL]/.test(a) || ['--files-with-matches', '--files-without-match'].includes(a));
  return false;
}

/** True when a stage only filters the lines it reads from the pipe (no file operands, no -o). */
function passesLines(words: readonly Word[]): boolean {
  const name = words[0]?.text ?? '';
  const tool = SIMPLE_TOOLS[name];
  if (!tool || !LINE_FILTERS.has(name)) return false;
  const tokens = scanOptions(words.slice(1), tool.options ?? {});
  if (tokens.some((t) => t.kind !== 'operand' && (t.name === 'o' || t.name.startsWith('only')))) return false;
  // head/tail -c cut bytes, not lines: `tail -c +2` turns "./x" into "/x".
  if (
    (name === 'head' || name === 'tail') &&
    tokens.some((t) => t.kind !== 'operand' && (t.name === 'c' || t.name.startsWith('bytes')))
  )
    return false;
  return (
    operands(tokens).length <=
    (tool.operands === 'pattern' && !tokens.some((t) => t.kind !== 'operand' && 'ef'.includes(t.name)) ? 1 : 0)
  );
}

/**
 * The pipeline rule for xargs: the paths it hands a file-reading tool come from its input, which
 * the jail never sees, so that input must come from a stage that lists workspace paths (find,
 * ls, git ls-files, rg --files, grep -l), possibly through line filters (grep, head, sort …).
 * `echo /proc/self/environ | xargs cat`, a heredoc or a redirected file feeding `xargs cat`
 * are refused. `stages` are the pipeline's decoded words, name first.
 */
export function xargsInputFinding(stages: readonly (readonly Word[])[]): Finding | null {
  for (let i = 0; i < stages.length; i++) {
    const words = stages[i]!;
    if (words[0]?.text !== 'xargs') continue;
    const xargsTokens = scanOptions(words.slice(1), XARGS_SPEC);
    const command = operands(xargsTokens)[0];
    const tool = command ? SIMPLE_TOOLS[command.text] : undefined;
    if (!tool || tool.operands === 'data') continue;
    // A delimiter of its own makes other names of the lister's lines ("./x" split at "." is "/x").
    const delimiter = xargsTokens.find(
      (t) => t.kind !== 'operand' && (t.name === 'd' || longSelects(t.name, 'delimiter')),
    );
    if (delimiter) {
      return never(
        'xargs-input',
        `xargs ${q(shown(delimiter))} splits the listed paths at a delimiter of its own, which can turn them into other paths`,
        'Use xargs without -d (or -0 with find -print0).',
      );
    }
    let from = i - 1;
    while (from >= 0 && passesLines(stages[from]!)) from--;
    if (from < 0 || !listsPaths(stages[from]!)) {
      const source =
        from < 0 ? 'its own input (a redirection, a heredoc or nothing)' : q(stages[from]!.map((w) => w.raw).join(' '));
      return never(
        'xargs-input',
        `xargs ${command!.text} reads the files named by ${source}, which can name any file, /proc/self/environ included`,
        `Feed xargs from a command that lists workspace paths (find, git ls-files, rg --files, grep -l), or pass the files directly: ${command!.text} FILE….`,
      );
    }
  }
  return null;
}
