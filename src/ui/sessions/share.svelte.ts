/**
 * Sharing a session by link: the worker encodes it (the codec: deflate-raw + base64url in the
 * URL hash) and reports the link's length; the page shows the length before anything is
 * copied, and past what chat apps keep it says so and offers the file instead.
 */
import type { EngineClient, Session, ShareLink } from '../../worker/client.ts';

/** The part of `navigator.clipboard` used here. */
export interface ClipboardLike {
  writeText(text: string): Promise<void>;
}

export class ShareState {
  link = $state.raw<ShareLink | null>(null);
  busy = $state(false);
  copied = $state(false);
  error = $state<string | null>(null);
  /** The session the link (or the error) is about; it is shown only while that session is. */
  subject = $state.raw<Session | null>(null);

  constructor(
    private readonly client: EngineClient,
    private readonly clipboard: () => ClipboardLike | undefined,
  ) {}

  /** Makes the link of `session` on the page at `base` (any hash of `base` is replaced), with `title` when the link has room. */
  async make(session: Session, base: string, title?: string): Promise<void> {
    this.busy = true;
    this.subject = session;
    this.link = null;
    this.copied = false;
    this.error = null;
    try {
      const link = await this.client.shareLink(title === undefined ? session : { ...session, title }, base);
      if (this.subject === session) this.link = link;
    } catch (e) {
      if (this.subject !== session) return;
      this.error = `The link could not be made: ${e instanceof Error ? e.message : String(e)}. Export the session file instead.`;
    } finally {
      this.busy = false;
    }
  }

  /** True when the link or error on hand is about `session` (another run's link is never offered). */
  isFor(session: Session | null | undefined): boolean {
    return session != null && this.subject === session;
  }

  /** Copies the link; when the browser refuses, says to copy it from the field by hand. */
  async copy(): Promise<void> {
    const url = this.link?.url;
    if (!url) return;
    const clipboard = this.clipboard();
    try {
      if (!clipboard) throw new Error('this page has no clipboard access');
      await clipboard.writeText(url);
      this.copied = true;
      this.error = null;
    } catch (e) {
      this.copied = false;
      this.error = `The browser did not let the page copy (${e instanceof Error ? e.message : String(e)}); select the link in the field and copy it by hand.`;
    }
  }

  close(): void {
    this.subject = null;
    this.link = null;
    this.copied = false;
    this.error = null;
  }
}
