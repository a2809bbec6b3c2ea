/** What the WebContainer notice shows (types only): starting, running, or why not and what runs instead. */
import type { BootFailureReason } from '../../workspace/webcontainer/boot.ts';

export type WebContainerStatus =
  /** Booting; gives up after `timeoutMs`. */
  | { readonly state: 'booting'; readonly timeoutMs: number }
  /** Running; `root` is its working directory. */
  | { readonly state: 'ready'; readonly root: string }
  /** Not available: the boot's reason and message; the in-memory workspace is in use. */
  | { readonly state: 'unavailable'; readonly reason: BootFailureReason; readonly message: string };
