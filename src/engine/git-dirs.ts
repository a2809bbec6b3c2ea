/**
 * Git's state outside `.git/`. A `.git` that is a file (`gitdir: <path>`, as `git init
 * --separate-git-dir`, submodules and linked worktrees make) makes the directory it names, and
 * that directory's `commondir`, git's own state as much as `.git/` is: a hook or a
 * `core.fsmonitor` there runs commands. And git opens any directory shaped as a repository
 * (`HEAD` with `objects/` and `refs/`, or with a `commondir`) when it is pointed at one, as
 * `git init --bare` makes.
 *
 * The pointer rule (`namedGitDirs`) asks its filesystem two questions — a file's first line,
 * where a path really is — so one rule drives the Node host's disk (synchronously:
 * workspace/node/git-entries.ts) and any Workspace (here). The shape rule works on a survey of
 * the tree (`surveyOf`), made by whichever walker a backend has; `madeGitDirs` compares two
 * surveys to find the git directories a command made.
 */
import { insideRoot, walk } from './jail-walk.ts';
import { baseName, dirName, MAX_WALK_ENTRIES, walkTree, type WalkEntry } from './walk.ts';
import { WORKSPACE_PATH, type EntryType, type Workspace } from './workspace.ts';

/** One question the pointer rule asks: the first line of the file at a path, or where a path really is (undefined: nowhere it counts). */
export type GitDirQuestion = { readonly firstLine: string } | { readonly place: string };

type Resolution = Generator<GitDirQuestion, string[], string | undefined>;

const GITDIR_LINE = /^gitdir: (.+)$/;

/** The first line of a pointer file's text, without a carriage return. */
export function firstLineOf(text: string): string {
  return text.split('\n')[0]!.replace(/\r$/, '');
}

/** `path` as git reads it from a pointer file: absolute as it is, relative from `base`; normalized (POSIX). */
function pointedPath(base: string, path: string): string {
  const out: string[] = [];
  for (const seg of (path.startsWith('/') ? path : `${base}/${path}`).split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') out.pop();
    else out.push(seg);
  }
  return `/${out.join('/')}`;
}

/**
 * The git directories the `.git` entry at `entry` (absolute) names: none when it is not a
 * `gitdir:` file, else the repository (a relative path is read from the directory the `.git` is
 * in, as git does) and, when it has one, its `commondir` — each as the `place` answer gave it.
 * `readAt` is where the entry's text is read (its resolved path, when the caller has it).
 */
export function* namedGitDirs(entry: string, readAt: string = entry): Resolution {
  const gitdir = GITDIR_LINE.exec((yield { firstLine: readAt }) ?? '')?.[1];
  if (gitdir === undefined) return [];
  const repo = yield { place: pointedPath(dirName(entry) || '/', gitdir) };
  if (repo === undefined) return [];
  const common = yield { firstLine: `${repo}/commondir` };
  const commonDir = common ? yield { place: pointedPath(repo, common) } : undefined;
  return commonDir === undefined ? [repo] : [repo, commonDir];
}

/**
 * An absolute pointer as a path on the backend's filesystem: one below `commandRoot` (the root
 * as commands see it — a `.git` file git wrote inside the host sandbox names `/ws/…`) is read
 * below `root`; any other path as it is.
 */
export function onBackend(abs: string, root: string, commandRoot: string): string {
  if (commandRoot === root || !(abs === commandRoot || abs.startsWith(`${commandRoot}/`))) return abs;
  return `${root}${abs.slice(commandRoot.length)}`;
}

/** Runs the pointer rule with synchronous answers. */
export function answerSync(run: Resolution, answer: (q: GitDirQuestion) => string | undefined): string[] {
  let step = run.next();
  while (!step.done) step = run.next(answer(step.value));
  return step.value;
}

/** Runs the pointer rule with asynchronous answers. */
async function answerAsync(run: Resolution, answer: (q: GitDirQuestion) => Promise<string | undefined>) {
  let step = run.next();
  while (!step.done) step = run.next(await answer(step.value));
  return step.value;
}

/** The names git looks for to take a directory for a repository. */
export type GitMarker = 'HEAD' | 'objects' | 'refs' | 'commondir';

/** Each marker and the entry types it counts as (a Map: a name such as `constructor` is no marker). */
const MARKER_TYPES: ReadonlyMap<string, readonly EntryType[]> = new Map([
  ['HEAD', ['file', 'symlink']],
  ['objects', ['dir']],
  ['refs', ['dir']],
  ['commondir', ['file']],
]);

/** Git's own test (setup.c, is_git_directory): a HEAD, and objects/ with refs/ or a commondir naming where they are. */
export function gitShaped(markers: ReadonlySet<GitMarker> | undefined): boolean {
  return !!markers?.has('HEAD') && (markers.has('commondir') || (markers.has('objects') && markers.has('refs')));
}

/** What a walk of the tree says about git's state in it (paths root-relative, '' the root). */
export interface GitSurvey {
  /** Every `.git` entry walked (the top-level one too), whatever its type. */
  readonly gitEntries: readonly string[];
  /** Every directory walked, the root included. */
  readonly dirs: ReadonlySet<string>;
  /** The git markers of each directory that has any. */
  readonly markers: ReadonlyMap<string, ReadonlySet<GitMarker>>;
  /** The walk met its bound: what lies past it is not in the survey. */
  readonly cut: boolean;
}

