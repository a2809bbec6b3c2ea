/**
 * The start screen's workspace choice: the in-memory workspace (the default; works offline),
 * or WebContainer (a real Node.js in the tab; needs a connection). Choosing WebContainer boots
 * it at once, through the page's WebContainer link, so the Run button can wait for it and the
 * notice can say why when it cannot start. When it fails, the choice falls back to the in-memory
 * workspace (the radio follows) and the notice stays, saying why, until a person picks a
 * workspace again. Runs then ask the worker for the workspace that is really there.
 */
import type { WorkspaceChoice as Backend } from '../../worker/client.ts';
import type { WebContainerLinkStatus } from '../../worker/webcontainer-link.ts';
import type { TerminalSource } from '../../workspace/webcontainer/terminal-feed.ts';
import type { WebContainerStatus } from '../webcontainer/status.ts';

/** The part of the page's WebContainer link this state uses. */
export interface WebContainerLinkLike {
  readonly status: WebContainerLinkStatus;
  readonly terminal: TerminalSource;
  onStatus(listener: (status: WebContainerLinkStatus) => void): () => void;
  boot(): Promise<WebContainerLinkStatus>;
}

/** The workspace a run asks for, or why Run waits. */
export type WorkspaceForRun =
  { readonly ok: true; readonly workspace: Backend } | { readonly ok: false; readonly reason: string };

export class WorkspaceChoice {
  readonly #link: WebContainerLinkLike;
  kind = $state<Backend>('memory');
  status = $state.raw<WebContainerLinkStatus>({ state: 'idle' });
  /** True once WebContainer, chosen, could not start and the choice fell back to memory. */
  fellBack = $state(false);

  /** What the WebContainer notice shows; null while WebContainer is not chosen (and did not just fail) or not asked for yet. */
  readonly notice: WebContainerStatus | null = $derived(
    (this.kind === 'webcontainer' && this.status.state !== 'idle') ||
      (this.fellBack && this.status.state === 'unavailable')
      ? this.status
      : null,
  );
  readonly forRun: WorkspaceForRun = $derived(this.#forRun());

  constructor(link: WebContainerLinkLike) {
    this.#link = link;
    this.status = link.status;
    // The link lives as long as the page, and so does this state: no unsubscribe.
    link.onStatus((s) => (this.status = s));
  }

  /** The terminal the run page shows for a run in WebContainer. */
  get terminal(): TerminalSource {
    return this.#link.terminal;
  }

  /** Picks a workspace; WebContainer starts booting now (once per page), and a failed boot falls back to memory. */
  choose(kind: Backend): void {
    this.kind = kind;
    this.fellBack = false;
    if (kind !== 'webcontainer') return;
    void this.#link.boot().then((s) => {
      if (s.state !== 'unavailable' || this.kind !== 'webcontainer') return;
      this.kind = 'memory';
      this.fellBack = true;
    });
  }

  #forRun(): WorkspaceForRun {
    if (this.kind === 'memory') return { ok: true, workspace: 'memory' };
    const s = this.status;
    switch (s.state) {
      case 'idle':
      case 'booting':
        return {
          ok: false,
          reason:
            'WebContainer is starting; Run is enabled once it is up, or once it has failed and the in-memory workspace is used instead.',
        };
      case 'ready':
        return { ok: true, workspace: 'webcontainer' };
      case 'unavailable':
        // The notice says why; the run goes ahead where it can.
        return { ok: true, workspace: 'memory' };
      default: {
        const never: never = s;
        throw new TypeError(`workspace choice: unknown status ${JSON.stringify(never)}`);
      }
    }
  }
}
