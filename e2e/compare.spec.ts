/**
 * Two runs side by side in real Chromium against the production build: two bundled examples
 * open by URL, replayed and aligned (every step of each side once, the first divergence
 * flagged), the keys move both sides, each side shows its notes, change and budget at the row;
 * and a session saved from a file reaches the split view from the sessions list's "Compare with…".
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

const rows = (page: Page) => page.getByTestId('compare-rows').getByRole('option');
const selected = (page: Page) => page.getByTestId('compare-rows').locator('[aria-selected="true"]');
const left = (page: Page) => page.getByTestId('compare-step-left');
const right = (page: Page) => page.getByTestId('compare-step-right');

test('two bundled examples side by side: aligned rows, the first divergence, keys moving both sides', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/#/compare?a=example:drifted-edit&b=example:thirty-steps');
  await expect(page.getByTestId('compare-head-left')).toContainText('Example: A drifted edit');
  await expect(page.getByTestId('compare-head-right')).toContainText('Example: Thirty steps on tiny-utils');
  // Scripted runs say so on each side.
  await expect(page.getByTestId('compare-head-left')).toContainText('scripted: recorded turns, not a live model');
  await expect(page.getByTestId('compare-head-right')).toContainText('scripted: recorded turns, not a live model');

  // 30 steps against 3: one row per step of the longer run, the shorter run's steps spread over them.
  await expect(rows(page)).toHaveCount(30);
  await expect(page.getByTestId('compare-rows').locator('li:has(.cell:first-child .index)')).toHaveCount(3);
  // The thirty steps begin with a listing the drifted edit never made: the reads meet on row 2.
  await expect(page.getByTestId('first-divergence')).toContainText(
    'First divergence at row 1: Only the right run took step 1 (ws_list)',
  );
  await expect(page.getByTestId('divergence-flag')).toHaveCount(1);
  // done meets done on the last row.
  await expect(rows(page).last()).toContainText('#3 done');
  await expect(rows(page).last()).toContainText('#30 done');

  await expect(left(page)).toContainText('No step on this side here: only the other run took step 1 (ws_list)');
  await expect(right(page)).toContainText('Step 1 ws_list');
  await page.keyboard.press('ArrowRight');
  await expect(selected(page)).toHaveAttribute('data-row', '2');
  await expect(right(page)).toContainText('Step 2 ws_read');
  // The drifted edit's read sits on the row of the thirty steps' read of the same file.
  await rows(page)
    .filter({ has: page.locator('.cell:first-child', { hasText: '#1 ws_read' }) })
    .click();
  await expect(left(page)).toContainText('Step 1 ws_read');
  await expect(right(page)).toContainText('ws_read');
  await page.keyboard.press('End');
  await expect(selected(page)).toHaveAttribute('data-row', '30');
  await expect(page).toHaveURL(/#\/compare\?a=example:drifted-edit&b=example:thirty-steps&row=30$/);
  await expect(left(page)).toContainText('Step 3 done');
  await expect(right(page)).toContainText('Step 30 done');
  await page.keyboard.press('k');
  await expect(selected(page)).toHaveAttribute('data-row', '29');
  await expect(left(page)).toContainText('No step on this side here: only the other run took step 29');

  // The drifted edit's row: its ladder note, its change and its context budget, with the right side's step of that row.
  const editRow = rows(page).filter({ hasText: '#2 ws_edit' });
  await editRow.click();
  await expect(left(page)).toContainText('Step 2 ws_edit');
  await expect(left(page).locator('[data-note-kind="rung"]').first()).toBeVisible();
  await expect(left(page).getByText('src/strings.js').first()).toBeVisible();
  await expect(left(page).getByTestId('budget-bar')).toBeVisible();
  await expect(right(page).getByTestId('budget-bar')).toBeVisible();
  await page.keyboard.press('ArrowRight');
  await expect(left(page)).not.toContainText('Step 2 ws_edit');
  await page.keyboard.press('j');
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowLeft');
  await expect(left(page)).toContainText('Step 2 ws_edit');
  await screenshot(page, 'compare-two-examples');

  // A reload lands on the same comparison and row.
  const row = await selected(page).getAttribute('data-row');
  await page.reload();
  await expect(selected(page)).toHaveAttribute('data-row', row!);
  await expect(left(page)).toContainText('Step 2 ws_edit');
});

test('"Compare with…" on a saved session opens it on the left; the right side is picked from the list', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await page.getByTestId('session-file-input').setInputFiles('examples/drifted-edit.session.json');
  await expect(page.getByTestId('timeline').getByRole('option')).toHaveCount(3);
  await page.getByRole('link', { name: 'Start' }).click();
  await page.getByRole('link', { name: /^Compare drifted-edit with another session$/ }).click();
  await expect(page.getByTestId('compare-head-left')).toContainText('drifted-edit');
  await expect(page.getByTestId('compare-head-right')).toContainText('no session yet');
  await page.getByTestId('compare-pick-b').selectOption({ label: 'A drifted edit' });
  await expect(page.getByTestId('first-divergence')).toContainText(
    'The two runs took the same steps with the same results.',
  );
  await expect(rows(page)).toHaveCount(3);
  await expect(page.getByTestId('compare-rows').locator('[data-state="same"]')).toHaveCount(3);
  await screenshot(page, 'compare-saved-with-example');
});
