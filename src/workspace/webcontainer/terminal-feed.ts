/**
 * The terminal tee: every command the WebContainer workspace runs, its output as it arrives
 * and how it ended, for the xterm panel on the page. The workspace emits events; a
 * `TerminalFeed` keeps a bounded backlog and fans them out, so a panel mounted after a few
 * commands still shows them. The UI imports only the `TerminalSource` type.
 */

export type TerminalEvent =
  /** A command is about to start; `cwd` is relative to the workspace root ('' = the root). */
  | { readonly kind: 'command'; readonly argv: readonly string[]; readonly cwd: string }
  /** Output exactly as the process wrote it (terminal escapes included). */
  | { readonly kind: 'output'; readonly data: string }
  /** The command ended; `exitCode` is null when it was killed (timeout, cancel). */
  | { readonly kind: 'exit'; readonly exitCode: number | null; readonly note?: string }
  /** A line from the host itself: "booting WebContainer…", "ready", why it is unavailable. */
  | { readonly kind: 'note'; readonly text: string };

export type TerminalListener = (event: TerminalEvent) => void;

/** What a terminal panel needs: a subscription that replays the backlog first. */
export interface TerminalSource {
  /** Calls `listener` with the backlog, then with every new event; returns the unsubscribe. */
  subscribe(listener: TerminalListener): () => void;
}

/** Characters an event costs in the backlog. */
function weight(e: TerminalEvent): number {
  switch (e.kind) {
    case 'command':
      return e.argv.reduce((n, a) => n + a.length + 1, 0) + e.cwd.length;
    case 'output':
      return e.data.length;
    case 'exit':
      return 16 + (e.note?.length ?? 0);
    case 'note':
      return e.text.length;
    default: {
      const never: never = e;
      throw new TypeError(`terminal feed: unknown event ${JSON.stringify(never)}`);
    }
  }
}

export class TerminalFeed implements TerminalSource {
  private readonly backlog: TerminalEvent[] = [];
  private backlogChars = 0;
  private readonly listeners = new Set<TerminalListener>();

  /**
   * `maxBacklogChars` bounds what a late subscriber is replayed (oldest events go first).
   * `onListenerError` gets the error of a listener that threw; by default it is rethrown on
   * its own turn, where the page reports uncaught errors.
   */
  constructor(
    private readonly maxBacklogChars = 200_000,
    private readonly onListenerError: (error: unknown) => void = rethrowLater,
  ) {}

  /** Records `event` and passes it on; usable directly as the workspace's `onTerminal`. */
  readonly emit = (event: TerminalEvent): void => {
    this.backlog.push(event);
    this.backlogChars += weight(event);
    while (this.backlog.length > 1 && this.backlogChars > this.maxBacklogChars) {
      this.backlogChars -= weight(this.backlog.shift()!);
    }
    for (const listener of this.listeners) this.deliver(listener, event);
  };

  subscribe(listener: TerminalListener): () => void {
    this.listeners.add(listener);
    for (const event of this.backlog) {
      if (!this.listeners.has(listener)) break; // it threw: dropped
      this.deliver(listener, event);
    }
    return () => this.listeners.delete(listener);
  }

  /** A panel's bug must not fail the command it is watching: a listener that throws is dropped and its error reported. */
  private deliver(listener: TerminalListener, event: TerminalEvent): void {
    try {
      listener(event);
    } catch (e) {
      this.listeners.delete(listener);
      this.onListenerError(e);
    }
  }
}

function rethrowLater(error: unknown): void {
  queueMicrotask(() => {
    throw error;
  });
}
