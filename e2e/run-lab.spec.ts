/**
 * The what-ifs on a run, in real Chromium against the build, on the scripted starter run:
 * "ACI off" in the inspector (the naive harness's result beside the ACI's, with the verdict
 * and why) and the settings re-run (a rung switched off, the recorded outputs re-run, the step
 * where the results first differ, with the result before and now). Every test also fails on
 * any console error, CSP violations included.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

/** Runs the scripted starter task to its end and selects step `step`. */
async function runStarterAndSelect(page: Page, step: number): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await page
    .getByRole('listbox', { name: 'Steps' })
    .getByRole('option')
    .nth(step - 1)
    .click();
  await expect(page).toHaveURL(new RegExp(`#/run\\?step=${step}$`));
}

test('ACI off: the drifted edit of step 5 would not land in a naive harness', async ({ page, problems: _problems }) => {
  await runStarterAndSelect(page, 5);
  const insp = page.getByTestId('inspector');
  await insp.getByRole('button', { name: 'ACI off' }).click();
  const verdict = insp.getByTestId('aci-off-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'worse');
  await expect(verdict).toContainText('worse without the ACI');
  await expect(insp.getByTestId('aci-off-why')).toContainText(
    "Exact match only: old_str's indentation differs from the file's, so the edit does not land",
  );
  await expect(insp.getByTestId('aci-off-text')).toHaveText('Error: old_str not found in src/strings.js.');
  await expect(insp.getByTestId('observation')).toContainText('[matched after normalizing indentation');
  await expect(insp.getByText('The naive harness would have changed no file.')).toBeVisible();
  await screenshot(page, 'lab-01-aci-off');

  // Another step: the verdict follows the selection.
  await page.keyboard.press('ArrowLeft');
  await expect(page).toHaveURL(/#\/run\?step=4$/);
  await expect(insp.getByTestId('aci-off-why')).toContainText('The prose is taken as the final answer');
});

test('settings re-run: the indentation rung off changes nothing (the looser rungs name the same drift); every rung that tolerates indentation off, and step 5 differs', async ({
  page,
  problems: _problems,
}) => {
  await runStarterAndSelect(page, 1);
  const panel = page.getByTestId('rerun-panel');
  await panel.getByText('Re-run with other ACI settings').click();
  await expect(panel.getByLabel('Result cap (characters)')).toHaveValue('8000');
  await expect(panel.getByLabel('Read window (lines)')).toHaveValue('120');
  await expect(panel.getByRole('checkbox', { name: 'Loop guard' })).toBeChecked();

  // Unchanged settings reproduce the run.
  await panel.getByRole('button', { name: 'Re-run the recorded outputs' }).click();
  const result = panel.getByTestId('rerun-result');
  await expect(result).toContainText(
    'No difference: all 7 steps give the same results and notes under these settings.',
  );

  // The blank-line rung still lands the edit, and its note names the indentation that drifted.
  await panel.getByRole('checkbox', { name: 'indentation-normalized' }).uncheck();
  await panel.getByRole('button', { name: 'Re-run the recorded outputs' }).click();
  await expect(result).toContainText(
    'No difference: all 7 steps give the same results and notes under these settings.',
  );

  const looser = ['blank-line-insensitive', 'quote/dash-style', 'anchored-first-last-line'];
  for (const name of looser) await panel.getByRole('checkbox', { name }).uncheck();
  await panel.getByRole('button', { name: 'Re-run the recorded outputs' }).click();
  await expect(result).toContainText('Diverges at step 5 ws_edit');
  await expect(result).toContainText('Step 5 (ws_edit) gave a different result from the recorded one.');
  await expect(panel.getByTestId('rerun-before')).toContainText('[matched after normalizing indentation');
  await expect(panel.getByTestId('rerun-after')).toContainText('old_str not found');
  await panel.getByTestId('rerun-after').scrollIntoViewIfNeeded();
  await screenshot(page, 'lab-02-rerun');
  await result.getByRole('button', { name: 'show step 5' }).click();
  await expect(page).toHaveURL(/#\/run\?step=5$/);

  // A smaller read window changes the first read instead.
  for (const name of looser) await panel.getByRole('checkbox', { name }).check();
  await panel.getByRole('checkbox', { name: 'indentation-normalized' }).check();
  await panel.getByLabel('Read window (lines)').fill('10');
  await panel.getByRole('button', { name: 'Re-run the recorded outputs' }).click();
  await expect(result).toContainText('Diverges at step 2 ws_read');
  await expect(panel.getByTestId('rerun-after')).toContainText(': lines 1-10 of 28]');

  // A 200-character cap: every step re-runs, the cap is named with both values, and the table shows each step.
  await panel.getByLabel('Read window (lines)').fill('120');
  await panel.getByLabel('Result cap (characters)').fill('200');
  await panel.getByRole('button', { name: 'Re-run the recorded outputs' }).click();
  await expect(result).toContainText('max_tool_chars is 200 here and 8000 in the record');
  await expect(panel.getByTestId('rerun-rows').locator('tbody tr')).toHaveCount(7);
  await panel.getByTestId('rerun-rows').scrollIntoViewIfNeeded();
  await screenshot(page, 'lab-03-rerun-cap-200');
});
