/**
 * Commands that write files — cp, mv, touch, mkdir, ln, install, chmod, truncate, split, patch,
 * archivers and compressors, curl and wget — modelled so that the policy knows which paths each
 * call writes. Every such path goes through the write jail: one inside `.git/` or `.slmcode/`
 * (outside `scratch/`), outside the workspace, or spelled as a pattern refuses the command
 * outright; otherwise it is gated, and the decision lists the paths for the approval prompt.
 * Options that make a writer run a program (`tar --to-command`, `split --filter`, `zip -TT`,
 * `wget -e`) are refused, as are writes whose paths the server or the archive chooses in ways
 * that can name `.git/` (`wget -r/-x`).
 */
import { never, q, type Finding, type Verdict } from './decision.ts';
import {
  findAll,
  findLong,
  findShort,
  operands,
  scanOptions,
  shown,
  tail,
  type OptionSpec,
  type OptionToken,
  type Token,
} from './options.ts';
import { optionWriteFinding, pathFinding, writePathFinding } from './paths.ts';
import { hasGlob, type Word } from './words.ts';

/** A gated finding that carries the paths the command would write. */
export function writing(finding: Finding, writes: readonly string[]): Finding {
  return { ...finding, writes };
}

/** What one call of a writer touches. */
interface Effects {
  /** Paths it writes (created, changed, removed or replaced), listed for the approval prompt. */
  readonly writes: readonly Target[];
  /** Paths it reads, which must stay in the workspace. */
  readonly reads: readonly Word[];
  /** Paths that must stay out of protected areas though they are not listed (ln's link target). */
  readonly guards?: readonly Word[];
  /** Writes whose names are only known when it runs, described for the prompt. */
  readonly unknown?: readonly string[];
}

/** A path written: a word (an operand), an option value, or a derived name with the word it came from. */
type Target = Word | OptionToken | { readonly derived: string; readonly raw: string };

type Model = {
  readonly spec: OptionSpec;
  readonly effects: (tokens: readonly Token[], args: readonly Word[]) => Effects | Finding;
};

function isFindingValue(v: Effects | Finding): v is Finding {
  return 'tier' in v;
}

function targetFinding(t: Target): Finding | null {
  if ('derived' in t) return writePathFinding(t.derived, t.raw);
  if ('kind' in t) return optionWriteFinding(t);
  return writePathFinding(t.text, t.raw, t);
}

function targetText(t: Target): string {
  if ('derived' in t) return t.derived;
  if ('kind' in t) return t.value ?? '';
  return t.text;
}

const opWords = (tokens: readonly Token[]): Word[] => operands(tokens).map((o) => o.word);

/** cp, mv, ln, install: SOURCE… DEST, or -t DIR SOURCE…; `moves` says the sources are written too. */
function copyLike(moves: boolean, linkGuard = false): Model['effects'] {
  return (tokens) => {
    const ops = opWords(tokens);
    const dir = findShort(tokens, 't') ?? findLong(tokens, ['target-directory']);
    const dest: Target[] = dir ? [dir] : ops.slice(-1);
    const sources = dir ? ops : ops.slice(0, -1);
    // `ln -s TARGET` alone makes a link named like TARGET in the workspace root.
    const only = ops.length === 1 && !dir ? ops[0]! : null;
    if (linkGuard)
      return {
        writes: only ? [{ derived: only.text.split('/').filter(Boolean).pop() ?? '', raw: only.raw }] : dest,
        reads: [],
        guards: ops,
      };
    return { writes: moves ? [...sources, ...dest] : dest, reads: moves ? [] : sources };
  };
}

/** Every operand is written (touch, mkdir, truncate, mkfifo, compressors). */
const eachOperand: Model['effects'] = (tokens) => ({ writes: opWords(tokens), reads: [] });

/** True for a mode that sets setuid, setgid or sticky bits: `u+s`, `g=rxs`, `4755`. */
export function specialBits(mode: string): boolean {
  if (/^[0-7]{4,}$/.test(mode)) return /[1-7]/.test(mode.slice(0, -3));
  return mode.split(',').some((part) => /^[ugoa]*[+=][rwxXst]*[st]/.test(part));
}

