/**
 * The WebContainer check page's state: where the workspace runs, and the results of the two
 * things a person (or the e2e spec) can do with it — a file round trip that shows the
 * workspace in use works, and the self-check that holds it to the Workspace contract. The page's
 * entry script does the work and hands it in as `CheckActions`; this class only keeps state.
 */
import type { CheckRow } from '../../workspace/webcontainer/self-check.ts';
import type { WebContainerStatus } from './status.ts';

/** The workspace in use, as the page's entry script connected it. */
export interface CheckActions {
  /** 'webcontainer', or 'memory' when WebContainer could not start. */
  readonly kind: string;
  /** Writes a file, reads it back and lists the root; resolves to what was read and listed. */
  roundTrip(): Promise<{ readonly text: string; readonly entries: readonly string[] }>;
  selfCheck(): Promise<readonly CheckRow[]>;
}

export class WebContainerCheckState {
  status = $state<WebContainerStatus>({ state: 'booting', timeoutMs: 0 });
  actions = $state<CheckActions | null>(null);
  roundTrip = $state<{ readonly text: string; readonly entries: readonly string[] } | null>(null);
  rows = $state<readonly CheckRow[] | null>(null);
  busy = $state(false);
  error = $state<string | null>(null);

  constructor(status: WebContainerStatus) {
    this.status = status;
  }

  /** Runs `work` unless something else is running; its failure becomes `error`, never an unhandled rejection. */
  private async run(work: (a: CheckActions) => Promise<void>): Promise<void> {
    const actions = this.actions;
    if (!actions || this.busy) return;
    this.busy = true;
    this.error = null;
    try {
      await work(actions);
    } catch (e) {
      this.error = e instanceof Error ? e.message : String(e);
    } finally {
      this.busy = false;
    }
  }

  tryWorkspace(): Promise<void> {
    return this.run(async (a) => {
      this.roundTrip = await a.roundTrip();
    });
  }

  runSelfCheck(): Promise<void> {
    return this.run(async (a) => {
      this.rows = null;
      this.rows = await a.selfCheck();
    });
  }
}
