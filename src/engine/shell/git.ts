/**
 * git: read-only subcommands are free, subcommands that change the repository or use the network
 * are gated, and options that run programs or write files (`-c`, `--output`, `--ext-diff`,
 * `--upload-pack`, `grep -O` …) are never allowed, in any abbreviation: git's option parser
 * accepts unambiguous prefixes, so `--upload-pa` is `--upload-pack`.
 */
import { gated, never, q, USE, type Verdict } from './decision.ts';
import { findAll, findLong, findShort, operands, scanOptions, shown, type OptionSpec, type Token } from './options.ts';
import { optionPathFinding, optionWriteFinding, pathFinding, pathsFinding, writesFinding } from './paths.ts';
import { writing } from './writers.ts';
import type { Word } from './words.ts';

/** Options that make any git subcommand write a file or run a program. */
const NEVER_LONG: readonly (readonly [string, string])[] = [
  ['output', 'writes its output to a file'],
  ['ext-diff', 'runs an external diff program'],
  ['textconv', 'runs a configured conversion program'],
  ['open-files-in-pager', 'runs a pager program'],
  ['upload-pack', 'runs a program on the remote side'],
  ['receive-pack', 'runs a program on the remote side'],
  ['exec', 'runs a program'],
  ['filters', 'runs the configured smudge and clean filter programs'],
  ['unsafe-paths', 'lets a patch write outside the repository'],
];

const READ_ONLY = new Set(
  'status log diff show ls-files ls-tree rev-parse blame annotate shortlog describe cat-file rev-list grep whatchanged show-ref for-each-ref merge-base name-rev count-objects check-ignore check-attr diff-tree diff-files diff-index cherry range-diff version var show-branch'.split(
    ' ',
  ),
);
const NETWORK = new Set('push pull fetch clone ls-remote remote-https send-email request-pull'.split(' '));
const CHANGES = new Set(
  'add commit checkout switch restore reset clean merge rebase cherry-pick revert am apply rm mv init gc prune format-patch archive bundle filter-branch replace update-ref update-index symbolic-ref maintenance sparse-checkout lfs bisect stage repack pack-refs commit-tree write-tree read-tree mktag mktree hash-object fast-import'.split(
    ' ',
  ),
);
// `git help -w/-m/-i` starts a browser or viewer.
const RUNS_TOOLS = new Set(
  'difftool mergetool daemon instaweb shell upload-pack receive-pack http-backend credential citool gui help web--browse'.split(
    ' ',
  ),
);

/** Subcommands that read or write depending on their arguments: free when `reads` says so. */
const MIXED: Readonly<Record<string, { spec: OptionSpec; reads: (t: readonly Token[]) => boolean }>> = {
  branch: {
    spec: {
      shortValue: 'u',
      longValue: ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'set-upstream-to'],
    },
    reads: (t) =>
      !findShort(t, 'dDmMcCuft') &&
      !findLong(t, [
        'delete',
        'move',
        'copy',
        'force',
        'set-upstream-to',
        'set-upstream',
        'unset-upstream',
        'edit-description',
        'track',
        'create-reflog',
      ]) &&
      (operands(t).length === 0 || !!findShort(t, 'l') || !!findLong(t, ['list'])),
  },
  tag: {
    spec: {
      shortValue: 'muF',
      longValue: [
        'contains',
        'no-contains',
        'merged',
        'no-merged',
        'points-at',
        'sort',
        'format',
        'message',
        'file',
        'local-user',
      ],
    },
    reads: (t) =>
      !findShort(t, 'asufdmFe') &&
      !findLong(t, ['annotate', 'sign', 'local-user', 'force', 'delete', 'message', 'file', 'edit', 'create-reflog']) &&
      (operands(t).length === 0 || !!findShort(t, 'l') || !!findLong(t, ['list'])),
  },
  stash: { spec: {}, reads: (t) => ['list', 'show'].includes(operands(t)[0]?.text ?? '') },
  remote: { spec: {}, reads: (t) => operands(t).length === 0 || operands(t)[0]!.text === 'get-url' },
  config: {
    spec: { shortValue: 'f', longValue: ['file', 'blob', 'default', 'type'] },
    reads: (t) =>
      !!findLong(t, ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'list']) ||
      !!findShort(t, 'l') ||
      ['get', 'list'].includes(operands(t)[0]?.text ?? ''),
  },
  reflog: { spec: {}, reads: (t) => ['', 'show'].includes(operands(t)[0]?.text ?? '') },
  worktree: { spec: {}, reads: (t) => operands(t)[0]?.text === 'list' },
  notes: { spec: {}, reads: (t) => ['', 'list', 'show'].includes(operands(t)[0]?.text ?? '') },
  submodule: { spec: {}, reads: (t) => ['', 'status', 'summary'].includes(operands(t)[0]?.text ?? '') },
};