function modeFinding(mode: string, raw: string): Finding | null {
  return specialBits(mode)
    ? never(
        'system',
        `the mode ${q(raw)} sets the setuid, setgid or sticky bit`,
        'Set ordinary modes only (chmod +x FILE).',
      )
    : null;
}

/** chmod [-R] MODE FILE… (a mode may look like an option: `chmod -x f`), or --reference=RFILE FILE…. */
function chmodEffects(args: readonly Word[]): Effects | Finding {
  const files: Word[] = [];
  let mode: Word | null = null;
  let reference = false;
  let recursive = false;
  for (const w of args) {
    const t = w.text;
    if (/^--recursive$|^-[cfvR]+$/.test(t)) recursive ||= t.includes('R') || t === '--recursive';
    else if (t.startsWith('--reference=')) reference = true;
    else if (t.startsWith('--')) continue;
    else if (mode === null && !reference) mode = w;
    else files.push(w);
  }
  const special = mode ? modeFinding(mode.text, mode.raw) : null;
  if (special) return special;
  const root = recursive ? files.find((w) => w.text.split('/').every((s) => s === '' || s === '.')) : undefined;
  if (root)
    return never(
      'protected-path',
      `chmod -R ${q(root.raw)} changes the modes under .git/ and .slmcode/ too`,
      'Name the directories to change (chmod -R u+w src).',
    );
  return { writes: files, reads: [] };
}

/** split [FILE [PREFIX]]: writes PREFIXaa, PREFIXab … (prefix x by default). */
const splitEffects: Model['effects'] = (tokens) => {
  const ops = opWords(tokens);
  const prefix = ops[1];
  if (prefix && hasGlob(prefix)) return writePathFinding(prefix.text, prefix.raw, prefix)!;
  const base = prefix?.text ?? 'x';
  return {
    writes: [{ derived: `${base}aa`, raw: prefix?.raw ?? 'x' }],
    reads: ops.slice(0, 1),
    unknown: [`${base}ab … (one file per piece)`],
  };
};

/** csplit FILE PATTERN…: writes PREFIX00, PREFIX01 … (-f PREFIX, xx by default). */
const csplitEffects: Model['effects'] = (tokens) => {
  const prefix = findShort(tokens, 'f') ?? findLong(tokens, ['prefix']);
  const ops = opWords(tokens);
  if (prefix?.valueWord && hasGlob(prefix.valueWord)) return optionWriteFinding(prefix)!;
  const base = prefix?.value ?? 'xx';
  return {
    writes: [{ derived: `${base}00`, raw: prefix ? shown(prefix) : 'xx' }],
    reads: ops.slice(0, 1),
    unknown: [`${base}01 … (one file per piece)`],
  };
};

/** patch: the files it changes are named inside the patch, so only the options' paths are known. */
const patchEffects: Model['effects'] = (tokens) => {
  const ops = opWords(tokens);
  const input = findShort(tokens, 'i') ?? findLong(tokens, ['input']);
  const out = findAll(tokens, 'orB', ['output', 'reject-file', 'prefix']);
  const dir = findShort(tokens, 'd') ?? findLong(tokens, ['directory']);
  const writes: Target[] = [...ops.slice(0, 1), ...out, ...(dir ? [dir] : [])];
  return {
    writes,
    reads: [...(input?.valueWord ? [input.valueWord] : []), ...ops.slice(1)],
    unknown: ['the files named inside the patch (not known before it runs)'],
  };
};

/** Archive members named on the command line, as the paths extraction into `base` writes (a pattern stays a word, so the jail sees it). */
function members(base: string, names: readonly Word[]): Target[] {
  return names.map((w) => (base === '.' || hasGlob(w) ? w : { derived: `${base}/${w.text}`, raw: w.raw }));
}

function archiveMembers(base: string): string {
  return `the archive's members under ${base === '.' ? 'the workspace root' : base} (not known before it runs)`;
}

/** Options of tar that run a program or read more options. */
const TAR_PROGRAM = [
  'to-command',
  'use-compress-program',
  'rsh-command',
  'info-script',
  'new-volume-script',
  'checkpoint-action',
  'rmt-command',
];

