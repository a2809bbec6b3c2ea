/**
 * The workspace proxy's protocol — types only. The engine worker's `ProxyWorkspace` sends one
 * `call` per Workspace method over a MessagePort; `serveWorkspace` on the other side (the main
 * thread, where WebContainer lives) answers each with a `result` or an `error` naming the
 * call's id. Errors cross as data and keep their WorkspaceError `code` and `path`, so the
 * engine's messages are the same whichever side the backend runs on. An exec's AbortSignal
 * cannot cross a port: cancelling is its own `abort` message naming the exec's id.
 *
 * The first call is `describe`, the handshake: it tells the proxy the served workspace's
 * `kind`, `root` and `supportsSymlinks`, which the Workspace interface exposes synchronously.
 */
import type { DirEntry, ExecOptions, ExecPlan, ExecResult, Stat, WorkspaceErrorCode } from '../../engine/workspace.ts';

/** What the handshake reports about the served workspace. */
export interface WorkspaceInfo {
  readonly kind: string;
  readonly root: string;
  /** The served workspace's `commandRoot`, when it has one. */
  readonly commandRoot?: string;
  readonly supportsSymlinks: boolean;
}

/** ExecOptions as they cross the port: everything but the signal. */
export type WireExecOptions = Omit<ExecOptions, 'signal'>;

/** Each call's parameters and the value its reply carries, by operation. */
export interface WorkspaceCalls {
  describe: { params: {}; result: WorkspaceInfo };
  readFile: { params: { readonly path: string }; result: Uint8Array };
  /** `data` is a copy of exactly the caller's bytes, transferred (the caller's buffer stays usable). */
  writeFile: { params: { readonly path: string; readonly data: Uint8Array }; result: void };
  mkdir: { params: { readonly path: string }; result: void };
  readdir: { params: { readonly path: string }; result: DirEntry[] };
  lstat: { params: { readonly path: string }; result: Stat | null };
  readlink: { params: { readonly path: string }; result: string | null };
  rename: { params: { readonly from: string; readonly to: string }; result: void };
  remove: { params: { readonly path: string }; result: void };
  exec: { params: { readonly plan: ExecPlan; readonly opts: WireExecOptions }; result: ExecResult };
}

export type WorkspaceOp = keyof WorkspaceCalls;

export type ProxyCallOf<K extends WorkspaceOp> = {
  readonly type: 'call';
  readonly id: number;
  readonly op: K;
} & WorkspaceCalls[K]['params'];

/** One Workspace method call. */
export type ProxyCall = { [K in WorkspaceOp]: ProxyCallOf<K> }[WorkspaceOp];

/** What the proxy sends: calls, and the cancelling of a running exec. */
export type ProxyRequest = ProxyCall | { readonly type: 'abort'; readonly id: number };

/** A failure as data. `code` and `path` are set when the backend threw a WorkspaceError. */
export interface WireFailure {
  readonly name: string;
  readonly message: string;
  readonly code?: WorkspaceErrorCode;
  readonly path?: string;
}

/** What the serving side sends back: one reply per call, tagged with the call's id. */
export type ProxyReply =
  | { readonly type: 'result'; readonly id: number; readonly value: unknown }
  | { readonly type: 'error'; readonly id: number; readonly error: WireFailure };

/**
 * The part of a MessagePort the proxy and the server use (comlink's `Endpoint` idea), so a
 * `MessagePort` from a `MessageChannel` fits in the browser and in Node alike.
 */
export interface WorkspacePort<Out> {
  postMessage(message: Out, transfer: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  removeEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  /** A MessagePort delivers nothing to addEventListener listeners until it is started. */
  start?(): void;
  close?(): void;
}
