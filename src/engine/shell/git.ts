/**
 * git: read-only subcommands are free, subcommands that change the repository or use the network
 * are gated, and options that run programs or write files (`-c`, `--output`, `--ext-diff`,
 * `--upload-pack`, `grep -O` …) are never allowed, in any abbreviation: git's option parser
 * accepts unambiguous prefixes, so `--upload-pa` is `--upload-pack`.
 */
import { gated, never, q, USE, type Verdict } from './decision.ts';
import { findLong, findShort, operands, scanOptions, shown, type OptionSpec, type Token } from './options.ts';
import { optionPathFinding, pathFinding, pathsFinding } from './paths.ts';
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
];

const READ_ONLY = new Set(
  'status log diff show ls-files ls-tree rev-parse blame annotate shortlog describe cat-file rev-list grep whatchanged show-ref for-each-ref merge-base name-rev count-objects check-ignore check-attr diff-tree diff-files diff-index cherry range-diff version var show-branch'.split(' '),
);
const NETWORK = new Set('push pull fetch clone ls-remote remote-https send-email request-pull'.split(' '));
const CHANGES = new Set(
  'add commit checkout switch restore reset clean merge rebase cherry-pick revert am apply rm mv init gc prune format-patch archive bundle filter-branch replace update-ref update-index symbolic-ref maintenance sparse-checkout lfs bisect stage repack pack-refs commit-tree write-tree read-tree mktag mktree hash-object fast-import'.split(' '),
);
// `git help -w/-m/-i` starts a browser or viewer.
const RUNS_TOOLS = new Set('difftool mergetool daemon instaweb shell upload-pack receive-pack http-backend credential citool gui help web--browse'.split(' '));

/** Subcommands that read or write depending on their arguments: free when `reads` says so. */
const MIXED: Readonly<Record<string, { spec: OptionSpec; reads: (t: readonly Token[]) => boolean }>> = {
  branch: {
    spec: { shortValue: 'u', longValue: ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'set-upstream-to'] },
    reads: (t) => !findShort(t, 'dDmMcCuft') && !findLong(t, ['delete', 'move', 'copy', 'force', 'set-upstream-to', 'set-upstream', 'unset-upstream', 'edit-description', 'track', 'create-reflog']) && (operands(t).length === 0 || !!findShort(t, 'l') || !!findLong(t, ['list'])),
  },
  tag: {
    spec: { shortValue: 'muF', longValue: ['contains', 'no-contains', 'merged', 'no-merged', 'points-at', 'sort', 'format', 'message', 'file', 'local-user'] },
    reads: (t) => !findShort(t, 'asufdmFe') && !findLong(t, ['annotate', 'sign', 'local-user', 'force', 'delete', 'message', 'file', 'edit', 'create-reflog']) && (operands(t).length === 0 || !!findShort(t, 'l') || !!findLong(t, ['list'])),
  },
  stash: { spec: {}, reads: (t) => ['list', 'show'].includes(operands(t)[0]?.text ?? '') },
  remote: { spec: {}, reads: (t) => operands(t).length === 0 || operands(t)[0]!.text === 'get-url' },
  config: { spec: { longValue: ['file', 'blob'] }, reads: (t) => !!findLong(t, ['get', 'get-all', 'get-regexp', 'get-urlmatch', 'list']) || !!findShort(t, 'l') || ['get', 'list'].includes(operands(t)[0]?.text ?? '') },
  reflog: { spec: {}, reads: (t) => ['', 'show'].includes(operands(t)[0]?.text ?? '') },
  worktree: { spec: {}, reads: (t) => operands(t)[0]?.text === 'list' },
  notes: { spec: {}, reads: (t) => ['', 'list', 'show'].includes(operands(t)[0]?.text ?? '') },
  submodule: { spec: {}, reads: (t) => ['', 'status', 'summary'].includes(operands(t)[0]?.text ?? '') },
};