/** tar's old style (`tar xzf a.tgz`): the first word is a bundle whose value letters take the next words in order. */
function tarArgs(args: readonly Word[]): Word[] {
  const first = args[0];
  if (!first || first.text.startsWith('-') || !/^[A-Za-z]+$/.test(first.text)) return [...args];
  const out: Word[] = [];
  let next = 1;
  for (const c of first.text) {
    out.push({ ...first, text: `-${c}`, quoted: [false, false] });
    if (TAR_SPEC.shortValue!.includes(c) && next < args.length) out.push(args[next++]!);
  }
  return [...out, ...args.slice(next)];
}

const TAR_SPEC: OptionSpec = {
  shortValue: 'fCTXgbHNKVILF',
  longValue: [
    'file',
    'directory',
    'files-from',
    'exclude-from',
    'exclude',
    'listed-incremental',
    'blocking-factor',
    'format',
    'newer',
    'newer-mtime',
    'after-date',
    'starting-file',
    'label',
    'use-compress-program',
    'to-command',
    'transform',
    'xform',
    'owner',
    'group',
    'mode',
    'mtime',
    'strip-components',
    'index-file',
    'rsh-command',
    'info-script',
    'new-volume-script',
    'checkpoint-action',
    'suffix',
    'record-size',
    'tape-length',
    'rmt-command',
    'volno-file',
  ],
};

function tarEffects(tokens: readonly Token[]): Effects | Finding {
  const runs = findLong(tokens, TAR_PROGRAM) ?? findShort(tokens, 'IF');
  if (runs)
    return never(
      'writer-flag',
      `tar ${q(shown(runs))} runs a program or script`,
      'Run tar without it; a person approves plain archive commands.',
    );
  const rename = findLong(tokens, ['transform', 'xform']);
  const extract = !!(findShort(tokens, 'x') ?? findLong(tokens, ['extract', 'get']));
  if (rename && extract)
    return never(
      'writer-flag',
      `tar ${q(shown(rename))} renames the members it writes, which can put them under .git/`,
      'Extract without --transform.',
    );
  const creates = !!(
    findShort(tokens, 'cruA') ?? findLong(tokens, ['create', 'append', 'update', 'catenate', 'concatenate', 'delete'])
  );
  const archive = findShort(tokens, 'f') ?? findLong(tokens, ['file']);
  const dir = findShort(tokens, 'C') ?? findLong(tokens, ['directory']);
  const lists = findAll(tokens, 'TX', ['files-from', 'exclude-from']).flatMap((t) =>
    t.valueWord ? [t.valueWord] : [],
  );
  const side = findAll(tokens, 'g', ['listed-incremental', 'index-file', 'volno-file']);
  const ops = opWords(tokens);
  if (extract) {
    const base = dir?.value ?? '.';
    return {
      writes: [...(dir ? [dir] : []), ...members(base, ops), ...side],
      reads: [...(archive?.valueWord ? [archive.valueWord] : []), ...lists],
      unknown: ops.length ? [] : [archiveMembers(base)],
    };
  }
  if (creates)
    return {
      writes: [...(archive ? [archive] : []), ...side],
      reads: [...ops, ...lists, ...(dir?.valueWord ? [dir.valueWord] : [])],
    };
  return { writes: [], reads: [...(archive?.valueWord ? [archive.valueWord] : []), ...lists] };
}

/** zip ZIPFILE FILES…; `-m` deletes the files it added; `-TT` runs a test program. */
function zipEffects(tokens: readonly Token[]): Effects | Finding {
  const runs =
    findLong(tokens, ['unzip-command']) ??
    tokens.find((t) => t.kind === 'short' && t.name === 'T' && t.word.text.includes('TT'));
  if (runs)
    return never('writer-flag', `zip ${q(shown(runs))} runs a program to test the archive`, 'Run zip without -TT.');
  const ops = opWords(tokens);
  const moves = !!(findShort(tokens, 'm') ?? findLong(tokens, ['move']));
  const out = findAll(tokens, 'Ob', ['output-file', 'temp-path']);
  return { writes: [...ops.slice(0, 1), ...out, ...(moves ? ops.slice(1) : [])], reads: moves ? [] : ops.slice(1) };
}

/** unzip ARCHIVE [MEMBER…] [-d DIR]: listing and testing write nothing. */
function unzipEffects(tokens: readonly Token[]): Effects {
  const ops = opWords(tokens);
  if (findShort(tokens, 'lptvZz')) return { writes: [], reads: ops.slice(0, 1) };
  const dir = findShort(tokens, 'd');
  const base = dir?.value ?? '.';
  return {
    writes: [...(dir ? [dir] : []), ...members(base, ops.slice(1))],
    reads: ops.slice(0, 1),
    unknown: ops.length > 1 ? [] : [archiveMembers(base)],
  };
}

