/**
 * The WebContainer workspace: the Workspace interface over a booted WebContainer's `fs` and
 * `spawn` — a real Node.js and npm in the tab. Main thread only (the library needs `window`);
 * the engine worker reaches it through the workspace proxy.
 *
 * WebContainer's fs API has readFile, writeFile, readdir (with file types), mkdir, rm and
 * rename, and nothing else: no stat, no lstat, no symlinks. So this backend:
 * - derives `lstat` from a `readdir(parent, {withFileTypes: true})`, and a file's size from
 *   reading it (exact, as the engine's size checks need; it costs a read per call);
 * - reports `supportsSymlinks: false` and `readlink` → null. An entry the API reports as neither
 *   file nor directory (its only other kind is a link, e.g. npm's `node_modules/.bin`) is shown
 *   as a file; reads follow links as the fs does;
 * - maps the fs errors (a Node-style code on the error or at the start of its message) to
 *   WorkspaceError codes.
 * Paths given to `fs` start with `/`, which WebContainer resolves against its workdir.
 */
import type { FileSystemTree } from '@webcontainer/api';
import {
  WorkspaceError,
  type DirEntry,
  type ExecOptions,
  type ExecPlan,
  type ExecResult,
  type ExecSink,
  type Stat,
  type Workspace,
} from '../../engine/workspace.ts';
import { dirName } from '../../engine/walk.ts';
import { orMissing, toWorkspaceError } from '../fs-errors.ts';
import { runHeld } from '../protected-state.ts';
import { toFileTree } from './file-tree.ts';
import { heldFiles } from './held-files.ts';
import { spawnCapped, type SpawnedProcess, type SpawnOptionsLike } from './spawn-capped.ts';
import type { TerminalListener } from './terminal-feed.ts';

/** A directory entry as WebContainer's readdir returns it: no `isSymbolicLink`. */
export interface WebContainerDirent {
  readonly name: string;
  isFile(): boolean;
  isDirectory(): boolean;
}

/** The calls this backend makes on `WebContainer.fs`. */
export interface WebContainerFs {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: Uint8Array): Promise<void>;
  readdir(path: string, options: { withFileTypes: true }): Promise<WebContainerDirent[]>;
  mkdir(path: string, options: { recursive: true }): Promise<unknown>;
  rm(path: string, options: { recursive: boolean; force: boolean }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
}

/** The part of a booted `WebContainer` this backend uses (a booted instance fits as it is). */
export interface WebContainerLike {
  /** Absolute path of the working directory, e.g. `/home/projects-abc`. */
  readonly workdir: string;
  readonly fs: WebContainerFs;
  spawn(command: string, args: string[], options?: SpawnOptionsLike): Promise<SpawnedProcess>;
  mount(tree: FileSystemTree): Promise<void>;
}

export interface WebContainerWorkspaceOptions {
  /** The terminal tee: every command, its output as it arrives and its end (for the xterm panel). */
  readonly onTerminal?: TerminalListener;
}

function byName(a: DirEntry, b: DirEntry): number {
  return a.name < b.name ? -1 : a.name > b.name ? 1 : 0;
}

export class WebContainerWorkspace implements Workspace {
  readonly kind = 'webcontainer';
  /** WebContainer's fs API cannot see links (see the file comment). */
  readonly supportsSymlinks = false;
  readonly root: string;
  /** WebContainer keeps the project in its home directory, not at `WORKSPACE_PATH`. */
  readonly commandRoot: string;

  constructor(
    private readonly wc: WebContainerLike,
    private readonly options: WebContainerWorkspaceOptions = {},
  ) {
    this.root = wc.workdir;
    this.commandRoot = wc.workdir;
  }

  /** The fs path of a workspace path: WebContainer resolves `/…` against its workdir. */
  private fsPath(path: string): string {
    return `/${path}`;
  }