/** The survey of a walk's entries (no walk enters a `.git`, so nothing below one is in it). */
export function surveyOf(entries: Iterable<WalkEntry>, cut: boolean): GitSurvey {
  const gitEntries: string[] = [];
  const dirs = new Set<string>(['']);
  const markers = new Map<string, Set<GitMarker>>();
  for (const { path, type } of entries) {
    const name = baseName(path);
    if (name === '.git') gitEntries.push(path);
    else if (type === 'dir') dirs.add(path);
    if (MARKER_TYPES.get(name)?.includes(type)) {
      const dir = dirName(path);
      markers.set(dir, (markers.get(dir) ?? new Set<GitMarker>()).add(name as GitMarker));
    }
  }
  return { gitEntries, dirs, markers, cut };
}

/**
 * The git directories a command made, between the survey `before` and the survey `after`: each
 * directory git would take for a repository that it did not before, unless it is in `kept` (the
 * repositories a `.git` file names, after a `git init --separate-git-dir` a person approved). A
 * new directory is named whole; in one that was there, the markers the command added (removing
 * them is enough for git to stop taking it for a repository). Where `before` was cut, only the
 * directories it saw are judged: a new one cannot be told from one the walk did not reach.
 */
export function madeGitDirs(before: GitSurvey, after: GitSurvey, kept: readonly string[] = []): string[] {
  const made: string[] = [];
  for (const [dir, markers] of after.markers) {
    const was = before.markers.get(dir);
    if (!gitShaped(markers) || gitShaped(was) || kept.includes(dir)) continue;
    if (!before.dirs.has(dir)) {
      if (!before.cut) made.push(dir);
      continue;
    }
    for (const m of markers) if (!was?.has(m)) made.push(dir === '' ? m : `${dir}/${m}`);
  }
  return made.sort().filter((p, i, all) => !all.slice(0, i).some((d) => p.startsWith(`${d}/`)));
}

/** Directories the Workspace survey does not enter: git's own (never a repository's work tree) and `node_modules`. */
const NOT_ENTERED: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** The survey of `ws`'s tree, walked with the tools' own walker and bound. */
export async function surveyWorkspace(ws: Workspace, maxEntries = MAX_WALK_ENTRIES): Promise<GitSurvey> {
  const walked = await walkTree(ws, '', { skip: NOT_ENTERED, maxEntries });
  return surveyOf(walked.entries, walked.truncated);
}

/** A git directory a `.git` file in the workspace names (root-relative, physical) and that file. */
export interface NamedGitDir {
  readonly dir: string;
  readonly by: string;
}

/**
 * Every git directory the `.git` files in `survey` name inside `ws`'s root, resolved through the
 * jail's physical walk (a link out of the root, a loop: nothing named). A named directory need not
 * exist yet: what is written there would make it the repository the `.git` file already names.
 */
export async function gitDirsNamed(ws: Workspace, survey: GitSurvey): Promise<NamedGitDir[]> {
  const root = ws.root.replace(/\/+$/, '');
  const relOf = (abs: string) => abs.slice(root.length + 1);
  const commandRoot = ws.commandRoot ?? WORKSPACE_PATH;
  const physical = async (abs: string): Promise<string | undefined> => {
    const segs = insideRoot(root, onBackend(abs, root, commandRoot));
    if (!segs?.length) return undefined;
    const walked = await walk(ws, segs, 'read', JSON.stringify(abs));
    return walked.ok && walked.segments.length ? `${root}/${walked.segments.join('/')}` : undefined;
  };
  const answer = async (q: GitDirQuestion): Promise<string | undefined> => {
    if ('place' in q) return physical(q.place);
    const at = await physical(q.firstLine);
    const st = at === undefined ? null : await ws.lstat(relOf(at));
    if (st?.type !== 'file' || st.size > POINTER_MAX_BYTES) return undefined;
    return firstLineOf(new TextDecoder().decode(await ws.readFile(relOf(at!))));
  };
  const out: NamedGitDir[] = [];
  for (const by of survey.gitEntries) {
    for (const dir of await answerAsync(namedGitDirs(`${root}/${by}`), answer)) out.push({ dir: relOf(dir), by });
  }
  return out;
}

/** The largest pointer file read: git itself reads a `.git` file whole; this is far past any path. */
const POINTER_MAX_BYTES = 64 * 1024;

/** Whether root-relative `path` is `dir` or below it. */
export function isAtOrBelow(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/**
 * The git directory a `.git` file in `ws` names that a write at the root-relative `path` would
 * change, if any: one that holds (or is) `path`, or one below a `path` that is not there yet (a
 * directory moved there would bring the repository's files with it).
 */
export async function gitDirHolding(ws: Workspace, path: string): Promise<NamedGitDir | undefined> {
  const survey = await surveyWorkspace(ws);
  if (survey.gitEntries.length === 0) return undefined;
  const named = await gitDirsNamed(ws, survey);
  const held = named.find((n) => isAtOrBelow(path, n.dir));
  if (held || path === '' || (await ws.lstat(path))) return held;
  return named.find((n) => isAtOrBelow(n.dir, path));
}
