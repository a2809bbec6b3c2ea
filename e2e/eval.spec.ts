/**
 * The Eval page in real Chromium against the production build: the reference solutions run
 * over two tasks × the on and off arms in the tab (graded in the sandbox frame), labelled
 * scripted with "numbers mean nothing" on the banner, table, plot and grid; a cell opens its
 * session in the run inspector, "on ⇄ off" opens the pair side by side (in another tab too); the whole result
 * exports as one file, which opens again in a fresh page.
 */
import { mkdirSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, SCREENSHOT_DIR, screenshot, test } from './console.ts';

const TASKS = ['csv-quoted', 'repeated-span'];

async function chooseTasks(page: Page, ids: readonly string[]): Promise<void> {
  // The suite comes from the engine worker once it has started.
  await page.getByText(/^Tasks: 2\d of 2\d$/).click();
  await page.getByRole('button', { name: 'None' }).click();
  for (const id of ids) await page.getByLabel(`Task ${id}`).check();
}

test('the reference solutions over two tasks with the ACI on and off: progress, the labelled table, cells that open sessions, export and open again', async ({
  page,
  problems: _problems,
}) => {
  test.setTimeout(180_000);
  await page.goto('/#/eval');
  await expect(page.getByRole('heading', { name: 'Run the suite' })).toBeVisible();
  await chooseTasks(page, TASKS);
  await page.getByRole('button', { name: 'Run 4 sessions' }).click();
  await expect(page.getByTestId('eval-progress').or(page.getByTestId('eval-summary'))).toBeVisible();
  await expect(page.getByTestId('eval-progress')).toHaveCount(0, { timeout: 150_000 });

  // Labelled everywhere the numbers show.
  await expect(page.getByTestId('eval-honest-label')).toContainText('Scripted turns — numbers mean nothing.');
  await expect(page.getByTestId('eval-caveat')).toContainText('scripted: numbers mean nothing');
  await expect(page.getByTestId('eval-summary')).toContainText('mean nothing about any model');
  await expect(page.getByTestId('eval-plot')).toContainText('numbers mean nothing');

  const summary = page.getByTestId('eval-summary');
  // The reference solution passes every grader on the on arm.
  await expect(summary.locator('tr[data-arm="on"]')).toContainText('2 / 2');
  await expect(summary.locator('tr[data-arm="off"]')).toContainText('/ 2');
  const grid = page.getByTestId('eval-grid');
  for (const id of TASKS) await expect(grid.locator(`tr[data-task="${id}"] [data-testid="eval-cell"]`)).toHaveCount(2);
  // When the results were made, in local time, not the raw ISO text.
  await expect(page.getByTestId('eval-results-time')).not.toHaveText(/\d{4}-\d\d-\d\dT/);
  await expect(page.getByTestId('eval-results-time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  await screenshot(page, 'eval-reference-results');

  // Export the whole result.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the whole result…' }).click();
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const file = `${SCREENSHOT_DIR}/eval-export.eval.json`;
  await (await download).saveAs(file);

  // A cell opens its session in the run inspector.
  await grid.locator(`tr[data-task="${TASKS[0]}"] [data-testid="eval-cell"]`).first().click();
  await expect(page).toHaveURL(/#\/run/);
  await expect(page.getByTestId('timeline').getByRole('option').first()).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option').last()).toContainText('done');
  // Titled by its task (an eval task's first line), and listed as opened from the Eval page.
  await expect(page.locator('.page-bar .task')).not.toContainText("the session's files");
  await page.getByRole('link', { name: 'Start' }).click();
  await expect(page.getByTestId('saved-sessions').first()).toContainText('opened from the Eval page');

  // On ⇄ off opens the pair side by side.
  await page.getByRole('link', { name: 'Eval', exact: true }).click();
  await page.getByTestId('eval-grid').locator(`tr[data-task="${TASKS[0]}"] [data-testid="eval-compare"]`).click();
  // Each side travels in the address as its share link, so the view opens in any tab.
  await expect(page).toHaveURL(/#\/compare\?a=link:[^&]+&b=link:/);
  await expect(page.getByTestId('compare-head-left')).toContainText(`Eval: ${TASKS[0]} · on · seed 0`);
  await expect(page.getByTestId('compare-head-right')).toContainText(`Eval: ${TASKS[0]} · off · seed 0`);
  await expect(page.getByTestId('compare-held')).toHaveCount(0);
  const other = await page.context().newPage();
  await other.goto(page.url());
  await expect(other.getByTestId('compare-head-left')).toContainText(`Eval: ${TASKS[0]} · on · seed 0`);
  await expect(other.getByTestId('compare-head-right')).toContainText(`Eval: ${TASKS[0]} · off · seed 0`);
  await other.close();
  await expect(page.getByTestId('first-divergence')).toBeVisible();
  // The off arm ran the naive harness: its record says so, it is replayed with it, and so it reproduces.
  await expect(page.getByTestId('compare-head-right').getByTestId('compare-harness')).toHaveText(
    'naive harness (ACI off)',
  );
  await expect(page.getByTestId('compare-head-left').getByTestId('compare-harness')).toHaveCount(0);
  await expect(page.getByTestId('compare-replay-differs-right')).toHaveCount(0);
  await screenshot(page, 'eval-on-off-compare');

  // The exported file opens again in a fresh page.
  await page.goto('/#/eval');
  await page.reload();
  await page.getByTestId('eval-file-input').setInputFiles(file);
  await expect(page.getByTestId('eval-summary').locator('tr[data-arm="on"]')).toContainText('2 / 2');
  await expect(page.getByTestId('eval-honest-label')).toContainText('numbers mean nothing');
  await expect(page.getByText(/Opened from .*\.eval\.json/)).toBeVisible();
  await page.getByTestId('eval-grid').locator(`tr[data-task="${TASKS[1]}"] [data-testid="eval-cell"]`).last().click();
  await expect(page).toHaveURL(/#\/run/);
  await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option').first()).toBeVisible();
});

test('an eval needs a live model on the start screen to run on one, and says so', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/#/eval');
  await expect(page.getByText(/^Tasks: 2\d of 2\d$/)).toBeVisible();
  await page.getByLabel(/The start screen's model/).check();
  await expect(page.getByText(/none yet — the start screen has the scripted model/)).toBeVisible();
  await page.getByRole('button', { name: /^Run \d+ sessions$/ }).click();
  await expect(page.getByRole('alert')).toContainText(
    'To run the suite on a live model, the start screen has the scripted model',
  );
});