  private async guard<T>(path: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      throw toWorkspaceError(e, path);
    }
  }

  /**
   * Replaces the workspace's files with `files` (a template, or a person's dropped files): every
   * top-level entry is removed, then the tree is mounted in one call.
   */
  async mountFiles(files: Readonly<Record<string, string | Uint8Array>>): Promise<void> {
    for (const entry of await this.readdir('')) await this.remove(entry.name);
    await this.guard('', () => this.wc.mount(toFileTree(files)));
  }

  async readFile(path: string): Promise<Uint8Array> {
    const bytes = await this.guard(path, () => this.wc.fs.readFile(this.fsPath(path)));
    // A plain Uint8Array, as every backend returns, whatever subclass the fs handed back.
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    if ((await this.entryType(path)) === 'dir') throw new WorkspaceError('EISDIR', path);
    await this.mkdir(dirName(path));
    await this.guard(path, () => this.wc.fs.writeFile(this.fsPath(path), data));
  }

  async mkdir(path: string): Promise<void> {
    const type = await this.entryType(path);
    if (type === 'dir') return;
    if (type) throw new WorkspaceError('ENOTDIR', path, `ENOTDIR: ${path} exists and is not a directory`);
    try {
      await this.wc.fs.mkdir(this.fsPath(path), { recursive: true });
    } catch (e) {
      // A file among the ancestors: Node-like filesystems say EEXIST or ENOTDIR; the contract says ENOTDIR.
      const err = toWorkspaceError(e, path);
      throw err.code === 'EEXIST' || err.code === 'ENOTDIR'
        ? new WorkspaceError('ENOTDIR', path, `ENOTDIR: a parent of ${path} is not a directory`)
        : err;
    }
  }

  async readdir(path: string): Promise<DirEntry[]> {
    const entries = await this.guard(path, () => this.wc.fs.readdir(this.fsPath(path), { withFileTypes: true }));
    return entries.map((e): DirEntry => ({ name: e.name, type: e.isDirectory() ? 'dir' : 'file' })).sort(byName);
  }

  /**
   * What the parent's listing says `path` is, without reading it: null when nothing is there
   * (or a parent is missing or a file). Enough for every check but `lstat`'s size.
   */
  private async entryType(path: string): Promise<'file' | 'dir' | null> {
    if (path === '') return 'dir';
    const entries: WebContainerDirent[] | null = await orMissing(path, () =>
      this.wc.fs.readdir(this.fsPath(dirName(path)), { withFileTypes: true }),
    );
    if (!entries) return null;
    const name = path.slice(path.lastIndexOf('/') + 1);
    const entry = entries.find((e) => e.name === name);
    return entry ? (entry.isDirectory() ? 'dir' : 'file') : null;
  }

  /** From the parent's listing; a file's size is the length of its bytes, read for the purpose. */
  async lstat(path: string): Promise<Stat | null> {
    const type = await this.entryType(path);
    if (type !== 'file') return type === 'dir' ? { type, size: 0 } : null;
    try {
      return { type, size: (await this.wc.fs.readFile(this.fsPath(path))).byteLength };
    } catch (e) {
      // Removed between the listing and the read, or a link to nothing: nothing readable is there.
      const err = toWorkspaceError(e, path);
      if (err.code === 'ENOENT') return null;
      throw err;
    }
  }

  /** WebContainer's fs cannot read a link's text: there are no symlinks to report. */
  readlink(_path: string): Promise<string | null> {
    return Promise.resolve(null);
  }

  async rename(from: string, to: string): Promise<void> {
    // fs.rename replaces an existing file; the contract refuses instead.
    // Checked on the listing: a dangling link is listed, so even that is never silently replaced.
    if (await this.entryType(to)) throw new WorkspaceError('EEXIST', to);
    if (!(await this.entryType(from))) throw new WorkspaceError('ENOENT', from);
    await this.mkdir(dirName(to));
    await this.guard(from, () => this.wc.fs.rename(this.fsPath(from), this.fsPath(to)));
  }

  async remove(path: string): Promise<void> {
    if (path === '') throw new WorkspaceError('EINVAL', path, 'EINVAL: the workspace root itself cannot be removed');
    if (!(await this.entryType(path))) throw new WorkspaceError('ENOENT', path);
    await this.guard(path, () => this.wc.fs.rm(this.fsPath(path), { recursive: true, force: false }));
  }

  /**
   * Runs a plan of one stage: exactly its argv (`argv[0]` the program, the rest its arguments),
   * no shell in between. WebContainer gives a process one terminal for stdout and stderr
   * together and no end-of-input for stdin, so a pipeline, an input redirection or a split of
   * the two streams cannot be carried out as checked: such a plan is not run, and the result
   * says what to send instead. What the process changed in `.git/` or `.slmcode/` is undone
   * after it, and the result says so (../protected-state.ts).
   */
  async exec(plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    const why = unsupported(plan);
    if (why) return { exitCode: 126, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: why };
    const stage = plan.stages[0]!;
    const cwd = opts.cwd ?? '';
    if ((await this.entryType(cwd)) !== 'dir') {
      return {
        exitCode: 126,
        output: '',
        totalBytes: 0,
        truncated: false,
        timedOut: false,
        backendNote: `could not start ${stage.argv[0] ?? 'the command'} in ${cwd}: no such directory`,
      };
    }
    const env = { ...opts.env, ...stage.env };
    // `.git/` and `.slmcode/` are held around the process, which can write both (held-files.ts).
    const r = await runHeld(this, heldFiles(this), plan, () =>
      spawnCapped(
        (cmd, args, o) => this.wc.spawn(cmd, args, o),
        stage.argv,
        { ...opts, ...(Object.keys(env).length ? { env } : {}) },
        this.options.onTerminal,
      ),
    );
    // Both streams discarded (`&>/dev/null`): the command ran, its output is not shown.
    return stage.stdout === 'null' ? { ...r, output: '', totalBytes: 0, truncated: false } : r;
  }
}

/** Why WebContainer cannot run `plan` exactly as checked, or null when it can. */
function unsupported(plan: ExecPlan): string | null {
  const [stage, ...rest] = plan.stages;
  if (stage === undefined) return 'no command was given (the plan is empty)';
  const advice =
    'Send each command as its own ws_shell call, without pipes or redirections (its output and errors are shown together).';
  if (rest.length > 0)
    return `WebContainer runs one process per call here, and this command is a pipeline of ${plan.stages.length}. ${advice}`;
  if (stage.stdin !== 'empty' && stage.stdin !== 'pipe')
    return `WebContainer gives a process no end of input, so a heredoc, here-string or < file cannot be fed to it. ${advice}`;
  const shown = (sink: ExecSink): ExecSink => (sink === 'next' ? 'output' : sink);
  if (shown(stage.stdout) !== shown(stage.stderr))
    return `WebContainer shows a process's output and errors together, so one of them cannot be sent to /dev/null alone. ${advice}`;
  return null;
}
