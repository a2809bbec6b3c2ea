/**
 * The Workspace interface: the small surface every backend (memory, Node fs, WebContainer,
 * the worker proxy) implements. The engine owns it; backends implement it.
 *
 * Paths given to a Workspace are already jailed by the engine: POSIX, relative to the root,
 * without `.`/`..` segments or a leading slash; `''` is the root itself. Backends follow
 * symlinks in intermediate directories as their filesystem does; the engine resolves every
 * link itself (through `lstat` + `readlink`) before it calls a method, so what reaches a
 * backend is a physical path inside the root.
 *
 * Failures: a backend throws a `WorkspaceError` with a Node-style `code` (ENOENT, EISDIR,
 * ENOTDIR, EEXIST, ENOTEMPTY, EINVAL). The engine turns these into messages for the model.
 */

export type EntryType = 'file' | 'dir' | 'symlink';

export interface Stat {
  readonly type: EntryType;
  /** Bytes for files, link text length for symlinks, 0 for directories. */
  readonly size: number;
  /** A file's modification time, where the backend keeps one (git's stat shortcut uses it). */
  readonly mtimeMs?: number;
}

export interface DirEntry {
  readonly name: string;
  readonly type: EntryType;
}

export interface ExecOptions {
  /** Working directory, relative to the root ('' = root). */
  readonly cwd?: string;
  readonly timeoutMs: number;
  /** Output is capped while the command runs, never after. */
  readonly maxOutputBytes: number;
  readonly signal?: AbortSignal;
  readonly env?: Readonly<Record<string, string>>;
}

/**
 * Where one of a stage's output descriptors goes: `next` — the pipe into the next stage (for the
 * last stage, the call's output); `output` — the call's output (stdout and stderr of every stage
 * interleaved as written); `null` — discarded.
 */
export type ExecSink = 'next' | 'output' | 'null';

/** One process of an execution plan: exactly this argv, this environment, these descriptors. */
export interface ExecStage {
  /** The program and its arguments, literal: no shell ever reads them. */
  readonly argv: readonly string[];
  /** Added to the backend's base environment. */
  readonly env?: Readonly<Record<string, string>>;
  /**
   * What descriptor 0 reads: `pipe` — the previous stage's `next` output (for the first stage,
   * nothing); `empty` — nothing (`< /dev/null`); bytes — a heredoc, a here-string or an input
   * file the engine read through the jail.
   */
  readonly stdin: 'pipe' | 'empty' | Uint8Array;
  readonly stdout: ExecSink;
  readonly stderr: ExecSink;
}

/**
 * What a backend runs: one process per stage, started directly (never through a shell) and
 * joined by pipes. The shell policy builds it from the command it checked (`shell/plan.ts`), so
 * what was checked is exactly what runs.
 */
export interface ExecPlan {
  readonly stages: readonly ExecStage[];
}

/** A plan of one process: `argv`, its output and errors interleaved in the result. */
export function singleCommand(argv: readonly string[], env?: Readonly<Record<string, string>>): ExecPlan {
  return { stages: [{ argv, ...(env ? { env } : {}), stdin: 'empty', stdout: 'next', stderr: 'output' }] };
}

export interface ExecResult {
  /** null when the process was killed (timeout, abort). */
  readonly exitCode: number | null;
  /** stdout and stderr interleaved as the process wrote them, ANSI codes left in. */
  readonly output: string;
  /** Bytes the process wrote in all, including what the cap dropped. */
  readonly totalBytes: number;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  /** A backend-specific note ("ran in just-bash", "node not available"), shown in the step. */
  readonly backendNote?: string;
  /**
   * What the command's programs ran on when that is not the workspace's `runtime`: a command
   * that ran python3 says Python's version (`Python 3.14.2 (Pyodide 314.0.8)`, `Python 3.11.2`);
   * a shell step records it in the workspace's place.
   */
  readonly runtime?: string;
}

/**
 * The absolute path every backend that can choose one places the workspace at, as its commands
 * see it: the memory backend's root, the bind mount of the host sandbox (bubblewrap), and so the
 * eval's and replay's sandboxes. Paths in command output (a stack trace's file names) then agree
 * from one backend to another, and a session recorded on one replays on another.
 */
export const WORKSPACE_PATH = '/ws';