/** Global options before the subcommand; returns the index of the subcommand word, or a verdict. */
function globals(args: readonly Word[]): number | Verdict {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]!.text;
    if (!t.startsWith('-')) return i;
    if (t.startsWith('-c') || t.startsWith('--config-env') || t.startsWith('--exec-path=')) {
      return never('git-config', `git ${q(args[i]!.raw)} injects configuration, which can name a program to run (a pager, an editor, a diff driver)`, USE.gitRead);
    }
    if (t === '-C') {
      const f = pathFinding(args[i + 1]?.text ?? '', args[i + 1]?.raw);
      if (f) return f;
      i++;
    } else if (t.startsWith('--git-dir=') || t.startsWith('--work-tree=')) {
      const f = pathFinding(t.slice(t.indexOf('=') + 1), args[i]!.raw);
      if (f) return f;
    } else if (t === '--version' || t === '-v' || t === '--help' || t === '-h') {
      return { free: 'prints git information' };
    } else if (!['--no-pager', '-P', '--no-replace-objects', '--literal-pathspecs', '--glob-pathspecs', '--noglob-pathspecs', '--icase-pathspecs', '--bare', '--no-optional-locks', '--no-lazy-fetch'].includes(t)) {
      return never('git-option', `git option ${q(args[i]!.raw)} is not one ws_shell knows to be safe`, USE.gitRead);
    }
  }
  return i;
}

/** The verdict for `git ARGS…`. */
export function checkGit(args: readonly Word[]): Verdict {
  const at = globals(args);
  if (typeof at !== 'number') return at;
  const subWord = args[at];
  if (subWord === undefined) return { free: 'prints git usage' };
  const sub = subWord.text;
  const rest = args.slice(at + 1);
  const mixed = MIXED[sub];
  const tokens = scanOptions(rest, mixed?.spec ?? {});
  for (const [name, why] of NEVER_LONG) {
    const hit = findLong(tokens, [name]);
    if (hit) return never('git-flag', `git ${sub} ${q(shown(hit))} ${why}`, USE.gitRead);
  }
  if (sub === 'grep' && findShort(tokens, 'O')) return never('git-flag', `git grep ${q(findShort(tokens, 'O')!.word.raw)} runs a pager program`, USE.gitRead);
  if (NETWORK.has(sub) && findShort(tokens, 'u')) return never('git-flag', `git ${sub} ${q(findShort(tokens, 'u')!.word.raw)} runs a program on the remote side`, USE.gitRead);
  if (RUNS_TOOLS.has(sub)) return never('git-tool', `git ${sub} runs an external or interactive program`, USE.gitRead);
  if (READ_ONLY.has(sub)) {
    // Operands are revisions or paths; git diff reads any two paths when one is outside the
    // repository (an implied --no-index), so none may leave the workspace.
    return pathsFinding(operands(tokens).map((o) => o.word)) ?? { free: 'is a read-only git command' };
  }
  if (mixed) {
    const fileOpt = sub === 'config' ? findLong(tokens, ['file']) : undefined;
    const f = fileOpt ? optionPathFinding(fileOpt) : null;
    if (f) return f;
    if (mixed.reads(tokens)) return { free: 'is a read-only git command' };
    return gated('git-write', `${q(`git ${sub}`)} with these arguments changes the repository`, `A person must approve it. ${USE.gitRead}`);
  }
  if (NETWORK.has(sub)) return gated('git-network', `${q(`git ${sub}`)} talks to a remote repository`, `A person must approve it. ${USE.gitRead}`);
  if (CHANGES.has(sub)) return gated('git-write', `${q(`git ${sub}`)} changes the repository, the index or the working tree`, `A person must approve it. ${USE.gitRead}`);
  return never('git-unknown', `${q(`git ${sub}`)} is not a git command ws_shell knows (it may be an alias, which can run anything)`, USE.gitRead);
}
