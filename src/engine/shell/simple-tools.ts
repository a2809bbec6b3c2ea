/**
 * The read-only utilities, as data: for each, what its operands are, which options take values
 * (so bundles and attached values scan exactly), which options read a path, and which options
 * turn it into a writer or a program launcher. One checker applies every entry.
 */
import { gated, never, q, USE, type Finding, type Verdict } from './decision.ts';
import {
  findAll,
  findLong,
  findShort,
  operands,
  scanOptions,
  shown,
  type OptionSpec,
  type OptionToken,
  type Token,
} from './options.ts';
import { optionPathFinding, pathFinding } from './paths.ts';
import { scanTree, scanXxd } from './own-parsers.ts';
import { startsWithGlob, type Word } from './words.ts';

interface Deny {
  readonly short?: string;
  readonly long?: readonly string[];
  readonly tier: 'never' | 'gated';
  /** Completes "<option> …", e.g. "writes its output to a file". */
  readonly why: string;
  readonly use: string;
}

/** One read-only utility, described as data. */
export interface SimpleTool {
  /** paths: every operand is a file to read; data: operands are text; pattern: the first operand is a pattern unless given by option. */
  readonly operands: 'paths' | 'data' | 'pattern';
  readonly options?: OptionSpec;
  /** For a tool that does not scan options the getopt way: its own scanner (own-parsers.ts). */
  readonly scan?: (args: readonly Word[]) => Token[];
  /** Options (short letters or long names) whose value is a path the tool reads. */
  readonly pathOptions?: readonly string[];
  /** Options that supply the pattern, so every operand is a path (grep -e, rg -f …). */
  readonly patternOptions?: readonly string[];
  readonly deny?: readonly Deny[];
  /** 1-based operand that the tool writes to (uniq IN OUT, xxd IN OUT). */
  readonly outputOperand?: number;
  /**
   * Options that make the tool read the names of the files to read from a file or stdin
   * (`--files0-from`, `file -f`, `sha256sum -c`): those names are not on the command line, so
   * the jail never sees them, and the command is gated.
   */
  readonly namesFrom?: readonly string[];
  /** The tool expands `@FILE` operands into more arguments read from FILE (binutils response files). */
  readonly responseFiles?: true;
}

const WRITES_FILE = 'writes its output to a file';
const GREP_LONG = [
  'regexp',
  'file',
  'max-count',
  'after-context',
  'before-context',
  'context',
  'directories',
  'devices',
  'include',
  'exclude',
  'exclude-dir',
  'exclude-from',
  'label',
  'binary-files',
  'group-separator',
];
const GREP: SimpleTool = {
  operands: 'pattern',
  options: { shortValue: 'efmABCdD', longValue: GREP_LONG },
  pathOptions: ['f', 'file', 'exclude-from'],
  patternOptions: ['e', 'f', 'regexp', 'file'],
};
const CHECKSUM: SimpleTool = { operands: 'paths', options: {}, namesFrom: ['c', 'check'] };