/** Global options that point git at another repository, inject configuration or open help. */
const ELSEWHERE: readonly (readonly [RegExp, string, string])[] = [
  [/^-c/, 'git-config', 'injects configuration, which can name a program to run (a pager, an editor, a diff driver)'],
  [
    /^--config-env/,
    'git-config',
    'injects configuration, which can name a program to run (a pager, an editor, a diff driver)',
  ],
  [/^--exec-path/, 'git-config', 'names the directory git runs its helper programs from'],
  [
    /^-C$|^--git-dir|^--work-tree|^--bare$|^--namespace|^--super-prefix/,
    'git-elsewhere',
    "points git at another repository or directory, whose own config (core.fsmonitor, hooks) would run code; ws_shell runs git only on the workspace's own repository",
  ],
  [/^--help$|^--html-path|^--man-path|^--info-path/, 'git-tool', 'opens the manual in a viewer or browser'],
];

const SAFE_GLOBALS = [
  '--no-pager',
  '-P',
  '--no-replace-objects',
  '--literal-pathspecs',
  '--glob-pathspecs',
  '--noglob-pathspecs',
  '--icase-pathspecs',
  '--no-optional-locks',
  '--no-lazy-fetch',
  '--no-advice',
];

/** Global options before the subcommand; returns the index of the subcommand word, or a verdict. */
function globals(args: readonly Word[]): number | Verdict {
  let i = 0;
  for (; i < args.length; i++) {
    const w = args[i]!;
    const t = w.text;
    if (!t.startsWith('-')) return i;
    // `git -C . …` is the workspace root itself, as every call already runs there.
    if (t === '-C' && ['.', './'].includes(args[i + 1]?.text ?? '')) {
      i++;
      continue;
    }
    const hit = ELSEWHERE.find(([re]) => re.test(t));
    if (hit) return never(hit[1], `git ${q(w.raw)} ${hit[2]}`, USE.gitRead);
    if (t === '--version' || t === '-v' || t === '-h') return { free: 'prints git information' };
    if (!SAFE_GLOBALS.includes(t))
      return never('git-option', `git option ${q(w.raw)} is not one ws_shell knows to be safe`, USE.gitRead);
  }
  return i;
}

/** Options of read-only subcommands whose value is a file git reads (blame --contents, -S, --ignore-revs-file; diff -O; grep -f; ls-files -X). */
const READ_FILE_LONG = ['contents', 'ignore-revs-file', 'exclude-from', 'pathspec-from-file', 'orderfile'];

/**
 * How a read-only subcommand's options take values. Only options that surely take the next word
 * are listed: a value taken by mistake would hide an operand from the jail, a value missed only
 * puts one more word through it.
 */
function readSpec(sub: string): OptionSpec {
  const longValue = [
    ...READ_FILE_LONG,
    'author',
    'committer',
    'grep',
    'since',
    'until',
    'after',
    'before',
    'max-count',
    'skip',
  ];
  const shortValue: Readonly<Record<string, string>> = {
    grep: 'feABCm',
    blame: 'LS',
    log: 'OSG',
    show: 'OSG',
    diff: 'OSG',
    whatchanged: 'OSG',
    'diff-tree': 'OSG',
    'diff-files': 'OSG',
    'diff-index': 'OSG',
    'ls-files': 'Xx',
  };
  return { shortValue: shortValue[sub] ?? '', longValue };
}