export interface Workspace {
  /** 'memory' | 'node' | 'webcontainer' | 'proxy' … shown in the UI and recorded in sessions. */
  readonly kind: string;
  /**
   * The absolute POSIX path of the root as the backend's filesystem sees it (`/ws` for the
   * memory backend, the real directory for Node). The engine needs it to judge absolute
   * symlink targets: a target under this path is inside the jail, any other is outside.
   */
  readonly root: string;
  /**
   * The workspace's absolute path as its commands see it, when that is not `WORKSPACE_PATH`
   * (WebContainer's home directory, a Node workspace run without the sandbox): a recorded
   * command's output is compared with this root read as `WORKSPACE_PATH`. Absent: `WORKSPACE_PATH`.
   */
  readonly commandRoot?: string;
  /** What commands' programs run on, beyond `kind`, when it varies (`Node v22.1.0`, `the browser's JavaScript sandbox`); recorded with a shell step. */
  readonly runtime?: string;
  /** False when `exec` can never run a command (a memory workspace made without a process runner). */
  readonly runsCommands?: boolean;
  /** True when `lstat`/`readlink` can report symlinks (WebContainer cannot). */
  readonly supportsSymlinks: boolean;

  /** A file's bytes; a backend may refuse one over MAX_WHOLE_FILE_BYTES (file-size.ts) with EFBIG. */
  readFile(path: string): Promise<Uint8Array>;
  /**
   * Optional, for search over many files: a regular file's bytes in one call when it has at most
   * `maxBytes` of them, `{ tooLarge: size }` (nothing read) when it has more, and null for
   * anything else (missing, a directory, a symlink, a FIFO, socket or device). Without it the
   * engine asks `lstat` first, then `readFile`.
   */
  readUpTo?(path: string, maxBytes: number): Promise<Uint8Array | { readonly tooLarge: number } | null>;
  /**
   * Optional, where commands can make entries that are not files: for a path `lstat` reports as
   * nothing there, what stands there instead when it is a FIFO, a socket or a device, in words
   * ('a FIFO (named pipe)', 'a socket', 'a device'), or null when nothing is there.
   */
  specialKind?(path: string): Promise<string | null>;
  /** Creates missing parent directories. */
  writeFile(path: string, data: Uint8Array): Promise<void>;
  mkdir(path: string): Promise<void>;
  readdir(path: string): Promise<DirEntry[]>;
  /** Does not follow a final symlink; null when nothing is there. */
  lstat(path: string): Promise<Stat | null>;
  /** The link's target text as stored, or null when `path` is not a symlink. */
  readlink(path: string): Promise<string | null>;
  /** Creates missing parent directories of `to`; fails with EEXIST when `to` exists. */
  rename(from: string, to: string): Promise<void>;
  /** Removes a file, a symlink (not its target) or a directory tree. */
  remove(path: string): Promise<void>;
  /**
   * Runs an already-checked plan: each stage's argv as given, stages joined by pipes, no shell.
   * The exit code is the last stage's (as bash reports a pipeline's). Backends without processes
   * return a result explaining so.
   */
  exec(plan: ExecPlan, opts: ExecOptions): Promise<ExecResult>;
  /**
   * Optional: whether `python3` runs in `exec` — `ready` (now, nothing to load), `not-loaded`
   * (it would load first, as the tab's Pyodide does) or `none`. The post-edit check asks
   * CPython's compile() only when ready (syntax/python-compile.ts).
   */
  pythonState?(): PythonState;
  /**
   * Optional: resolves when the next `python3` starts at once — where Python starts in a fresh
   * worker per job (the tab's Pyodide), when the workers started ahead have Python running. The
   * `.py` check waits for it before its own bound starts (syntax/python-compile.ts).
   */
  pythonWarm?(): Promise<void>;
}

/** Whether a workspace runs Python: see `Workspace.pythonState`. */
export type PythonState = 'ready' | 'not-loaded' | 'none';

export type WorkspaceErrorCode = 'ENOENT' | 'EISDIR' | 'ENOTDIR' | 'EEXIST' | 'ENOTEMPTY' | 'EINVAL' | 'EIO' | 'EFBIG';

/** The one error type backends throw; `code` mirrors Node's so callers can switch on it. */
export class WorkspaceError extends Error {
  constructor(
    readonly code: WorkspaceErrorCode,
    readonly path: string,
    message?: string,
  ) {
    super(message ?? `${code}: ${path || '.'}`);
    this.name = 'WorkspaceError';
  }
}

export function isWorkspaceError(e: unknown, code?: WorkspaceErrorCode): e is WorkspaceError {
  return (
    typeof e === 'object' &&
    e !== null &&
    (e as { name?: unknown }).name === 'WorkspaceError' &&
    (code === undefined || (e as { code?: unknown }).code === code)
  );
}