/** gzip and friends replace each FILE with its (de)compressed form, unless -c writes to stdout. */
function compressor(suffix: string): Model['effects'] {
  return (tokens) => {
    const ops = opWords(tokens);
    if (findShort(tokens, 'ctl') ?? findLong(tokens, ['stdout', 'to-stdout', 'test', 'list']))
      return { writes: [], reads: ops };
    const decompress = !!(findShort(tokens, 'd') ?? findLong(tokens, ['decompress', 'uncompress']));
    const derived: Target[] = ops
      .filter((w) => !hasGlob(w))
      .map((w) => ({
        derived: decompress || !suffix ? w.text.replace(/\.[^./]+$/, '') : `${w.text}${suffix}`,
        raw: w.raw,
      }));
    return { writes: [...ops, ...derived], reads: [] };
  };
}

/** 7z COMMAND ARCHIVE [FILES…] with switches such as -oDIR (output), -wDIR (work directory), -i@LIST / -x@LIST (lists it reads). */
function sevenZipEffects(args: readonly Word[]): Effects {
  const switches = args.filter((w) => w.text.startsWith('-'));
  const [command, archive, ...files] = args.filter((w) => !w.text.startsWith('-'));
  const output = switches.find((w) => /^-o./.test(w.text));
  const dirs = switches.filter((w) => /^-[ow]./.test(w.text)).map((w) => tail(w, 2));
  const lists = switches.filter((w) => /^-a?[ix]@/.test(w.text)).map((w) => tail(w, w.text.indexOf('@') + 1));
  const archives = archive ? [archive] : [];
  const cmd = command?.text ?? '';
  if (['x', 'e'].includes(cmd))
    return {
      writes: dirs,
      reads: [...archives, ...lists],
      unknown: [archiveMembers(output ? output.text.slice(2) : '.')],
    };
  if (['a', 'u', 'd', 'rn'].includes(cmd)) return { writes: [...archives, ...dirs], reads: [...files, ...lists] };
  return { writes: dirs, reads: [...archives, ...lists] };
}

/** curl: what -o, -O, --output-dir, -D, -c and the trace options write; -K reads options ws_shell cannot see. */
const CURL_WRITES = [
  'output',
  'dump-header',
  'cookie-jar',
  'trace',
  'trace-ascii',
  'stderr',
  'libcurl',
  'etag-save',
  'hsts',
  'alt-svc',
  'output-dir',
];
const CURL_SPEC: OptionSpec = {
  shortValue: 'AbcCdDeEFHKmoPrTuUwxXyYzQt',
  longValue: [
    ...CURL_WRITES,
    'data',
    'data-binary',
    'data-raw',
    'data-urlencode',
    'form',
    'header',
    'user-agent',
    'referer',
    'request',
    'user',
    'proxy',
    'config',
    'upload-file',
    'cookie',
    'max-time',
    'connect-timeout',
    'range',
    'write-out',
    'url',
    'cert',
    'key',
    'cacert',
    'retry',
    'limit-rate',
  ],
};
function curlEffects(tokens: readonly Token[]): Effects | Finding {
  const config = findShort(tokens, 'K') ?? findLong(tokens, ['config']);
  if (config)
    return never(
      'writer-flag',
      `curl ${q(shown(config))} reads further options (such as output files) from a file ws_shell cannot check`,
      'Give curl its options on the command line.',
    );
  const outs = findAll(tokens, 'oDc', CURL_WRITES);
  const dir = findLong(tokens, ['output-dir']);
  const remote = findShort(tokens, 'OJ') ?? findLong(tokens, ['remote-name', 'remote-name-all', 'remote-header-name']);
  const reads = findAll(tokens, 'Tb', ['upload-file', 'cookie']).flatMap((t) => (t.valueWord ? [t.valueWord] : []));
  const data = findAll(tokens, 'dF', ['data', 'data-binary', 'data-urlencode', 'form'])
    .filter((t) => (t.value ?? '').includes('@'))
    .map((t) => ({ ...t.valueWord!, text: (t.value ?? '').slice((t.value ?? '').indexOf('@') + 1).split(';')[0]! }));
  return {
    writes: outs.filter((t) => t.value !== '-'),
    reads: [...reads, ...data],
    unknown: remote ? [`a file named after the URL, in ${dir?.value ?? 'the workspace root'}`] : [],
  };
}

