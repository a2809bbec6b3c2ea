/**
 * WebContainer in real Chromium, on the check page (webcontainer-check.html, a second entry of
 * the build), so these specs do not depend on the playground's layout. Each way WebContainer
 * can be unavailable must show its notice within the boot timeout (3 s here) and leave the
 * in-memory workspace working; when StackBlitz is reachable, the workspace self-check runs
 * against a real WebContainer. Every test also fails on any console error.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';
import { blockStackBlitz, goOffline, skipUnlessOnline, unavailable } from './webcontainer.ts';

const CHECK_PAGE = '/webcontainer-check.html?timeout=3000';

/** The fallback works: the memory workspace answers through the proxy, and its file checks pass. */
async function usableOnMemory(page: Page): Promise<void> {
  await expect(page.getByTestId('workspace-kind')).toHaveText('memory');
  await page.getByRole('button', { name: 'Write and read a file' }).click();
  await expect(page.getByTestId('round-trip-text')).toContainText('written through the memory workspace');
  await expect(page.getByRole('list', { name: 'Files at the workspace root' })).toContainText('package.json');
  await page.getByRole('button', { name: 'Run the workspace self-check' }).click();
  await expect(page.getByRole('heading', { name: 'Self-check: 8 of 8 passed' })).toBeVisible();
}

test.describe('WebContainer unavailable', () => {
  test.describe.configure({ timeout: 20_000 });

  test('offline: the notice says why at once, and the memory workspace keeps working', async ({
    page,
    problems: _problems,
  }) => {
    await goOffline(page);
    const started = Date.now();
    await page.goto(CHECK_PAGE);
    const notice = unavailable(page, 'offline');
    await expect(notice).toContainText('WebContainer needs a connection');
    await expect(notice).toContainText(
      "WebContainer cannot start: the browser is offline, and WebContainer boots from StackBlitz's servers (stackblitz.com).",
    );
    await expect(notice).toContainText('The run continues on the in-memory workspace');
    await expect(notice.getByRole('button', { name: 'Reload page' })).toBeVisible();
    expect(Date.now() - started).toBeLessThan(3000);
    await usableOnMemory(page);
    await screenshot(page, 'webcontainer-01-offline');
  });

  test('StackBlitz does not answer: the boot times out within 3 s with the reload advice', async ({
    page,
    problems: _problems,
  }) => {
    await blockStackBlitz(page);
    await page.goto(CHECK_PAGE);
    await expect(page.locator('[role="status"][data-state="booting"]')).toContainText('up to 3 s');
    const notice = unavailable(page, 'timeout');
    await expect(notice).toContainText(
      "WebContainer did not start within 3 s: StackBlitz's servers (stackblitz.com) did not answer",
      { timeout: 6000 },
    );
    await expect(notice).toContainText('Reload the page to try again');
    // The terminal panel (xterm) shows the host's notes.
    const terminal = page.getByTestId('webcontainer-terminal');
    await expect(terminal).toContainText('# Starting WebContainer');
    await expect(terminal).toContainText('# WebContainer did not start within 3 s');
    await usableOnMemory(page);
    await screenshot(page, 'webcontainer-02-timeout');
  });

  test('a page served without COOP/COEP: the notice names the headers', async ({ page, problems: _problems }) => {
    // The same page, its isolation headers removed.
    await page.route('**/webcontainer-check.html*', async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['cross-origin-opener-policy'];
      delete headers['cross-origin-embedder-policy'];
      await route.fulfill({ response, headers });
    });
    await page.goto(CHECK_PAGE);
    const notice = unavailable(page, 'not-isolated');
    await expect(notice).toContainText('This page is not cross-origin isolated');
    await expect(notice).toContainText(
      '"Cross-Origin-Opener-Policy: same-origin" and "Cross-Origin-Embedder-Policy: require-corp"',
    );
    await usableOnMemory(page);
  });
});

test('online: the workspace self-check passes against a real WebContainer', async ({ page, problems: _problems }) => {
  await skipUnlessOnline();
  test.setTimeout(120_000);
  await page.goto('/webcontainer-check.html?timeout=30000');
  await expect(page.locator('[role="status"][data-state="ready"]')).toBeVisible({ timeout: 35_000 });
  await expect(page.getByTestId('workspace-kind')).toHaveText('webcontainer');
  await page.getByRole('button', { name: 'Run the workspace self-check' }).click();
  await expect(page.getByRole('heading', { name: /^Self-check: \d+ of \d+ passed$/ })).toBeVisible({ timeout: 90_000 });
  expect(await page.locator('tr[data-ok="false"]').allInnerTexts()).toEqual([]);
  await expect(page.getByRole('heading', { name: 'Self-check: 13 of 13 passed' })).toBeVisible();
  await screenshot(page, 'webcontainer-03-online');
});
