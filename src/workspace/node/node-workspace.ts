/**
 * The Node workspace: the Workspace interface over a real directory, for the CLI, the bench
 * and tests. Paths arrive already jailed (relative, no `..`), so this backend only joins them
 * under the root and translates Node's errors; commands run as execution plans (`runPlan`),
 * each stage started by the workspace's launcher (directly, or inside the host sandbox).
 */
import { lstat, mkdir, readlink, realpath, rename, rm, symlink } from 'node:fs/promises';
import { execFileSync } from 'node:child_process';
import {
  closeSync,
  constants,
  existsSync,
  fstatSync,
  ftruncateSync,
  lstatSync,
  openSync,
  readdirSync,
  readSync,
  renameSync,
  writeFileSync,
  type Stats,
} from 'node:fs';
import { posix } from 'node:path';
import {
  WORKSPACE_PATH,
  WorkspaceError,
  type DirEntry,
  type ExecOptions,
  type ExecPlan,
  type ExecResult,
  type PythonState,
  type Stat,
  type Workspace,
} from '../../engine/workspace.ts';
import { dirName } from '../../engine/walk.ts';
import { MAX_WHOLE_FILE_BYTES, tooLargeText } from '../../engine/file-size.ts';
import { orMissing, toWorkspaceError } from '../fs-errors.ts';
import { isAtOrBelow, madeGitDirs, type GitSurvey } from '../../engine/git-dirs.ts';
import { isGitAlone, madeGitDirsText, undoneText } from '../protected-state.ts';
import { gitStatePaths, hostSurvey } from './git-entries.ts';
import { UNSANDBOXED, type CommandSandbox } from './host-sandbox.ts';
import { hostPython, PYTHON_NAMES } from './host-python.ts';
import { runPlan } from './node-exec.ts';

/** Directories no command may create or write: the repository and the harness's own state. */
const PROTECTED_DIRS = ['.git', '.slmcode'] as const;

export class NodeWorkspace implements Workspace {
  readonly kind = 'node';
  readonly supportsSymlinks = true;

  /** Use `NodeWorkspace.open`, which resolves the root physically. */
  private constructor(
    readonly root: string,
    /** What each command's processes run under: bubblewrap, directly, or nothing (refused). */
    readonly sandbox: CommandSandbox,
  ) {
    // In bubblewrap the workspace is bound at WORKSPACE_PATH; run directly, commands see the real directory.
    if (sandbox.kind !== 'bwrap') this.commandRoot = root;
  }

  /** The root as commands see it, when it is not `WORKSPACE_PATH` (commands run without the sandbox). */
  readonly commandRoot?: string;

  /**
   * Opens a directory as a workspace. The root is its `realpath`, so the engine judges an
   * absolute symlink target against the physical location (e.g. `/tmp` → `/private/tmp`).
   * Throws a WorkspaceError (ENOENT, ENOTDIR) when `dir` is not a directory.
   */
  static async open(dir: string, options: { readonly sandbox?: CommandSandbox } = {}): Promise<NodeWorkspace> {
    let root: string;
    try {
      root = await realpath(dir);
    } catch (e) {
      throw toWorkspaceError(e, dir);
    }
    const st = await lstat(root);
    if (!st.isDirectory()) throw new WorkspaceError('ENOTDIR', dir, `ENOTDIR: ${dir} is not a directory`);
    return new NodeWorkspace(root, options.sandbox ?? UNSANDBOXED);
  }

  /** Python runs where this machine has one and commands run at all. */
  pythonState(): PythonState {
    return hostPython() && this.sandbox.kind !== 'refused' ? 'ready' : 'none';
  }

  /** Absolute path on disk for a jailed relative path. */
  abs(path: string): string {
    return path === '' ? this.root : posix.join(this.root, path);
  }