function readFileFinding(sub: string, tokens: readonly Token[]): Verdict | null {
  // -f is grep's pattern file; -S is blame's revs file but log's pickaxe string; -O is diff's order file; -X ls-files' exclude file.
  const letters =
    { grep: 'f', blame: 'S', 'ls-files': 'X' }[sub] ?? (readSpec(sub).shortValue!.includes('O') ? 'O' : '');
  for (const t of findAll(tokens, letters, READ_FILE_LONG)) {
    const f = optionPathFinding(t);
    if (f) return f;
  }
  return null;
}

/** Configuration keys a gated `git config` may set: names, colours, defaults — none names a program or a file. */
const SAFE_CONFIG =
  /^(?:user\.(?:name|email)|color\..+|advice\..+|init\.defaultbranch|pull\.(?:rebase|ff)|push\.(?:default|autosetupremote)|merge\.(?:ff|conflictstyle)|fetch\.prune|rebase\.autostash|core\.(?:autocrlf|eol|quotepath|filemode|ignorecase)|branch\.[^.]+\.(?:remote|merge)|remote\.[^.]+\.(?:url|fetch)|log\..+|format\.pretty|status\..+|diff\.(?:renames|algorithm|colormoved)|commit\.verbose|help\.autocorrect)$/;

/** `git config` that writes (--global and --system are refused before): the file it writes must be the repository's own, and the key must not name a program. */
function configWriteFinding(tokens: readonly Token[]): Verdict | null {
  const file = findShort(tokens, 'f') ?? findLong(tokens, ['file', 'blob']);
  if (file)
    return never(
      'git-config',
      `git config ${q(shown(file))} writes a configuration file ws_shell does not know`,
      USE.gitRead,
    );
  const ops = operands(tokens).map((o) => o.text);
  const key = (['set', 'unset', 'add', 'replace-all', 'unset-all'].includes(ops[0] ?? '') ? ops[1] : ops[0]) ?? '';
  if (
    findLong(tokens, ['unset', 'unset-all', 'remove-section', 'rename-section']) ||
    ['unset', 'unset-all', 'remove-section', 'rename-section'].includes(ops[0] ?? '')
  )
    return null;
  if (!SAFE_CONFIG.test(key.toLowerCase())) {
    return never(
      'git-config',
      `git config ${q(key)} may name a program or a file git runs or loads (core.fsmonitor, core.pager, filters, aliases, hooks …)`,
      'Set only names, colours and defaults (user.name, user.email, color.ui, pull.rebase …).',
    );
  }
  return null;
}

const REPO = '.git/ (the repository)';
const TREE = 'the working tree (files the command changes)';

/** What a gated git subcommand writes, for the approval prompt. */
function gitWrites(sub: string, tokens: readonly Token[]): readonly string[] {
  const paths = operands(tokens)
    .map((o) => o.text)
    .filter((p) => !p.startsWith('-'));
  switch (sub) {
    case 'add':
    case 'commit':
    case 'tag':
    case 'branch':
    case 'notes':
    case 'update-ref':
    case 'update-index':
    case 'symbolic-ref':
    case 'gc':
    case 'prune':
    case 'repack':
    case 'pack-refs':
    case 'replace':
    case 'fetch':
    case 'push':
    case 'config':
    case 'remote':
    case 'reflog':
    case 'hash-object':
    case 'commit-tree':
    case 'write-tree':
    case 'mktag':
    case 'mktree':
    case 'fast-import':
    case 'maintenance':
    case 'stage':
      return [REPO];
    case 'rm':
    case 'mv':
    case 'restore':
    case 'checkout':
      return [REPO, ...(paths.length && sub !== 'checkout' ? paths : [TREE])];
    case 'clone':
    case 'init':
    case 'worktree':
    case 'submodule':
    case 'format-patch':
    case 'archive':
    case 'bundle':
      return [
        REPO,
        ...(paths.length
          ? [`${paths[paths.length - 1]} (a new repository, work tree or output file)`]
          : ['new files in the workspace root']),
      ];
    default:
      return [REPO, TREE];
  }
}