/** wget: by default it saves a file named after the URL; recursive and directory-creating modes let the server choose paths. */
const WGET_SPEC: OptionSpec = {
  shortValue: 'oaOPeiDtTwQUBlAR',
  longValue: [
    'output-file',
    'append-output',
    'output-document',
    'directory-prefix',
    'execute',
    'input-file',
    'domains',
    'tries',
    'timeout',
    'wait',
    'quota',
    'user-agent',
    'base',
    'level',
    'accept',
    'reject',
    'config',
    'save-cookies',
    'load-cookies',
    'post-file',
    'body-file',
    'warc-file',
    'header',
    'post-data',
    'user',
    'password',
    'cut-dirs',
  ],
};
function wgetEffects(tokens: readonly Token[]): Effects | Finding {
  const bad =
    findShort(tokens, 'erxmp') ??
    findLong(tokens, [
      'execute',
      'config',
      'recursive',
      'mirror',
      'force-directories',
      'page-requisites',
      'protocol-directories',
    ]);
  if (bad) {
    return never(
      'writer-flag',
      `wget ${q(shown(bad))} runs wgetrc commands or saves files under paths the server chooses (which can name .git/)`,
      'Fetch one URL to a named file: wget -O FILE URL.',
    );
  }
  const doc = findShort(tokens, 'O') ?? findLong(tokens, ['output-document']);
  const logs = findAll(tokens, 'oa', ['output-file', 'append-output', 'save-cookies', 'warc-file']);
  const prefix = findShort(tokens, 'P') ?? findLong(tokens, ['directory-prefix']);
  const reads = findAll(tokens, 'i', ['input-file', 'load-cookies', 'post-file', 'body-file']).flatMap((t) =>
    t.valueWord ? [t.valueWord] : [],
  );
  const writes: Target[] = [...(doc && doc.value !== '-' ? [doc] : []), ...logs, ...(prefix ? [prefix] : [])];
  return {
    writes,
    reads,
    unknown: doc ? [] : [`a file named after the URL, in ${prefix?.value ?? 'the workspace root'}`],
  };
}

