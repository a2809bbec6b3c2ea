/**
 * The in-memory workspace: a file tree in just-bash's InMemoryFs, so the offline shell and the
 * file tools see the same files. Runs in a browser worker and in Node. The project lives at
 * `/ws`; anything else in the filesystem (e.g. `/outside` in tests) is outside the jail.
 */
import { InMemoryFs } from 'just-bash';
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
import { MAX_WHOLE_FILE_BYTES, tooLargeText } from '../../engine/file-size.ts';
import { isKnownCode, orMissing } from '../fs-errors.ts';
import { trackFs, type FsEntry } from './fs-changes.ts';
import { FsMemo } from './fs-memo.ts';
import { heldEntries } from './held-entries.ts';
import { runHeld } from '../protected-state.ts';
import type { ProcessRunner } from './process-runner.ts';

/** Where the memory workspace keeps the project: the path every backend that can places it at. */
export const MEMORY_ROOT = WORKSPACE_PATH;

/** What a command's output says when this workspace was made without a process runner (replays look for it). */
export const NO_RUNNER_NOTE = 'this memory workspace was created without a process runner, so no command can run in it';

/** just-bash's errors carry no `.code`; their messages start with it ("ENOENT: …"). */
function toWorkspaceError(e: unknown, path: string): WorkspaceError {
  const msg = e instanceof Error ? e.message : String(e);
  const code = /^(E[A-Z]+)\b/.exec(msg)?.[1] ?? '';
  return new WorkspaceError(isKnownCode(code) ? code : 'EIO', path, msg);
}

export class MemoryWorkspace implements Workspace {
  readonly kind = 'memory';
  readonly supportsSymlinks = true;
  private readonly memo: FsMemo;

  constructor(
    readonly fs: InMemoryFs = new InMemoryFs(),
    readonly root: string = MEMORY_ROOT,
    private readonly runner?: ProcessRunner,
  ) {
    fs.mkdirSync(root, { recursive: true });
    this.memo = new FsMemo(fs);
  }

  get runsCommands(): boolean {
    return this.runner !== undefined;
  }

  pythonWarm(): Promise<void> {
    return this.runner?.pythonWarm?.() ?? Promise.resolve();
  }

  pythonState(): PythonState {
    return this.runner?.pythonState?.() ?? 'none';
  }

  /** What the runner's programs run on, when it says. */
  get runtime(): string | undefined {
    return this.runner?.runtime;
  }

  /** Absolute path inside the in-memory filesystem. */
  abs(path: string): string {
    return path === '' ? this.root : `${this.root}/${path}`;
  }

  private async guard<T>(path: string, op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (e) {
      throw toWorkspaceError(e, path);
    }
  }

  /**
   * InMemoryFs lets a path run through a file (`a.txt/x` can even be created); Node's fs says
   * ENOTDIR. Walk the ancestors, following links as a real fs does, and throw ENOTDIR at the
   * first one that exists and is not a directory; stop quietly at the first missing one.
   */
  private async checkAncestors(path: string): Promise<void> {
    // Where each ancestor ends; the checks start below the deepest one already known to be a
    // directory with all of its own ancestors, so a walk deep down a tree does not check the
    // whole chain again for every entry.
    const ends: number[] = [];
    for (let i = path.indexOf('/'); i >= 0; i = path.indexOf('/', i + 1)) ends.push(i);
    const version = this.memo.version();
    let from = ends.length;
    while (from > 0 && !this.memo.chainChecked(this.abs(path.slice(0, ends[from - 1])))) from--;
    for (let i = from; i < ends.length; i++) {
      const prefix = path.slice(0, ends[i]);
      const abs = this.abs(prefix);
      const isDir = await this.memo.isDir(abs, () =>
        this.fs.stat(abs).then(
          (st) => st.isDirectory,
          () => null,
        ),
      );
      if (isDir === null) return;
      if (!isDir) throw new WorkspaceError('ENOTDIR', path, `ENOTDIR: ${prefix} is not a directory`);
      this.memo.markChain(abs, version);
    }
  }

  async readFile(path: string): Promise<Uint8Array> {
    await this.checkAncestors(path);
    const st = await this.lstatBelowCheckedAncestors(path);
    if (st?.type === 'dir') throw new WorkspaceError('EISDIR', path);
    // The same bound as every backend's (file-size.ts): a caller that stat'ed first never meets it.
    if (st && st.size > MAX_WHOLE_FILE_BYTES)
      throw new WorkspaceError('EFBIG', path, `${tooLargeText(path, st.size)}; it is not read`);
    return this.guard(path, () => this.fs.readFileBuffer(this.abs(path)));
  }