/** A URL or scp-like remote (`host:path`, `user@host:path`): not a path on this machine. */
const REMOTE = /^[a-z][a-z0-9+.-]*:\/\/|^[^/]+@[^/]+:/i;

/** A word that names a place on this machine outside the plain relative form: absolute, or climbing with `..`. */
function pathLike(text: string): boolean {
  return !REMOTE.test(text) && (text.startsWith('/') || /(?:^|\/)\.\.(?:\/|$)/.test(text));
}

/**
 * Every value a gated git command is given that looks like a path (an option's value, known
 * to git's option table or not, and every operand) must stay in the workspace: git reads and
 * writes through them (`--directory=/tmp`, `--export-marks=`, `-F FILE`, `--template=`,
 * `--pathspec-from-file=`, `push ../other`, `push file:///tmp/x`), and the approval prompt could
 * not list them.
 */
function outsideValueFinding(tokens: readonly Token[]): Verdict | null {
  for (const t of tokens) {
    // A short option git's table here does not know may still take its value attached (`-F/tmp/x`).
    const attached = t.kind === 'short' && t.value === null ? /^-[A-Za-z](.+)$/s.exec(t.word.text)?.[1] : undefined;
    if (attached !== undefined && pathLike(attached)) {
      const f = pathFinding(attached, t.word.raw);
      if (f) return f;
    }
    const value = t.kind === 'operand' ? t.text : t.value;
    if (value === null) continue;
    // A file: URL is a path on this machine (`git push file:///tmp/x`, `clone file://localhost/etc`).
    const local = /^file:(?:\/\/(?:localhost)?)?(.*)$/is.exec(value);
    if (local) {
      const f = pathFinding(local[1] || '/', t.kind === 'operand' ? t.word.raw : (t.valueRaw ?? t.word.raw));
      if (f) return f;
      continue;
    }
    if (!pathLike(value)) continue;
    const f = t.kind === 'operand' ? pathFinding(t.text, t.word.raw) : optionPathFinding(t);
    if (f) return f;
  }
  return null;
}

/** A gated git finding with what it writes; refused instead when a value it is given leaves the workspace. */
function gitGated(rule: string, what: string, sub: string, tokens: readonly Token[]): Verdict {
  return (
    outsideValueFinding(tokens) ??
    writing(gated(rule, what, `A person must approve it. ${USE.gitRead}`), gitWrites(sub, tokens))
  );
}

/** Subcommands whose operands (or target operand) name paths they create, checked by the write jail. */
const CREATES = new Set(['clone', 'init', 'worktree', 'submodule', 'format-patch', 'bundle', 'archive']);