const MODELS: Readonly<Record<string, Model>> = {
  cp: {
    spec: { shortValue: 'St', longValue: ['suffix', 'target-directory', 'sparse', 'no-preserve'] },
    effects: copyLike(false),
  },
  mv: { spec: { shortValue: 'St', longValue: ['suffix', 'target-directory'] }, effects: copyLike(true) },
  ln: { spec: { shortValue: 'St', longValue: ['suffix', 'target-directory'] }, effects: copyLike(false, true) },
  install: {
    spec: { shortValue: 'gmoSt', longValue: ['group', 'mode', 'owner', 'suffix', 'target-directory', 'strip-program'] },
    effects: (tokens) => {
      const mode = findShort(tokens, 'm') ?? findLong(tokens, ['mode']);
      const special = mode ? modeFinding(mode.value ?? '', mode.valueRaw ?? shown(mode)) : null;
      if (special) return special;
      const strip = findLong(tokens, ['strip-program']);
      if (strip)
        return never(
          'writer-flag',
          `install ${q(shown(strip))} runs a program`,
          'Copy files with cp (a person approves it).',
        );
      return findShort(tokens, 'd') || findLong(tokens, ['directory'])
        ? eachOperand(tokens, [])
        : copyLike(false)(tokens, []);
    },
  },
  touch: {
    spec: { shortValue: 'dtr', longValue: ['date', 'reference', 'time'] },
    effects: (tokens) => ({
      writes: opWords(tokens),
      reads: findAll(tokens, 'r', ['reference']).flatMap((t) => (t.valueWord ? [t.valueWord] : [])),
    }),
  },
  mkdir: {
    spec: { shortValue: 'm', longValue: ['mode', 'context'] },
    effects: (tokens) => {
      const mode = findShort(tokens, 'm') ?? findLong(tokens, ['mode']);
      return (mode && modeFinding(mode.value ?? '', mode.valueRaw ?? shown(mode))) || eachOperand(tokens, []);
    },
  },
  mkfifo: { spec: { shortValue: 'm', longValue: ['mode', 'context'] }, effects: eachOperand },
  truncate: {
    spec: { shortValue: 'sr', longValue: ['size', 'reference'] },
    effects: (tokens) => ({
      writes: opWords(tokens),
      reads: findAll(tokens, 'r', ['reference']).flatMap((t) => (t.valueWord ? [t.valueWord] : [])),
    }),
  },
  split: {
    spec: {
      shortValue: 'abClnt',
      shortOptional: 'dx',
      longValue: [
        'suffix-length',
        'additional-suffix',
        'bytes',
        'line-bytes',
        'lines',
        'number',
        'separator',
        'filter',
      ],
    },
    effects: (tokens, args) => {
      const filter = findLong(tokens, ['filter']);
      if (filter)
        return never(
          'writer-flag',
          `split ${q(shown(filter))} runs a shell command for every piece`,
          'Split without --filter.',
        );
      return splitEffects(tokens, args);
    },
  },
  csplit: { spec: { shortValue: 'bfn', longValue: ['suffix-format', 'prefix', 'digits'] }, effects: csplitEffects },
  patch: {
    spec: {
      shortValue: 'BbDdFgiopVrYzx',
      longValue: [
        'prefix',
        'ifdef',
        'directory',
        'fuzz',
        'get',
        'input',
        'output',
        'strip',
        'version-control',
        'reject-file',
        'basename-prefix',
        'suffix',
        'debug',
        'quoting-style',
        'reject-format',
      ],
    },
    effects: patchEffects,
  },
  tar: { spec: TAR_SPEC, effects: tarEffects },
  zip: {
    spec: {
      shortValue: 'bOntTiIxsPZ',
      longValue: ['output-file', 'temp-path', 'unzip-command', 'suffixes', 'password', 'compression-method'],
    },
    effects: zipEffects,
  },
  unzip: { spec: { shortValue: 'dxP' }, effects: unzipEffects },
  gzip: { spec: { shortValue: 'S', longValue: ['suffix'] }, effects: compressor('.gz') },
  gunzip: { spec: { shortValue: 'S', longValue: ['suffix'] }, effects: compressor('') },
  bzip2: { spec: {}, effects: compressor('.bz2') },
  bunzip2: { spec: {}, effects: compressor('') },
  xz: {
    spec: { shortValue: 'CFMT', longValue: ['suffix', 'format', 'check', 'memlimit', 'threads', 'files', 'files0'] },
    effects: compressor('.xz'),
  },
  unxz: {
    spec: { shortValue: 'CFMT', longValue: ['suffix', 'format', 'check', 'memlimit', 'threads', 'files', 'files0'] },
    effects: compressor(''),
  },
  curl: { spec: CURL_SPEC, effects: curlEffects },
  wget: { spec: WGET_SPEC, effects: wgetEffects },
};

/** True when the policy models what this command writes. */
export function isModelledWriter(name: string): boolean {
  return Object.hasOwn(MODELS, name) || name === 'chmod' || name === '7z';
}

/**
 * The verdict for a writer: never when it writes a protected path, outside the workspace or
 * through a pattern, or reads outside; otherwise `finding` (the family's gated finding) with
 * the paths it writes attached.
 */
export function writerVerdict(name: string, args: readonly Word[], finding: Finding): Verdict {
  let effects: Effects | Finding;
  if (name === 'chmod') effects = chmodEffects(args);
  else if (name === '7z') effects = sevenZipEffects(args);
  else {
    const model = MODELS[name]!;
    const words = name === 'tar' ? tarArgs(args) : args;
    effects = model.effects(scanOptions(words, model.spec), words);
  }
  if (isFindingValue(effects)) return effects;
  for (const t of [...effects.writes, ...(effects.guards ?? [])]) {
    const f = targetFinding(t);
    if (f) return f;
  }
  for (const w of effects.reads) {
    const f = pathFinding(w.text, w.raw);
    if (f) return f;
  }
  const listed = [...new Set(effects.writes.map(targetText).filter((p) => p !== ''))];
  return writing(finding, [...listed, ...(effects.unknown ?? [])]);
}
