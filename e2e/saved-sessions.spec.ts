/**
 * The saved-session list as a newcomer uses it, in real Chromium against the build (IndexedDB):
 * a run stopped before its first step leaves nothing behind, a run's entry names its task and
 * how it ended, it can be renamed, and a delete can be undone; a reload of the start screen in
 * the middle of a run stays on the start screen and offers the run. Every test also fails on
 * any console error.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

const saved = (page: Page) => page.getByTestId('saved-sessions').getByRole('listitem');
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });

async function openStart(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
}

test('a run stopped before its first step is not kept; a finished one is, and can be renamed and deleted with Undo', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await page.getByLabel(/Start paused/).check();
  await page.getByRole('button', { name: 'Start paused' }).click();
  await expect(page.getByTestId('run-phase')).toHaveText('paused');
  await page.getByRole('toolbar', { name: 'Run controls' }).getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('run-phase')).toHaveText('ended');
  await page.getByRole('link', { name: 'Start' }).click();
  await expect(page.getByText('Every run you start is saved here after each step')).toBeVisible();
  await expect(page.getByTestId('saved-sessions')).toHaveCount(0);

  await page.getByLabel(/Start paused/).uncheck();
  await runButton(page).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await page.getByRole('link', { name: 'Start' }).click();
  await expect(saved(page)).toHaveCount(1);
  const entry = saved(page).first();
  await expect(entry).toContainText('tiny-utils (starter) · scripted: ');
  await expect(entry).toContainText(' · Run the tests with `npm test`.');
  await expect(entry).toContainText('7 steps');
  await expect(entry).toContainText('finished with done: final tests pass');

  await entry.getByRole('button', { name: /^Rename / }).click();
  const title = entry.getByRole('textbox', { name: /^New title for / });
  await expect(title).toBeFocused();
  await title.fill('the truncate fix, first try');
  await title.press('Enter');
  await expect(entry.locator('.title')).toHaveText('the truncate fix, first try');
  await page.reload();
  await expect(saved(page).first().locator('.title')).toHaveText('the truncate fix, first try');
  await screenshot(page, 'saved-01-renamed');

  await saved(page).first().getByRole('button', { name: 'Delete the truncate fix, first try' }).click();
  await expect(page.getByTestId('saved-sessions')).toHaveCount(0);
  const deleted = page.getByTestId('deleted-notice');
  await expect(deleted).toContainText('Deleted “the truncate fix, first try”.');
  await screenshot(page, 'saved-02-deleted');
  await deleted.getByRole('button', { name: 'Undo' }).click();
  await expect(saved(page)).toHaveCount(1);
  await expect(saved(page).first()).toContainText('7 steps');
  await saved(page)
    .first()
    .getByRole('button', { name: /^Open / })
    .click();
  await expect(page.getByTestId('replay-verdict')).toHaveText('✓ Reproduced: all 7 replayed steps match the record');
});

test('a reload of the start screen during a run stays on the start screen and offers the run', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await page.getByLabel(/Start paused/).check();
  await page.getByRole('button', { name: 'Start paused' }).click();
  const step = page.getByRole('toolbar', { name: 'Run controls' }).getByRole('button', { name: 'Step' });
  await step.click();
  await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option')).toHaveCount(1);
  await expect(page.getByTestId('saved-steps')).toHaveAttribute('data-saved', '1');

  await page.goto('/#/');
  await page.reload();
  const offer = page.getByTestId('interrupted-offer');
  await expect(offer).toContainText('A run was cut short by a reload after step 1');
  await expect(page).toHaveURL(/#\/$/);
  await expect(runButton(page)).toBeVisible();
  await screenshot(page, 'saved-03-interrupted-offer');
  await offer.getByRole('button', { name: 'Open it to continue' }).click();
  await expect(page).toHaveURL(/#\/run/);
  await expect(page.getByTestId('continue-offer')).toContainText('This run was cut short after step 1');
});
