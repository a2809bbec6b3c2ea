/**
 * Booting WebContainer, or saying exactly why not. WebContainer boots from StackBlitz's servers
 * on the main thread only, needs a cross-origin isolated page, and offline its `boot()` promise
 * never settles — no rejection, no timeout — while a second `boot()` on the same page waits on
 * that same promise. So the checks that can fail fast come first, the boot is raced against a
 * timeout and against the browser going offline, and an attempt given up on is remembered: asking again on the same page answers
 * at once instead of waiting on a promise that can no longer help. Every failure message says
 * why, that the run continues on the in-memory workspace, and what brings WebContainer back.
 */
import type { WebContainer } from '@webcontainer/api';

export type BootFailureReason = 'offline' | 'timeout' | 'unsupported-browser' | 'not-isolated' | 'error';

export interface BootFailure {
  readonly ok: false;
  readonly reason: BootFailureReason;
  /** For the person: why, what happens now, and how to retry. */
  readonly message: string;
}

export type BootResult<T = WebContainer> = { readonly ok: true; readonly wc: T } | BootFailure;

export interface BootOptions {
  /** How long to wait for StackBlitz's servers (ms). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** What booting looks at in the page; the page's own by default, a stand-in in tests. */
export interface BootEnvironment<T = WebContainer> {
  readonly crossOriginIsolated: boolean;
  readonly hasSharedArrayBuffer: boolean;
  /** `navigator.onLine`: false means surely offline, true only "maybe online". */
  readonly onLine: boolean;
  /** Calls `listener` when the browser goes offline (the window's `offline` event); returns the unsubscribe. */
  onOffline?(listener: () => void): () => void;
  boot(): Promise<T>;
}

export const DEFAULT_BOOT_TIMEOUT_MS = 20_000;

/** What runs instead, said the way the start screen says it. */
export const FALLBACK_TEXT =
  "The run continues on the in-memory workspace, whose shell runs the project's JavaScript tests in a sandbox (no real Node.js, no npm install).";

/** The failure messages, by reason; exported so the notice and the tests quote the same text. */
export const BOOT_MESSAGES = {
  notIsolated:
    'WebContainer cannot start: this page is not cross-origin isolated (crossOriginIsolated is false), and WebContainer needs that for SharedArrayBuffer. ' +
    'The server must send "Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp" — npm run dev and npm run preview do; ' +
    `configure both headers on any other host. ${FALLBACK_TEXT} Reload the page once the headers are sent.`,
  unsupported:
    'WebContainer cannot start: this browser has no SharedArrayBuffer, even on a cross-origin isolated page. ' +
    `Use a current Chromium-based browser (Chrome, Edge, Brave, Opera). ${FALLBACK_TEXT}`,
  offline:
    "WebContainer cannot start: the browser is offline, and WebContainer boots from StackBlitz's servers (stackblitz.com). " +
    `${FALLBACK_TEXT} Go online and reload the page to use WebContainer.`,
  timeout: (ms: number): string =>
    `WebContainer did not start within ${formatSeconds(ms)}: StackBlitz's servers (stackblitz.com) did not answer — no network, a firewall, ` +
    `an ad blocker or a Content-Security-Policy without "frame-src https://stackblitz.com" can cause this. ${FALLBACK_TEXT} ` +
    'Reload the page to try again: the page keeps waiting on its first attempt, so trying again without a reload cannot help.',
  stillWaiting:
    'WebContainer is still waiting on an earlier attempt on this page that was given up on (it timed out, or the browser went offline), and a second attempt would wait on the same one. ' +
    `${FALLBACK_TEXT} Reload the page to try again.`,
  error: (why: string): string =>
    `WebContainer failed to start: ${why}. ${FALLBACK_TEXT} Reload the page to try again.`,
  cancelled: `Starting WebContainer was cancelled. ${FALLBACK_TEXT} Reload the page to try again.`,
} as const;

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

/** One boot per environment (per page), as the library allows; `timedOut` marks an attempt given up on. */
interface Attempt<T> {
  readonly promise: Promise<T>;
  settled: boolean;
  timedOut: boolean;
}
const attempts = new WeakMap<BootEnvironment<unknown>, Attempt<unknown>>();

let page: BootEnvironment | null = null;

/** This page's environment. Throws off the main thread: WebContainer needs `window`. */
export function pageEnvironment(): BootEnvironment {
  if (typeof window === 'undefined' || typeof document === 'undefined') {
    throw new Error(
      'bootWebContainer runs on the main thread only (WebContainer needs window and document); call it from the page, not a worker',
    );
  }
  // One object per page, so every caller shares the one boot attempt the library allows.
  page ??= {
    crossOriginIsolated: globalThis.crossOriginIsolated === true,
    hasSharedArrayBuffer: typeof SharedArrayBuffer === 'function',
    get onLine() {
      return navigator.onLine;
    },
    onOffline: (listener) => {
      window.addEventListener('offline', listener);
      return () => window.removeEventListener('offline', listener);
    },
    boot: async () => {
      // Loaded on demand: pages that never boot WebContainer never load its code.
      const { WebContainer } = await import('@webcontainer/api');
      return WebContainer.boot({ coep: 'require-corp', workdirName: 'project' });
    },
  };
  return page;
}

function fail(reason: BootFailureReason, message: string): BootFailure {
  return { ok: false, reason, message };
}

/** Boots WebContainer within `timeoutMs`, or says why it cannot; never rejects. */
export async function bootWebContainer<T = WebContainer>(
  options: BootOptions = {},
  env: BootEnvironment<T> = pageEnvironment() as unknown as BootEnvironment<T>,
): Promise<BootResult<T>> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_BOOT_TIMEOUT_MS;
  if (options.signal?.aborted) return fail('error', BOOT_MESSAGES.cancelled);
  if (!env.crossOriginIsolated) return fail('not-isolated', BOOT_MESSAGES.notIsolated);
  if (!env.hasSharedArrayBuffer) return fail('unsupported-browser', BOOT_MESSAGES.unsupported);
  if (!env.onLine) return fail('offline', BOOT_MESSAGES.offline);