  private async guard<T>(path: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      throw toWorkspaceError(e, path);
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    // Synchronous on purpose: a small file costs tens of microseconds this way, several times
    // less than a trip through the thread pool, and ws_grep reads thousands of them in a row.
    // Opened without blocking and checked before the read: a FIFO a command made would
    // otherwise stop the whole process until some writer opened it.
    const notRead = (kind: string): WorkspaceError =>
      new WorkspaceError(
        'EIO',
        path,
        `${path} is ${kind}, not a regular file: the file tools do not read it (reading could block forever or never end)`,
      );
    const buf = await this.guard(path, async () => {
      let fd: number;
      try {
        fd = openSync(this.abs(path), constants.O_RDONLY | constants.O_NONBLOCK);
      } catch (e) {
        // A Unix socket cannot be opened at all.
        throw (e as NodeJS.ErrnoException).code === 'ENXIO' ? notRead('a socket') : e;
      }
      try {
        const st = fstatSync(fd);
        const special = specialFileKind(st);
        if (special) throw notRead(special);
        // Stat before reading: host memory follows the work asked for, not a (sparse) file's size.
        const read =
          st.size > MAX_WHOLE_FILE_BYTES ? { tooLarge: st.size } : readToEnd(fd, st.size, MAX_WHOLE_FILE_BYTES);
        if (!(read instanceof Uint8Array))
          throw new WorkspaceError('EFBIG', path, `${tooLargeText(path, read.tooLarge)}; it is not read`);
        return read;
      } finally {
        closeSync(fd);
      }
    });
    // A plain Uint8Array, as every backend returns, not Node's Buffer subclass.
    return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  }

