/**
 * A live run whose endpoint fails before the first step, and one whose endpoint is slow: a
 * failed run says it failed, offers Retry whatever the failure, and has nothing to save or
 * share; while the endpoint is silent the page shows what it waits on, for how long, and the
 * limit, then streams the reply as it arrives.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';
import { standIn, type StandInReply } from './stand-in.ts';

async function runAgainst(page: Page, url: string): Promise<void> {
  await page.goto('/');
  await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
  await page.getByLabel('Base URL').fill(url);
  await page.getByLabel('Model', { exact: true }).fill('stand-in-coder');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page).toHaveURL(/#\/run$/);
}

const failures: { reply: StandInReply; says: RegExp }[] = [
  { reply: 'http-500', says: /500/ },
  { reply: 'garbage', says: /not|completion|JSON/i },
];

for (const { reply, says } of failures) {
  test(`a run whose endpoint answers ${String(reply)} before step 1 says it failed, offers Retry and keeps nothing`, async ({
    page,
    problems,
  }) => {
    const server = await standIn(true, reply);
    try {
      await runAgainst(page, server.url);
      await expect(page.getByTestId('run-stop')).toContainText(says, { timeout: 30_000 });
      await expect(page.getByTestId('run-phase')).toHaveText('failed');
      await expect(page.getByTestId('not-saved')).toContainText('Not saved: the run ended before its first step');
      await expect(page.getByText('● Recording')).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Share…' })).toHaveCount(0);
      await expect(page.getByRole('button', { name: 'Export file' })).toHaveCount(0);
      const retry = page.getByRole('button', { name: 'Retry' });
      await expect(retry).toBeVisible();
      await screenshot(page, `60-failed-before-step-1-${String(reply)}`);
      // Retry asks the endpoint again.
      const asked = server.requests.filter((r) => r.startsWith('POST')).length;
      await retry.click();
      await expect(page.getByTestId('run-phase')).toHaveText('failed');
      await expect.poll(() => server.requests.filter((r) => r.startsWith('POST')).length).toBeGreaterThan(asked);
      // The browser logs the failed request itself (a 500); nothing else may be logged.
      expect(problems.every((p) => /Failed to load resource|status of 500/.test(p))).toBe(true);
      problems.length = 0;
    } finally {
      await server.close();
    }
  });
}

test('a silent endpoint: the page shows what it waits on, the time and the limit, then streams the reply', async ({
  page,
  problems: _problems,
}) => {
  const server = await standIn(true, { silentMs: 3_500, pieceMs: 120 });
  try {
    await runAgainst(page, server.url);
    const waiting = page.getByTestId('waiting-note');
    await expect(waiting).toContainText('Waiting for stand-in-coder at');
    await expect(waiting).toContainText('to start writing step 1');
    await expect(waiting).toContainText('of the 2 min limit');
    // The clock ticks.
    await expect(waiting.getByTestId('live-clock')).toHaveText(/^[1-3]\.\d s$/, { timeout: 5_000 });
    await screenshot(page, '61-waiting-with-clock');
    // Then the reply streams in piece by piece, before the step is recorded.
    const live = page.getByTestId('live-output');
    await expect(live.locator('pre')).toContainText('I will run', { timeout: 10_000 });
    await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option')).toHaveCount(0);
    await screenshot(page, '62-streaming');
    await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option')).toHaveCount(1, { timeout: 15_000 });
    await page.getByRole('button', { name: 'Stop' }).click();
  } finally {
    await server.close();
  }
});
