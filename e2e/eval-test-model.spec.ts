/**
 * The Eval page on llama.cpp in the tab with the generated random-weight GGUF (no weights can be
 * downloaded here), picked from disk on the start screen: the pipeline runs for real — live
 * sessions, graded in the sandbox frame — and the page labels every number as the test model's,
 * which means nothing.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { makeTestModel, TEST_MODEL_FILE } from '../tests/support/gguf/test-model.ts';
import { expect, screenshot, test } from './console.ts';

/** A context long enough for the whole prompt: the test vocabulary spells most text a character a token. */
const CONTEXT = 32768;
const dir = mkdtempSync(join(tmpdir(), 'slm-eval-gguf-'));
const modelPath = join(dir, TEST_MODEL_FILE);
writeFileSync(modelPath, makeTestModel({ seed: 1, contextLength: CONTEXT }));

test("one task on the test model: live sessions graded, every number labelled the test model's", async ({
  page,
  problems: _problems,
}) => {
  // Two short sessions of a ~3,000-token prompt on a busy two-core machine.
  test.setTimeout(300_000);
  await page.goto('/');
  await page.getByRole('radio', { name: /llama\.cpp in this tab/ }).check();
  await page.getByLabel('A .gguf file on this computer').check();
  await page.getByLabel('Context window (tokens)').fill(String(CONTEXT));
  await page.getByTestId('gguf-file').setInputFiles(modelPath);
  await expect(page.getByText(`${TEST_MODEL_FILE} (`)).toBeVisible();

  await page.getByRole('link', { name: 'Eval' }).click();
  await page.getByText(/^Tasks: 2\d of 2\d$/).click();
  await page.getByRole('button', { name: 'None' }).click();
  await page.getByLabel('Task repeated-span').check();
  await page.getByLabel(/The start screen's model/).check();
  await expect(page.getByText(`llama.cpp ${TEST_MODEL_FILE} (in this tab, on the CPU)`)).toBeVisible();
  await page.getByLabel('Step limit').fill('2');
  await page.getByRole('button', { name: 'Run 2 sessions' }).click();
  await expect(page.getByTestId('eval-progress')).toBeVisible();
  await expect(page.getByTestId('eval-honest-label')).toContainText(
    'The random-weight test model — numbers mean nothing.',
  );
  await expect(page.getByTestId('eval-progress')).toHaveCount(0, { timeout: 280_000 });

  await expect(page.getByTestId('eval-caveat')).toContainText('test-model: numbers mean nothing');
  await expect(page.getByTestId('eval-summary')).toContainText('these pass rates mean nothing');
  await expect(page.getByTestId('eval-summary').locator('tr[data-arm="on"]')).toContainText('/ 1');
  await expect(page.getByTestId('eval-summary').locator('tr[data-arm="off"]')).toContainText('/ 1');
  await expect(page.getByText(`model gguf:${TEST_MODEL_FILE}`)).toBeVisible();
  await expect(page.getByTestId('eval-grid').locator('[data-testid="eval-cell"]')).toHaveCount(2);
  await screenshot(page, 'eval-test-model');
});