  async readUpTo(path: string, maxBytes: number): Promise<Uint8Array | { readonly tooLarge: number } | null> {
    // One open, fstat, read and close, where lstat + readFile take two more calls: ws_grep reads
    // thousands of files in a row. A final symlink is not followed (O_NOFOLLOW), nothing blocks
    // (O_NONBLOCK), and only a regular file is read.
    let fd: number;
    try {
      fd = openSync(this.abs(path), constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP' || code === 'ENXIO') return null;
      throw toWorkspaceError(e, path);
    }
    try {
      const st = fstatSync(fd);
      if (!st.isFile()) return null;
      if (st.size > maxBytes) return { tooLarge: st.size };
      return readToEnd(fd, st.size, maxBytes);
    } catch (e) {
      throw toWorkspaceError(e, path);
    } finally {
      closeSync(fd);
    }
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    await this.mkdir(dirName(path));
    await this.guard(path, async () => {
      // Without blocking, and checked before anything is written: a FIFO in the way would
      // otherwise hold the write until a reader came.
      const before = lstatSync(this.abs(path), { throwIfNoEntry: false });
      const kind = before && specialFileKind(before);
      if (kind)
        throw new WorkspaceError('EIO', path, `${path} is ${kind}, not a regular file: the file tools do not write it`);
      // Synchronous, as readFile is: an edit's write costs tens of microseconds, not a trip
      // through the thread pool for each of its five calls.
      const fd = openSync(this.abs(path), constants.O_WRONLY | constants.O_CREAT | constants.O_NONBLOCK, 0o666);
      try {
        const special = specialFileKind(fstatSync(fd));
        if (special)
          throw new WorkspaceError(
            'EIO',
            path,
            `${path} is ${special}, not a regular file: the file tools do not write it`,
          );
        // Written over from the start, then cut to its length: truncating to 0 first costs a
        // file of tens of kilobytes most of an edit's time here, freeing pages the write refills.
        writeFileSync(fd, data);
        ftruncateSync(fd, data.byteLength);
      } finally {
        closeSync(fd);
      }
    });
  }

  async mkdir(path: string): Promise<void> {
    const st = await this.lstat(path);
    if (st?.type === 'dir') return;
    // Node says EEXIST for a file in the way; the contract (and the memory backend) says ENOTDIR.
    if (st) throw new WorkspaceError('ENOTDIR', path, `ENOTDIR: ${path} exists and is not a directory`);
    try {
      await mkdir(this.abs(path), { recursive: true });
    } catch (e) {
      const err = toWorkspaceError(e, path);
      throw err.code === 'EEXIST'
        ? new WorkspaceError('ENOTDIR', path, `ENOTDIR: a parent of ${path} is not a directory`)
        : err;
    }
  }

  async readdir(path: string): Promise<DirEntry[]> {
    const entries = await this.guard(path, async () => readdirSync(this.abs(path), { withFileTypes: true }));
    return entries
      .filter((e) => e.isFile() || e.isDirectory() || e.isSymbolicLink())
      .map((e): DirEntry => ({ name: e.name, type: e.isSymbolicLink() ? 'symlink' : e.isDirectory() ? 'dir' : 'file' }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async lstat(path: string): Promise<Stat | null> {
    return orMissing(path, (): Stat | null => {
      const st = lstatSync(this.abs(path));
      if (specialFileKind(st)) return null;
      const type = st.isSymbolicLink() ? 'symlink' : st.isDirectory() ? 'dir' : 'file';
      return type === 'file'
        ? { type, size: st.size, mtimeMs: st.mtimeMs }
        : { type, size: type === 'dir' ? 0 : st.size };
    });
  }

  async specialKind(path: string): Promise<string | null> {
    return orMissing(path, () => {
      const st = lstatSync(this.abs(path), { throwIfNoEntry: false });
      return st ? specialFileKind(st) : null;
    });
  }

  async readlink(path: string): Promise<string | null> {
    const st = await this.lstat(path);
    if (st?.type !== 'symlink') return null;
    return this.guard(path, () => readlink(this.abs(path)));
  }

  async rename(from: string, to: string): Promise<void> {
    // fs.rename silently replaces an existing file; the contract refuses instead.
    if ((await this.lstat(to)) || (await this.specialKind(to))) throw new WorkspaceError('EEXIST', to);
    if (!(await this.lstat(from))) throw new WorkspaceError('ENOENT', from);
    await this.mkdir(dirName(to));
    await this.guard(from, () => rename(this.abs(from), this.abs(to)));
  }

  async remove(path: string): Promise<void> {
    if (path === '') throw new WorkspaceError('EINVAL', path, 'EINVAL: the workspace root itself cannot be removed');
    if (!(await this.lstat(path))) throw new WorkspaceError('ENOENT', path);
    // rm does not follow a final symlink: the link goes, its target stays.
    await this.guard(path, () => rm(this.abs(path), { recursive: true, force: false }));
  }

  /** Test and seeding helper: creates a symlink at `path` (relative to the root) pointing at `target` as written. */
  async symlink(target: string, path: string): Promise<void> {
    await this.mkdir(dirName(path));
    await this.guard(path, () => symlink(target, this.abs(path)));
  }

  async exec(plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    // git may use only the workspace's own .git: no repository found above the root, and no
    // bare repository made of files the model wrote (HEAD, config, objects/ at the root). The
    // policy lets no command set GIT_* itself, so these cannot be overridden.
    const stageEnv = {
      GIT_CEILING_DIRECTORIES: posix.dirname(this.commandRoot ?? WORKSPACE_PATH),
      GIT_CONFIG_COUNT: '1',
      GIT_CONFIG_KEY_0: 'safe.bareRepository',
      GIT_CONFIG_VALUE_0: 'explicit',
      ...opts.env,
    };
    const absent = PROTECTED_DIRS.filter((d) => !existsSync(this.abs(d)));
    const before = hostSurvey(this.root);
    const result = await runPlan({
      plan: { stages: plan.stages.map((s) => ({ ...s, env: { ...stageEnv, ...s.env } })) },
      root: this.root,
      cwd: this.abs(opts.cwd ?? ''),
      timeoutMs: opts.timeoutMs,
      maxOutputBytes: opts.maxOutputBytes,
      // The sandbox builds each stage's whole environment (the host's only when unsandboxed).
      baseEnv: {},
      launch: this.sandbox.wrap,
      memoryCap: this.sandbox.kind === 'bwrap' ? this.sandbox.memoryCap : null,
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    const kept = this.undoProtectedDirs(plan, absent, before, result);
    // A command that ran python3 (or pytest) ran on this machine's Python, which says its version.
    const python = plan.stages.some((s) => PYTHON_NAMES.has(posix.basename(s.argv[0] ?? ''))) ? hostPython() : null;
    return python ? { ...kept, runtime: `Python ${python.version}` } : kept;
  }

  /**
   * The sandbox mounts `.git/` and `.slmcode/` read-only only where they exist. A command that
   * created one of them — the top-level `.git` or `.slmcode`, or a `.git` at any depth (a script
   * making `sub/.git/config` with core.fsmonitor, or `.slmcode/hooks.json`) — has every process
   * ended once it returns, so removing what it made leaves nothing of it behind. Then a git
   * directory it made anywhere else (`git init --bare sub`, or HEAD, objects/ and refs/ written by
   * a script) goes the same way, by the rule every backend shares (madeGitDirs). Only a plan that
   * is git alone may create a repository with a `.git` (`git init`, which a person approves), and
   * the directory a `.git` file it made names. Each entry is first renamed out of the way (one
   * step, however deep it is), then deleted.
   */
  private undoProtectedDirs(
    plan: ExecPlan,
    absent: readonly string[],
    before: GitSurvey,
    result: ExecResult,
  ): ExecResult {
    const gitAlone = isGitAlone(plan);
    const nestedBefore = new Set(before.gitEntries);
    // When the walk before was whole, every entry there was is known, so the walk after is whole
    // too (it lists what the command made, in about the time it took to make it): a git directory
    // made behind more than GIT_WALK_ENTRIES new entries is still found. A cut walk stays cut.
    const after = before.cut ? hostSurvey(this.root) : hostSurvey(this.root, Infinity);
    const made = [
      ...absent.filter((d) => lstatSync(this.abs(d), { throwIfNoEntry: false }) !== undefined),
      ...after.gitEntries.filter((rel) => rel !== '.git' && !nestedBefore.has(rel)),
    ]
      .filter((rel) => !(gitAlone && posix.basename(rel) === '.git'))
      // A `.git` inside a `.slmcode/` the command also made goes with it.
      .filter((rel, _, all) => !all.some((d) => rel.startsWith(`${d}/`)));
    const notes = [result.backendNote];
    if (made.length) notes.push(this.removeMade(made, undoneText));
    const kept = gitAlone ? gitStatePaths(this.root).paths.map((p) => p.slice(this.root.length + 1)) : [];
    // What went with an entry removed above is not named again.
    const repos = madeGitDirs(before, after, kept).filter((rel) => !made.some((d) => isAtOrBelow(rel, d)));
    if (repos.length) notes.push(this.removeMade(repos, madeGitDirsText));
    const note = notes.filter((n): n is string => !!n).join('; ');
    return note ? { ...result, backendNote: note } : result;
  }

  /** Removes each of `made` (renamed aside, then deleted) and says so in `said`'s words, or what could not be removed. */
  private removeMade(made: readonly string[], said: (made: readonly string[]) => string): string {
    const failed: string[] = [];
    for (const rel of made) {
      const aside = this.abs(`.slm-removed-${process.pid}-${Date.now()}-${++removals}`);
      try {
        renameSync(this.abs(rel), aside);
        // rm walks the tree relative to each directory, so no depth of names stops it.
        execFileSync('rm', ['-rf', '--', aside], { stdio: 'ignore' });
      } catch (e) {
        failed.push(`${rel} (${e instanceof Error ? e.message : String(e)})`);
      }
    }
    return failed.length
      ? `the command created ${made.join(', ')}, which commands may not write; removing failed for ${failed.join(', ')} — delete it by hand before running git here`
      : said(made);
  }
}

/** Entries removed by this process so far: part of each one's name while it is set aside. */
let removals = 0;

/** What a non-regular file is, in words, or null for a regular file or a directory. */
function specialFileKind(st: Stats): string | null {
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device';
  return null;
}

/** Reads of files this small go through one reused buffer, copied out at their exact length. */
const SCRATCH = new Uint8Array(256 * 1024);

/**
 * Reads an open regular file of `size` bytes (its fstat) to its end: one read when it has that
 * size still, more when a read comes back short of it, past it (a file that grew, or one whose
 * size says 0 as procfs files do) — until a read returns nothing. Past `maxBytes` it is too
 * large after all.
 */
function readToEnd(fd: number, size: number, maxBytes: number): Uint8Array | { readonly tooLarge: number } {
  let buf = size < SCRATCH.length ? SCRATCH : new Uint8Array(size + 1);
  let have = 0;
  for (;;) {
    if (have === buf.length) {
      const grown = new Uint8Array(Math.min(buf.length * 2, maxBytes + 1));
      grown.set(buf);
      buf = grown;
    }
    const n = readSync(fd, buf, have, buf.length - have, null);
    have += n;
    if (have > maxBytes) return { tooLarge: have };
    if (n === 0 || (have === size && size > 0)) return buf === SCRATCH ? SCRATCH.slice(0, have) : buf.subarray(0, have);
  }
}
