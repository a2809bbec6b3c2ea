/**
 * Helpers for the WebContainer specs (the check page and the playground): making WebContainer
 * unavailable on purpose, the notice that says why, and skipping the online tests, with the
 * reason printed, where StackBlitz cannot be reached.
 */
import type { Locator, Page } from '@playwright/test';
import { test } from './console.ts';

const SKIP_OFFLINE = "skipped: no network (WebContainer boots from StackBlitz's servers)";

/** The notice for an unavailable WebContainer, by reason. */
export function unavailable(page: Page, reason: string): Locator {
  return page.locator(`[role="alert"][data-state="unavailable"][data-reason="${reason}"]`);
}

/** The page believes the browser is offline (set before it loads). */
export async function goOffline(page: Page): Promise<void> {
  await page.addInitScript(() => Object.defineProperty(Navigator.prototype, 'onLine', { get: () => false }));
}

/** StackBlitz does not answer: deterministic on any machine, the iframe WebContainer boots from never loads. */
export async function blockStackBlitz(page: Page): Promise<void> {
  await page.route('https://stackblitz.com/**', (route) => route.abort('internetdisconnected'));
}

/** Skips the running test unless StackBlitz answers at all within 3 s (any HTTP status). */
export async function skipUnlessOnline(): Promise<void> {
  const online = await stackblitzReachable();
  // The list reporter does not show skip reasons; say it on the test's output as well.
  if (!online) console.log(SKIP_OFFLINE);
  test.skip(!online, SKIP_OFFLINE);
}

async function stackblitzReachable(): Promise<boolean> {
  try {
    await fetch('https://stackblitz.com/headless', { method: 'HEAD', signal: AbortSignal.timeout(3000) });
    return true;
  } catch {
    return false;
  }
}