/** The verdict for `git ARGS…`. */
export function checkGit(args: readonly Word[]): Verdict {
  const at = globals(args);
  if (typeof at !== 'number') return at;
  const subWord = args[at];
  if (subWord === undefined) return { free: 'prints git usage' };
  const sub = subWord.text;
  const rest = args.slice(at + 1);
  const mixed = MIXED[sub];
  const tokens = scanOptions(
    rest,
    mixed?.spec ??
      (READ_ONLY.has(sub)
        ? readSpec(sub)
        : {
            shortValue: 'o',
            longValue: ['output-directory', 'directory', 'separate-git-dir', 'template', 'reference', 'upload-pack'],
          }),
  );
  for (const [name, why] of NEVER_LONG) {
    const hit = findLong(tokens, [name]);
    if (hit) return never('git-flag', `git ${sub} ${q(shown(hit))} ${why}`, USE.gitRead);
  }
  const help = tokens.find((t) => t.kind === 'long' && (t.name === 'help' || t.name === 'help-all'));
  if (help)
    return never(
      'git-tool',
      `git ${sub} ${q(shown(help))} opens the manual in a viewer or browser`,
      'Run git ' + sub + ' -h for a short usage summary.',
    );
  if (sub === 'grep' && findShort(tokens, 'O'))
    return never('git-flag', `git grep ${q(findShort(tokens, 'O')!.word.raw)} runs a pager program`, USE.gitRead);
  if (NETWORK.has(sub) && findShort(tokens, 'u'))
    return never(
      'git-flag',
      `git ${sub} ${q(findShort(tokens, 'u')!.word.raw)} runs a program on the remote side`,
      USE.gitRead,
    );
  if (RUNS_TOOLS.has(sub)) return never('git-tool', `git ${sub} runs an external or interactive program`, USE.gitRead);
  const action = operands(tokens)[0]?.text ?? '';
  if (sub === 'submodule' && action === 'foreach')
    return never('git-tool', 'git submodule foreach runs a shell command in every submodule', USE.gitRead);
  if (sub === 'bisect' && action === 'run')
    return never('git-tool', 'git bisect run runs a program at every step', USE.gitRead);
  if (sub === 'rebase' && findShort(tokens, 'x'))
    return never(
      'git-flag',
      `git rebase ${q(findShort(tokens, 'x')!.word.raw)} runs a program after every commit`,
      USE.gitRead,
    );
  if (sub === 'maintenance' && ['start', 'stop', 'register', 'unregister'].includes(action)) {
    return never(
      'git-config',
      `git maintenance ${action} changes your global git configuration and the system scheduler (cron, systemd or launchd)`,
      USE.gitRead,
    );
  }
  if (READ_ONLY.has(sub)) {
    // Operands are revisions or paths; git diff reads any two paths when one is outside the
    // repository (an implied --no-index), so none may leave the workspace.
    return (
      readFileFinding(sub, tokens) ??
      pathsFinding(operands(tokens).map((o) => o.word)) ?? { free: 'is a read-only git command' }
    );
  }
  if (mixed) {
    const configFile = sub === 'config' ? (findShort(tokens, 'f') ?? findLong(tokens, ['file'])) : undefined;
    const f = configFile ? optionPathFinding(configFile) : null;
    if (f) return f;
    const outside = sub === 'config' ? findLong(tokens, ['global', 'system', 'includes']) : undefined;
    if (outside) {
      return never(
        'git-config',
        `git config ${q(shown(outside))} ${outside.name.startsWith('inc') ? 'follows include.path to configuration files anywhere on the machine' : 'reads or writes configuration outside the workspace'}`,
        "Read the repository's own settings: git config --local --list, or git config --get KEY.",
      );
    }
    if (mixed.reads(tokens)) return { free: 'is a read-only git command' };
    const config = sub === 'config' ? configWriteFinding(tokens) : null;
    if (config) return config;
    if (sub === 'worktree' || sub === 'submodule') {
      const created = writesFinding(
        operands(tokens)
          .slice(1)
          .map((o) => o.word)
          .filter((w) => !w.text.includes('://')),
      );
      if (created) return created;
    }
    return gitGated('git-write', `${q(`git ${sub}`)} with these arguments changes the repository`, sub, tokens);
  }
  if (CREATES.has(sub)) {
    const out = findAll(tokens, 'o', ['output-directory', 'directory', 'separate-git-dir', 'template', 'reference']);
    for (const t of out) {
      const f = optionWriteFinding(t);
      if (f) return f;
    }
    const targets = operands(tokens)
      .map((o) => o.word)
      .filter((w) => !REMOTE.test(w.text));
    const f = sub === 'clone' || sub === 'init' ? writesFinding(targets.slice(-1)) : pathsFinding(targets);
    if (f) return f;
  }
  if (NETWORK.has(sub)) return gitGated('git-network', `${q(`git ${sub}`)} talks to a remote repository`, sub, tokens);
  if (CHANGES.has(sub)) {
    const outside = pathsFinding(operands(tokens).map((o) => o.word));
    if (outside) return outside;
    return gitGated(
      'git-write',
      `${q(`git ${sub}`)} changes the repository, the index or the working tree`,
      sub,
      tokens,
    );
  }
  return never(
    'git-unknown',
    `${q(`git ${sub}`)} is not a git command ws_shell knows (it may be an alias, which can run anything)`,
    USE.gitRead,
  );
}
