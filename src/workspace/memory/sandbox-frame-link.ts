/**
 * The engine worker's side of the sandbox frame (public/sandbox.html). A frame can only be
 * created on the page, and the engine runs in a worker, so the page creates it and hands the
 * engine a MessagePort to the frame's host script (`attach`, over the `attach-sandbox`
 * request). Each job then gets a worker of its own in that frame: the engine creates a
 * MessageChannel per job and sends one end with the spawn request; the frame gives that end to
 * the new worker as its first message, before any workspace code exists, and the runtime keeps
 * it private. The engine listens for output on its end of that channel only — what the worker
 * posts on its own scope reaches the frame, which drops it.
 *
 * Spawn requests made before the page attached wait for it: sessions are created before the
 * page has its frame, and the first `node` may run before the frame has loaded. Where no page
 * can exist (Node), a spawn fails at once instead.
 */
import type { SandboxJob, SandboxLimits, SandboxWorker } from './sandbox-worker.ts';

/** The part of a MessagePort the link uses (a Node MessagePort in tests). */
export interface FramePort {
  postMessage(message: unknown, transfer?: Transferable[]): void;
  addEventListener(type: 'message', listener: (event: MessageEvent) => void): void;
  start?(): void;
  close(): void;
}

/** What the frame's host sends on the engine's port (see public/sandbox.html). */
type HostReport =
  | { readonly type: 'error'; readonly id: number; readonly message: string }
  | { readonly type: 'memory'; readonly id: number; readonly bytes: number };

/** How long a job waits for the page to attach the frame before it fails with a message. */
const ATTACH_WAIT_MS = 15_000;

/** Whether this thread belongs to a page that can attach a frame: a browser worker or the page itself. */
function inBrowser(): boolean {
  const g = globalThis as { WorkerGlobalScope?: unknown; document?: unknown };
  return typeof g.WorkerGlobalScope === 'function' || typeof g.document === 'object';
}

export class SandboxFrameLink {
  /** `pageCanAttach` false: no page will ever attach, so spawning throws instead of waiting. */
  constructor(private readonly pageCanAttach: boolean = inBrowser()) {}

  #port: FramePort | null = null;
  #nextId = 1;
  readonly #jobs = new Map<number, { error(message: string): void; memory(bytes: number): void }>();
  readonly #waiting = new Set<(port: FramePort | null) => void>();

  /** Uses the frame served on `port` from now on (the page attaches again after an engine restart). */
  attach(port: FramePort): void {
    this.#port?.close();
    this.#port = port;
    port.addEventListener('message', (e) => this.#report(e.data as HostReport));
    port.start?.();
    for (const w of this.#waiting) w(port);
    this.#waiting.clear();
  }

  /** A worker in the frame running `runtime`; its job is queued on the private channel until the runtime takes it. */
  spawn(runtime: string, limits: SandboxLimits): SandboxWorker {
    if (!this.#port && !this.pageCanAttach)
      throw new Error(
        'it runs in the browser, in a frame the playground page provides, and this host has no page (run node on the Node backend)',
      );
    const id = this.#nextId++;
    const channel = new MessageChannel();
    const handlers = { error: (_m: string) => {}, memory: (_b: number) => {} };
    let ended = false;
    this.#jobs.set(id, { error: (m) => handlers.error(m), memory: (b) => handlers.memory(b) });
    const start = (port: FramePort | null) => {
      if (ended) return;
      if (!port)
        return handlers.error(
          `the page did not provide the sandbox frame within ${ATTACH_WAIT_MS / 1000} s (it is created by the playground page; a page without it cannot run node)`,
        );
      port.postMessage({ type: 'spawn', id, runtime, memoryCapBytes: limits.memoryCapBytes, port: channel.port2 }, [
        channel.port2,
      ]);
    };
    if (this.#port) start(this.#port);
    else this.#wait(start);
    return {
      postMessage: (job: SandboxJob) => channel.port1.postMessage(job),
      onMessage: (h) => {
        channel.port1.onmessage = (e) => h(e.data);
      },
      onError: (h) => (handlers.error = h),
      onMemory: (h) => (handlers.memory = h),
      terminate: () => {
        ended = true;
        this.#jobs.delete(id);
        channel.port1.close();
        this.#port?.postMessage({ type: 'terminate', id });
      },
    };
  }

  #wait(start: (port: FramePort | null) => void): void {
    const timer = setTimeout(() => {
      this.#waiting.delete(once);
      start(null);
    }, ATTACH_WAIT_MS);
    const once = (port: FramePort | null) => {
      clearTimeout(timer);
      start(port);
    };
    this.#waiting.add(once);
  }

  #report(r: HostReport): void {
    const job = r && typeof r === 'object' ? this.#jobs.get(r.id) : undefined;
    if (!job) return;
    if (r.type === 'error') job.error(String(r.message));
    else if (r.type === 'memory' && typeof r.bytes === 'number') job.memory(r.bytes);
  }
}

/** The engine worker's one link: the `attach-sandbox` request attaches it, every memory workspace's `node` spawns through it. */
export const sandboxFrame = new SandboxFrameLink();
