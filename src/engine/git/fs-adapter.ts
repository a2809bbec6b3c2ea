/**
 * isomorphic-git over the engine's Workspace: the `promises` fs client it asks for (readFile,
 * writeFile, unlink, readdir, mkdir, rmdir, stat, lstat, readlink, symlink), with Node-style
 * error codes so its "missing file" and "already exists" branches work. The repository's working
 * tree is the workspace root, seen by isomorphic-git as the absolute directory `GIT_WORKDIR`.
 *
 * A read-only client refuses every write with EROFS: git_status and git_diff run on one, so a
 * bug (or an isomorphic-git code path that refreshes the index) can never change `.git`.
 */
import { isWorkspaceError, type Stat, type Workspace } from '../workspace.ts';
import { encodeText, decodeText } from '../text.ts';
import { dirName } from '../walk.ts';

/** The working-tree directory isomorphic-git is given; the adapter maps it to the workspace root. */
export const GIT_WORKDIR = '/';

/** An fs error isomorphic-git can switch on (it reads `code`). */
export class GitFsError extends Error {
  constructor(
    readonly code: string,
    readonly path: string,
    message?: string,
  ) {
    super(message ?? `${code}: ${path || '.'}`);
    this.name = 'GitFsError';
  }
}

/** A Node-like Stats object; the Workspace knows no times, ids or permission bits, so those are 0. */
export interface GitStats {
  readonly mode: number;
  readonly size: number;
  readonly ino: 0;
  readonly dev: 0;
  readonly uid: 0;
  readonly gid: 0;
  readonly mtimeMs: 0;
  readonly ctimeMs: 0;
  isFile(): boolean;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

/** Git's file modes for what a Workspace can hold (executable bits are unknown: files are 100644). */
export const MODE = { file: 0o100644, dir: 0o40000, symlink: 0o120000 } as const;

/** What isomorphic-git calls `fs.promises`. */
export interface GitPromiseFs {
  readFile(path: string, opts?: string | { encoding?: string }): Promise<Uint8Array | string>;
  writeFile(path: string, data: Uint8Array | string, opts?: unknown): Promise<void>;
  unlink(path: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  mkdir(path: string, opts?: unknown): Promise<void>;
  rmdir(path: string): Promise<void>;
  stat(path: string): Promise<GitStats>;
  lstat(path: string): Promise<GitStats>;
  readlink(path: string, opts?: unknown): Promise<string>;
  symlink(target: string, path: string): Promise<void>;
}

/** The fs client handed to isomorphic-git as `fs`. */
export interface GitFsClient {
  readonly promises: GitPromiseFs;
}

const MAX_LINK_HOPS = 8;

function toStats(st: Stat): GitStats {
  return {
    mode: MODE[st.type],
    size: st.size,
    ino: 0,
    dev: 0,
    uid: 0,
    gid: 0,
    mtimeMs: 0,
    ctimeMs: 0,
    isFile: () => st.type === 'file',
    isDirectory: () => st.type === 'dir',
    isSymbolicLink: () => st.type === 'symlink',
  };
}

/**
 * isomorphic-git's absolute path → a root-relative workspace path. It builds paths by joining
 * and by concatenation (`//src/a.js`), so empty and `.` segments are dropped; `..` never comes
 * from git itself and is refused, so no path can leave the root.
 */
export function workspacePath(gitPath: string): string {
  const parts: string[] = [];
  for (const seg of gitPath.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') throw new GitFsError('EACCES', gitPath, `EACCES: ${gitPath} leaves the workspace`);
    parts.push(seg);
  }
  return parts.join('/');
}

function encodingOf(opts: string | { encoding?: string } | undefined): string | undefined {
  return typeof opts === 'string' ? opts : opts?.encoding;
}

/** The fs client over `ws`. `readOnly` refuses every write with EROFS. */
export function gitFs(ws: Workspace, opts: { readOnly: boolean }): GitFsClient {
  const writable = (gitPath: string): string => {
    if (opts.readOnly) throw new GitFsError('EROFS', gitPath, `EROFS: ${gitPath} — this git client is read-only`);
    return workspacePath(gitPath);
  };

  const lstatOrThrow = async (path: string): Promise<Stat> => {
    const st = await ws.lstat(path);
    if (!st) throw new GitFsError('ENOENT', path);
    return st;
  };

  /** Follows symlinks the way stat does, but only to targets inside the workspace. */
  const follow = async (path: string): Promise<Stat> => {
    let current = path;
    for (let hop = 0; hop <= MAX_LINK_HOPS; hop++) {
      const st = await lstatOrThrow(current);
      if (st.type !== 'symlink') return st;
      const target = (await ws.readlink(current)) ?? '';
      const rooted = target.startsWith('/')
        ? target === ws.root || target.startsWith(`${ws.root}/`)
          ? target.slice(ws.root.length)
          : null
        : `${dirName(current)}/${target}`;
      // A link that points outside the workspace is, for git's purposes, not there.
      if (rooted === null || rooted.split('/').includes('..')) throw new GitFsError('ENOENT', path);
      current = workspacePath(rooted);
    }
    throw new GitFsError('ELOOP', path);
  };

  const promises: GitPromiseFs = {
    async readFile(gitPath, readOpts) {
      const bytes = await ws.readFile(workspacePath(gitPath));
      return encodingOf(readOpts) === 'utf8' ? decodeText(bytes) : bytes;
    },
    async writeFile(gitPath, data) {
      const path = writable(gitPath);
      await ws.writeFile(path, typeof data === 'string' ? encodeText(data) : data);
    },
    async unlink(gitPath) {
      const path = writable(gitPath);
      const st = await lstatOrThrow(path);
      if (st.type === 'dir') throw new GitFsError('EISDIR', path);
      await ws.remove(path);
    },
    async readdir(gitPath) {
      return (await ws.readdir(workspacePath(gitPath))).map((e) => e.name);
    },
    async mkdir(gitPath) {
      const path = writable(gitPath);
      if (await ws.lstat(path)) throw new GitFsError('EEXIST', path);
      await ws.mkdir(path);
    },
    async rmdir(gitPath) {
      const path = writable(gitPath);
      const st = await lstatOrThrow(path);
      if (st.type !== 'dir') throw new GitFsError('ENOTDIR', path);
      if ((await ws.readdir(path)).length > 0) throw new GitFsError('ENOTEMPTY', path);
      await ws.remove(path);
    },
    async stat(gitPath) {
      return toStats(await follow(workspacePath(gitPath)));
    },
    async lstat(gitPath) {
      return toStats(await lstatOrThrow(workspacePath(gitPath)));
    },
    async readlink(gitPath) {
      const path = workspacePath(gitPath);
      const target = await ws.readlink(path);
      if (target === null) throw new GitFsError((await ws.lstat(path)) ? 'EINVAL' : 'ENOENT', path);
      return target;
    },
    async symlink(_target, gitPath) {
      // Only checkout creates links, and the engine never checks out; the Workspace cannot make them.
      throw new GitFsError(
        'ENOSYS',
        writable(gitPath),
        `ENOSYS: ${gitPath} — the workspace git client cannot create symlinks`,
      );
    },
  };
  return { promises };
}

/** True for an error that means "nothing is there" (isomorphic-git's NotFoundError or an fs ENOENT). */
export function isNotFound(e: unknown): boolean {
  if (isWorkspaceError(e, 'ENOENT')) return true;
  const code = (e as { code?: unknown } | null)?.code;
  return code === 'ENOENT' || code === 'NotFoundError';
}