  let attempt = attempts.get(env) as Attempt<T> | undefined;
  if (attempt?.timedOut && !attempt.settled) return fail('timeout', BOOT_MESSAGES.stillWaiting);
  if (!attempt) {
    const current: Attempt<T> = { promise: env.boot(), settled: false, timedOut: false };
    attempt = current;
    attempts.set(env, current);
    current.promise.then(
      () => (current.settled = true),
      // The library lets a failed boot be tried again, so forget it.
      () => attempts.delete(env),
    );
  }

  const pending = attempt;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  let offOffline: (() => void) | undefined;
  try {
    return await Promise.race<BootResult<T>>([
      pending.promise.then(
        (wc): BootResult<T> => ({ ok: true, wc }),
        (e: unknown) => fail('error', BOOT_MESSAGES.error(e instanceof Error ? e.message : String(e))),
      ),
      new Promise<BootResult<T>>((resolve) => {
        timer = setTimeout(() => {
          pending.timedOut = true;
          resolve(fail('timeout', BOOT_MESSAGES.timeout(timeoutMs)));
        }, timeoutMs);
      }),
      // Going offline mid-boot is evident at once: no need to wait out the timeout.
      new Promise<BootResult<T>>((resolve) => {
        offOffline = env.onOffline?.(() => {
          pending.timedOut = true;
          resolve(fail('offline', BOOT_MESSAGES.offline));
        });
      }),
      new Promise<BootResult<T>>((resolve) => {
        onAbort = () => resolve(fail('error', BOOT_MESSAGES.cancelled));
        options.signal?.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    clearTimeout(timer);
    offOffline?.();
    if (onAbort) options.signal?.removeEventListener('abort', onAbort);
  }
}