/** The free utilities by name. */
export const SIMPLE_TOOLS: Readonly<Record<string, SimpleTool>> = {
  ls: {
    operands: 'paths',
    options: {
      shortValue: 'IwT',
      longValue: [
        'ignore',
        'hide',
        'width',
        'tabsize',
        'format',
        'sort',
        'time',
        'time-style',
        'block-size',
        'quoting-style',
        'indicator-style',
      ],
    },
  },
  cat: { operands: 'paths' },
  head: { operands: 'paths', options: { shortValue: 'nc', longValue: ['lines', 'bytes'] } },
  tail: {
    operands: 'paths',
    options: { shortValue: 'ncs', longValue: ['lines', 'bytes', 'pid', 'sleep-interval', 'max-unchanged-stats'] },
    deny: [
      {
        short: 'fF',
        long: ['follow', 'retry'],
        tier: 'never',
        why: 'follows the file and never exits',
        use: 'Read the end once with tail -n 50 FILE, or use ws_read.',
      },
    ],
  },
  wc: {
    operands: 'paths',
    options: { longValue: ['files0-from'] },
    pathOptions: ['files0-from'],
    namesFrom: ['files0-from'],
  },
  nl: { operands: 'paths', options: { shortValue: 'bdfhilnsvw' } },
  tac: { operands: 'paths', options: { shortValue: 's', longValue: ['separator'] } },
  rev: { operands: 'paths' },
  uniq: {
    operands: 'paths',
    options: { shortValue: 'fsw', longValue: ['skip-fields', 'skip-chars', 'check-chars'] },
    outputOperand: 2,
  },
  sort: {
    operands: 'paths',
    options: {
      shortValue: 'kStTo',
      longValue: [
        'key',
        'buffer-size',
        'field-separator',
        'temporary-directory',
        'output',
        'compress-program',
        'files0-from',
        'parallel',
        'batch-size',
        'random-source',
        'sort',
      ],
    },
    pathOptions: ['T', 'temporary-directory', 'files0-from', 'random-source'],
    namesFrom: ['files0-from'],
    deny: [
      { short: 'o', long: ['output'], tier: 'never', why: WRITES_FILE, use: USE.write },
      {
        long: ['compress-program'],
        tier: 'never',
        why: 'runs a program on the temporary files',
        use: 'Sort without --compress-program.',
      },
    ],
  },
  cut: {
    operands: 'paths',
    options: { shortValue: 'bcdf', longValue: ['bytes', 'characters', 'delimiter', 'fields', 'output-delimiter'] },
  },
  tr: { operands: 'data' },
  paste: { operands: 'paths', options: { shortValue: 'd', longValue: ['delimiters'] } },
  join: { operands: 'paths', options: { shortValue: 'aeojtv12' } },
  comm: { operands: 'paths' },
  diff: {
    operands: 'paths',
    options: {
      shortValue: 'CUFILSWxXD',
      longValue: [
        'exclude',
        'exclude-from',
        'ignore-matching-lines',
        'label',
        'starting-file',
        'width',
        'context',
        'unified',
        'ifdef',
        'line-format',
        'tabsize',
        'horizon-lines',
        'to-file',
        'from-file',
        'palette',
      ],
    },
    pathOptions: ['X', 'exclude-from', 'to-file', 'from-file'],
  },
  cmp: { operands: 'paths', options: { shortValue: 'in', longValue: ['ignore-initial', 'bytes'] } },
  file: {
    operands: 'paths',
    options: { shortValue: 'fmFeP', longValue: ['files-from', 'magic-file', 'separator', 'exclude', 'parameter'] },
    pathOptions: ['f', 'files-from', 'm', 'magic-file'],
    namesFrom: ['f', 'files-from'],
    deny: [
      {
        short: 'C',
        long: ['compile'],
        tier: 'never',
        why: 'writes a compiled magic file',
        use: 'Run file without -C.',
      },
    ],
  },
  stat: { operands: 'paths', options: { shortValue: 'c', longValue: ['format', 'printf'] } },
  du: {
    operands: 'paths',
    options: {
      shortValue: 'BdXt',
      longValue: ['block-size', 'max-depth', 'exclude-from', 'exclude', 'threshold', 'time-style', 'files0-from'],
    },
    pathOptions: ['X', 'exclude-from', 'files0-from'],
    namesFrom: ['files0-from'],
  },
  df: {
    operands: 'paths',
    options: { shortValue: 'Btx', longValue: ['block-size', 'type', 'exclude-type', 'output'] },
  },
  tree: {
    operands: 'paths',
    scan: scanTree,
    pathOptions: ['gitfile', 'infofile', 'hintro', 'houtro'],
    deny: [
      { short: 'o', tier: 'never', why: WRITES_FILE, use: 'Run tree without -o; ws_list also shows the tree.' },
      { short: 'R', tier: 'never', why: 'writes an HTML listing into every directory', use: 'Run tree without -R.' },
    ],
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rg: {
    operands: 'pattern',
    options: {
      shortValue: 'ABCdefgjmMrtTE',
      longValue: [
        'regexp',
        'file',
        'glob',
        'iglob',
        'type',
        'type-not',
        'type-add',
        'type-clear',
        'after-context',
        'before-context',
        'context',
        'max-count',
        'max-columns',
        'replace',
        'threads',
        'encoding',
        'max-depth',
        'max-filesize',
        'ignore-file',
        'pre',
        'pre-glob',
        'hostname-bin',
        'sort',
        'sortr',
        'colors',
        'color',
        'context-separator',
        'path-separator',
        'engine',
        'dfa-size-limit',
        'regex-size-limit',
      ],
    },
    pathOptions: ['f', 'file', 'ignore-file'],
    patternOptions: ['e', 'f', 'regexp', 'file', 'files', 'type-list'],
    deny: [
      {
        long: ['pre', 'hostname-bin'],
        tier: 'never',
        why: 'runs an external program for every file it searches',
        use: 'Search without it, or use ws_grep.',
      },
      {
        short: 'z',
        long: ['search-zip'],
        tier: 'never',
        why: 'spawns decompression programs',
        use: 'Search without -z, or use ws_grep.',
      },
    ],
  },
  echo: { operands: 'data' },
  printf: { operands: 'data' },
  pwd: { operands: 'data' },
  whoami: { operands: 'data' },
  id: { operands: 'data' },
  uname: { operands: 'data' },
  nproc: { operands: 'data' },
  date: {
    operands: 'data',
    options: { shortValue: 'dfrs', shortOptional: 'I', longValue: ['date', 'file', 'reference', 'set'] },
    pathOptions: ['f', 'file', 'r', 'reference'],
    deny: [
      {
        short: 's',
        long: ['set'],
        tier: 'never',
        why: 'sets the system clock',
        use: 'Print the date with date or date +FORMAT.',
      },
    ],
  },
  which: { operands: 'data' },
  type: { operands: 'data' },
  basename: { operands: 'data' },
  dirname: { operands: 'data' },
  realpath: { operands: 'paths' },
  readlink: { operands: 'paths' },
  true: { operands: 'data' },
  false: { operands: 'data' },
  test: { operands: 'data' },
  seq: { operands: 'data' },
  expr: { operands: 'data' },
  numfmt: { operands: 'data' },
  base64: {
    operands: 'paths',
    options: { shortValue: 'wbio', longValue: ['wrap', 'input', 'output'] },
    pathOptions: ['i', 'input'],
    deny: [{ short: 'o', long: ['output'], tier: 'never', why: WRITES_FILE, use: 'Let base64 print to stdout.' }],
  },
  md5sum: CHECKSUM,
  sha1sum: CHECKSUM,
  sha256sum: CHECKSUM,
  sha512sum: CHECKSUM,
  b2sum: CHECKSUM,
  cksum: CHECKSUM,
  od: { operands: 'paths', options: { shortValue: 'AjNtS', shortOptional: 'w' } },
  hexdump: { operands: 'paths', options: { shortValue: 'efns' }, pathOptions: ['f'] },
  xxd: { operands: 'paths', scan: scanXxd, outputOperand: 2 },
  strings: { operands: 'paths', options: { shortValue: 'nteT' }, responseFiles: true },
  column: { operands: 'paths', options: { shortValue: 'cCsoONRHWTElnrip' } },
  fold: { operands: 'paths', options: { shortValue: 'w' } },
  fmt: { operands: 'paths', options: { shortValue: 'wpg' } },
  expand: { operands: 'paths', options: { shortValue: 't' } },
  unexpand: { operands: 'paths', options: { shortValue: 't' } },
};

/** True when appending arbitrary words (as xargs does) can never turn the tool into a writer. */
export function injectionSafe(tool: SimpleTool): boolean {
  return !tool.deny && tool.outputOperand === undefined;
}

/** Options named in a list that mixes short letters and long names. */
function optionsIn(tokens: readonly Token[], names: readonly string[]): OptionToken[] {
  return findAll(
    tokens,
    names.filter((n) => n.length === 1).join(''),
    names.filter((n) => n.length > 1),
  );
}

/** Checks one call of a simple tool: refused options, output operands, and every path it reads. */
export function checkSimple(name: string, tool: SimpleTool, args: readonly Word[]): Verdict {
  const tokens = tool.scan ? tool.scan(args) : scanOptions(args, tool.options ?? {});
  for (const d of tool.deny ?? []) {
    const hit = (d.short ? findShort(tokens, d.short) : undefined) ?? (d.long ? findLong(tokens, d.long) : undefined);
    if (hit) {
      const what = `${name} ${q(shown(hit))} ${d.why}`;
      return d.tier === 'never' ? never('writer-flag', what, d.use) : gated('writer-flag', what, d.use);
    }
  }
  for (const t of tool.pathOptions ? optionsIn(tokens, tool.pathOptions) : []) {
    const f = optionPathFinding(t);
    if (f) return f;
  }
  const ops = operands(tokens);
  const response = tool.responseFiles ? args.find((w) => w.text.startsWith('@')) : undefined;
  if (response) {
    return never(
      'response-file',
      `${name} ${q(response.raw)} reads more arguments from the file ${q(response.text.slice(1))}, which the policy cannot check`,
      `Give the arguments on the command line; a file whose name starts with @ is ./${response.text}.`,
    );
  }
  const names = tool.namesFrom ? optionsIn(tokens, tool.namesFrom)[0] : undefined;
  if (names) {
    return gated(
      'names-from',
      `${name} ${q(shown(names))} reads the names of the files to read from ${names.value === null ? 'the lists it is given' : names.value === '-' ? 'stdin' : q(names.value)}, which can name files outside the workspace`,
      'Name the files on the command line instead: there every path is checked.',
    );
  }
  if (tool.outputOperand !== undefined && ops.length >= tool.outputOperand) {
    return never(
      'writer-operand',
      `${name} writes its output to ${q(ops[tool.outputOperand - 1]!.word.raw)}`,
      USE.write,
    );
  }
  if (tool.operands === 'data') return { free: 'is read-only' };
  const patternGiven = tool.operands === 'pattern' && optionsIn(tokens, tool.patternOptions ?? []).length > 0;
  const files = tool.operands === 'pattern' && !patternGiven ? ops.slice(1) : ops;
  return (
    pathOperandsFinding(
      name,
      files.map((o) => o.word),
      tool.deny !== undefined,
    ) ?? { free: 'is read-only' }
  );
}

/**
 * The jail for operands that name files. When the tool has options that write or run programs,
 * an operand starting with a glob is refused too: it can expand to a file named like `-o`.
 */
export function pathOperandsFinding(
  name: string,
  files: readonly Word[],
  hasDangerousOptions: boolean,
): Finding | null {
  for (const w of files) {
    if (hasDangerousOptions && startsWithGlob(w)) {
      return never(
        'glob-option',
        `${name} ${q(w.raw)} starts with a pattern that can expand to a file named like an option`,
        'Start the pattern with a directory (./*.txt, src/*.ts).',
      );
    }
    const f = pathFinding(w.text, w.raw);
    if (f) return f;
  }
  return null;
}
