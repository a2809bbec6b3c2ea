/**
 * `ProxyWorkspace`: the Workspace interface in the engine worker, forwarding every call over a
 * MessagePort to `serveWorkspace` on the thread that owns the real backend (WebContainer runs
 * on the main thread only). The engine, the jail and isomorphic-git use it like any backend.
 *
 * Nothing waits forever: the handshake, every file call and every exec have a deadline, so a
 * page whose backend stopped answering turns into an EIO error (file calls) or a result that
 * says so (exec), never a hung agent.
 */
import {
  WorkspaceError,
  type DirEntry,
  type ExecOptions,
  type ExecPlan,
  type ExecResult,
  type Stat,
  type Workspace,
} from '../../engine/workspace.ts';
import type {
  ProxyCallOf,
  ProxyReply,
  ProxyRequest,
  WireExecOptions,
  WorkspaceCalls,
  WorkspaceInfo,
  WorkspaceOp,
  WorkspacePort,
} from './protocol.ts';
import { fromWireFailure, transferableCopy } from './wire.ts';

export interface ProxyOptions {
  /** How long the handshake may take (ms). */
  readonly connectTimeoutMs?: number;
  /** How long a file call may wait for its answer (ms). */
  readonly callTimeoutMs?: number;
  /** How long past its own timeout an exec may wait for its answer (ms): killing and flushing take a moment. */
  readonly execGraceMs?: number;
}

