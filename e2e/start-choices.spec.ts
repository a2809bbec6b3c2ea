/**
 * The start screen's choices survive a reload: the kind of model, the endpoint's fields (never
 * its key), the step limit, the temperature and named endpoint presets.
 */
import { expect, screenshot, test } from './console.ts';

test('the start screen keeps its choices and endpoint presets across a reload', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
  await page.getByLabel('Base URL').fill('http://127.0.0.1:8080/v1');
  await page.getByLabel('Model', { exact: true }).fill('served-coder');
  await page.getByLabel('API key').fill('secret-key');
  await page.getByLabel('Preset name').fill('llama-server');
  await page.getByRole('button', { name: 'Save as preset' }).click();
  await page.getByLabel('Base URL').fill('http://127.0.0.1:11434/v1');
  await page.getByLabel('Model', { exact: true }).fill('qwen2.5-coder:3b');
  await page.getByLabel('Preset name').fill('ollama');
  await page.getByRole('button', { name: 'Save as preset' }).click();
  await page.getByLabel('Max steps').fill('12');
  await page
    .getByRole('spinbutton', { name: /^Temperature/ })
    .first()
    .fill('0.7');

  await page.reload();
  await expect(page.getByRole('radio', { name: /OpenAI-compatible endpoint/ })).toBeChecked();
  await expect(page.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:11434/v1');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('qwen2.5-coder:3b');
  await expect(page.getByLabel('API key')).toHaveValue('');
  await expect(page.getByLabel('Max steps')).toHaveValue('12');
  await expect(page.getByRole('spinbutton', { name: /^Temperature/ }).first()).toHaveValue('0.7');
  const presets = page.getByLabel('Endpoint preset', { exact: true });
  await expect(presets.getByRole('option')).toHaveText([
    'Presets (2)…',
    'llama-server — served-coder',
    'ollama — qwen2.5-coder:3b',
  ]);
  await presets.selectOption('llama-server');
  await expect(page.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:8080/v1');
  await expect(page.getByLabel('Model', { exact: true })).toHaveValue('served-coder');
  await screenshot(page, '63-start-choices-kept');
  const stored = await page.evaluate(() => JSON.stringify(localStorage));
  expect(stored).not.toContain('secret-key');
});
