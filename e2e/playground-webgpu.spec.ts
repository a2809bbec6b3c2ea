/**
 * WebLLM where WebGPU is missing: headless Chromium with --disable-gpu has no adapter. The
 * WebLLM choice must say why in plain words and offer the other models, and Run must say why
 * it is disabled instead of failing later.
 */
import { expect, screenshot, test } from './console.ts';

test('without a GPU adapter, WebLLM explains why and offers the scripted model and an endpoint', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await page.getByRole('radio', { name: /WebLLM in this tab/ }).check();
  const status = page.getByTestId('gpu-status');
  await expect(status).toHaveAttribute('role', 'alert');
  await expect(status).toContainText('WebLLM cannot run in this browser.');
  await expect(status).toContainText(/no WebGPU|found no compatible GPU/);
  await expect(status).toContainText('OpenAI-compatible endpoint');
  // The catalog stays visible (with the VRAM each model needs) but cannot be picked.
  await expect(page.getByRole('radio', { name: /^Qwen2\.5-Coder 1\.5B 1\.6 GB/ })).toBeDisabled();
  await expect(page.getByRole('group', { name: /Model \(VRAM/ })).toContainText('1.6 GB');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await expect(page.locator('#run-why')).toContainText('WebLLM cannot run in this browser');
  // Every engine that can run here is named, llama.cpp in this tab included.
  await expect(page.locator('#run-why')).toContainText('pick llama.cpp in this tab, an endpoint or the scripted model');
  await expect(status.getByRole('button', { name: 'llama.cpp on the CPU' })).toBeVisible();
  await screenshot(page, '21-webllm-no-gpu');

  // The cache listing works without a GPU: the engine worker spawns the model worker, which loads WebLLM lazily.
  await page.getByRole('button', { name: 'Which models are cached?' }).click();
  await expect(page.getByText('No model weights are cached in this browser.')).toBeVisible({ timeout: 30_000 });

  await status.getByRole('button', { name: 'OpenAI-compatible endpoint' }).click();
  await expect(page.getByRole('radio', { name: /OpenAI-compatible endpoint/ })).toBeChecked();
  await expect(page.getByLabel('Base URL')).toHaveValue('http://127.0.0.1:11434/v1');
  await page.getByRole('radio', { name: /WebLLM in this tab/ }).check();
  await status.getByRole('button', { name: /Scripted/ }).click();
  await expect(page.getByRole('radio', { name: /^Scripted/ })).toBeChecked();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
});