const DEFAULTS = { connectTimeoutMs: 10_000, callTimeoutMs: 30_000, execGraceMs: 10_000 } as const;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** Ids, pending replies and deadlines over one port. */
class Channel {
  #nextId = 1;
  readonly #pending = new Map<number, Pending>();
  #closedBecause: string | null = null;
  readonly #listener = (event: MessageEvent): void => {
    const reply = event.data as ProxyReply;
    const pending = this.#pending.get(reply?.id);
    if (!pending) return; // answered after its deadline: nobody waits for it any more
    this.#pending.delete(reply.id);
    clearTimeout(pending.timer);
    if (reply.type === 'result') pending.resolve(reply.value);
    else pending.reject(fromWireFailure(reply.error));
  };

  constructor(private readonly port: WorkspacePort<ProxyRequest>) {
    port.addEventListener('message', this.#listener);
    port.start?.();
  }

  /** Sends one call; `late` makes the error a call gets when no answer came within `deadlineMs`. */
  start<K extends WorkspaceOp>(
    op: K,
    params: WorkspaceCalls[K]['params'],
    transfer: Transferable[],
    deadlineMs: number,
    late: () => Error,
  ): { id: number; result: Promise<WorkspaceCalls[K]['result']> } {
    const id = this.#nextId++;
    if (this.#closedBecause !== null) {
      return {
        id,
        result: Promise.reject(
          new WorkspaceError('EIO', '', `EIO: the workspace connection is closed (${this.#closedBecause})`),
        ),
      };
    }
    const result = new Promise<WorkspaceCalls[K]['result']>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.#pending.delete(id);
        reject(late());
      }, deadlineMs);
      this.#pending.set(id, { resolve: resolve as (v: unknown) => void, reject, timer });
    });
    // TypeScript cannot narrow a generic K into the union; the shape is ProxyCallOf<K> by construction.
    const call: ProxyCallOf<K> = { type: 'call', id, op, ...params } as ProxyCallOf<K>;
    this.port.postMessage(call as ProxyCallOf<WorkspaceOp> as ProxyRequest, transfer);
    return { id, result };
  }

  send(message: ProxyRequest): void {
    if (this.#closedBecause === null) this.port.postMessage(message, []);
  }

  close(reason: string): void {
    if (this.#closedBecause !== null) return;
    this.#closedBecause = reason;
    this.port.removeEventListener('message', this.#listener);
    for (const [, p] of this.#pending) {
      clearTimeout(p.timer);
      p.reject(new WorkspaceError('EIO', '', `EIO: the workspace connection was closed (${reason})`));
    }
    this.#pending.clear();
    this.port.close?.();
  }
}

export class ProxyWorkspace implements Workspace {
  /** The served workspace's kind ('webcontainer'…), so sessions record the backend that really ran. */
  readonly kind: string;
  readonly root: string;
  readonly commandRoot?: string;
  readonly supportsSymlinks: boolean;

  private constructor(
    private readonly channel: Channel,
    info: WorkspaceInfo,
    private readonly opts: Required<ProxyOptions>,
  ) {
    this.kind = info.kind;
    this.root = info.root;
    if (info.commandRoot !== undefined) this.commandRoot = info.commandRoot;
    this.supportsSymlinks = info.supportsSymlinks;
  }

  /**
   * Connects over `port` (already handed over by the page) and asks the served workspace to
   * describe itself. Throws a WorkspaceError (EIO) when nothing answers within the handshake
   * deadline: the caller then keeps the in-memory workspace.
   */
  static async connect(port: WorkspacePort<ProxyRequest>, options: ProxyOptions = {}): Promise<ProxyWorkspace> {
    const opts = { ...DEFAULTS, ...options };
    const channel = new Channel(port);
    const late = (): Error =>
      new WorkspaceError(
        'EIO',
        '',
        `EIO: the page's workspace did not answer the handshake within ${opts.connectTimeoutMs} ms; is serveWorkspace running on the other end of the port?`,
      );
    try {
      const info = await channel.start('describe', {}, [], opts.connectTimeoutMs, late).result;
      return new ProxyWorkspace(channel, info, opts);
    } catch (e) {
      channel.close('the handshake failed');
      throw e;
    }
  }

  /** Stops forwarding: pending and later calls fail with EIO naming `reason`. */
  close(reason = 'closed by the engine'): void {
    this.channel.close(reason);
  }

  private call<K extends Exclude<WorkspaceOp, 'exec' | 'describe'>>(
    op: K,
    path: string,
    params: WorkspaceCalls[K]['params'],
    transfer: Transferable[] = [],
  ): Promise<WorkspaceCalls[K]['result']> {
    const ms = this.opts.callTimeoutMs;
    const late = (): Error =>
      new WorkspaceError(
        'EIO',
        path,
        `EIO: the ${this.kind} workspace did not answer ${op} of ${path || '.'} within ${ms} ms; it may have stopped — reload the page to start it again`,
      );
    return this.channel.start(op, params, transfer, ms, late).result;
  }

  readFile(path: string): Promise<Uint8Array> {
    return this.call('readFile', path, { path });
  }

  writeFile(path: string, data: Uint8Array): Promise<void> {
    const { bytes, transfer } = transferableCopy(data);
    return this.call('writeFile', path, { path, data: bytes }, transfer);
  }

  mkdir(path: string): Promise<void> {
    return this.call('mkdir', path, { path });
  }

  readdir(path: string): Promise<DirEntry[]> {
    return this.call('readdir', path, { path });
  }

  lstat(path: string): Promise<Stat | null> {
    return this.call('lstat', path, { path });
  }

  readlink(path: string): Promise<string | null> {
    return this.call('readlink', path, { path });
  }

  rename(from: string, to: string): Promise<void> {
    return this.call('rename', from, { from, to });
  }

  remove(path: string): Promise<void> {
    return this.call('remove', path, { path });
  }

  /** Never rejects: a lost answer is a result saying so, like every other backend's failures. */
  async exec(plan: ExecPlan, opts: ExecOptions): Promise<ExecResult> {
    if (opts.signal?.aborted) return notRun('cancelled before it started');
    // Only cloneable fields cross; the signal becomes an `abort` message.
    const wire: WireExecOptions = {
      timeoutMs: opts.timeoutMs,
      maxOutputBytes: opts.maxOutputBytes,
      ...(opts.cwd !== undefined ? { cwd: opts.cwd } : {}),
      ...(opts.env ? { env: { ...opts.env } } : {}),
    };
    const deadline = opts.timeoutMs + this.opts.execGraceMs;
    const late = (): Error =>
      new Error(
        `the ${this.kind} workspace did not answer within ${deadline} ms (its own timeout was ${opts.timeoutMs} ms)`,
      );
    const { id, result } = this.channel.start('exec', { plan, opts: wire }, [], deadline, late);
    const onAbort = (): void => this.channel.send({ type: 'abort', id });
    opts.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      return await result;
    } catch (e) {
      // Past the deadline the command may still run on the page: ask the server to kill it.
      this.channel.send({ type: 'abort', id });
      const why = e instanceof Error ? e.message : String(e);
      return notRun(`the command's result did not come back: ${why}. Reload the page if this repeats.`);
    } finally {
      opts.signal?.removeEventListener('abort', onAbort);
    }
  }
}

function notRun(why: string): ExecResult {
  return { exitCode: null, output: '', totalBytes: 0, truncated: false, timedOut: false, backendNote: why };
}