  async writeFile(path: string, data: Uint8Array): Promise<void> {
    const st = await this.lstat(path);
    if (st?.type === 'dir') throw new WorkspaceError('EISDIR', path);
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    await this.mkdir(parent);
    await this.guard(path, () => this.fs.writeFile(this.abs(path), data));
  }

  async mkdir(path: string): Promise<void> {
    await this.checkAncestors(path);
    const st = await this.lstat(path);
    if (st && st.type !== 'dir')
      throw new WorkspaceError('ENOTDIR', path, `ENOTDIR: ${path} exists and is not a directory`);
    await this.guard(path, () => this.fs.mkdir(this.abs(path), { recursive: true }));
  }

  async readdir(path: string): Promise<DirEntry[]> {
    await this.checkAncestors(path);
    const listed = this.memo.listing(this.abs(path));
    if (listed) return listed;
    const entries = await this.guard(path, () => this.fs.readdirWithFileTypes(this.abs(path)));
    return entries
      .map((e): DirEntry => ({ name: e.name, type: e.isSymbolicLink ? 'symlink' : e.isDirectory ? 'dir' : 'file' }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  }

  async lstat(path: string): Promise<Stat | null> {
    try {
      await this.checkAncestors(path);
    } catch (e) {
      if (e instanceof WorkspaceError && e.code === 'ENOTDIR') return null;
      throw e;
    }
    return this.lstatBelowCheckedAncestors(path);
  }

  /** lstat for a path whose ancestors checkAncestors has just passed. */
  private lstatBelowCheckedAncestors(path: string): Promise<Stat | null> {
    const abs = this.abs(path);
    return this.memo.lstat(abs, () =>
      orMissing(
        path,
        async (): Promise<Stat> => {
          const st = await this.fs.lstat(abs);
          return {
            type: st.isSymbolicLink ? 'symlink' : st.isDirectory ? 'dir' : 'file',
            size: st.isDirectory ? 0 : st.size,
          };
        },
        toWorkspaceError,
      ),
    );
  }

  async readlink(path: string): Promise<string | null> {
    const st = await this.lstat(path);
    if (st?.type !== 'symlink') return null;
    return this.guard(path, () => this.fs.readlink(this.abs(path)));
  }

  async rename(from: string, to: string): Promise<void> {
    if (await this.lstat(to)) throw new WorkspaceError('EEXIST', to);
    if (!(await this.lstat(from))) throw new WorkspaceError('ENOENT', from);
    const parent = to.includes('/') ? to.slice(0, to.lastIndexOf('/')) : '';
    await this.mkdir(parent);
    await this.guard(from, () => this.fs.mv(this.abs(from), this.abs(to)));
  }

  async remove(path: string): Promise<void> {
    if (path === '') throw new WorkspaceError('EINVAL', path, 'EINVAL: the workspace root itself cannot be removed');
    if (!(await this.lstat(path))) throw new WorkspaceError('ENOENT', path);
    await this.guard(path, () => this.fs.rm(this.abs(path), { recursive: true, force: false }));
  }

  /** Test and seeding helper: creates a symlink at `path` (relative to the root) pointing at `target` as written. */
  async symlink(target: string, path: string): Promise<void> {
    const parent = path.includes('/') ? path.slice(0, path.lastIndexOf('/')) : '';
    await this.mkdir(parent);
    await this.guard(path, () => this.fs.symlink(target, this.abs(path)));
  }

  exec(plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    if (!this.runner) {
      return Promise.resolve({
        exitCode: 127,
        output: '',
        totalBytes: 0,
        truncated: false,
        timedOut: false,
        backendNote: NO_RUNNER_NOTE,
      });
    }
    return this.runGuarded(this.runner, plan, opts);
  }

  /** Runs a command with `.git/` and `.slmcode/` held as they were (../protected-state.ts); what it changed there is undone and said. */
  private runGuarded(runner: ProcessRunner, plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    const tracked = trackFs(this.fs);
    if (!tracked) return runner.run(this, plan, opts);
    const held = heldEntries(tracked.entries as Map<string, FsEntry>, this.root);
    return runHeld(this, held, plan, () => runner.run(this, plan, opts));
  }
}
