/**
 * The context window and the tool set on the start screen: a catalog model's window is picked
 * for the memory the browser reports, with what it costs, and a person can pick another; the
 * tool set is picked there, kept across a reload, and named in the run's inspector.
 */
import { expect, screenshot, test } from './console.ts';

test('a catalog model shows the window picked for this device, what it costs, and a select to change it', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await page.getByRole('radio', { name: /llama\.cpp in this tab/ }).check();
  const choice = page.getByTestId('window-choice');
  await expect(choice).toBeVisible();
  // The number field gives way to the choice for a catalog model.
  await expect(page.getByRole('spinbutton', { name: /Context window/ })).toHaveCount(0);
  const memory = await page.evaluate(() => (navigator as { deviceMemory?: number }).deviceMemory ?? null);
  const select = page.getByTestId('window-select');
  const cost = page.getByTestId('window-cost');
  await expect(cost).toHaveText(/^[\d,]+ tokens · KV cache [\d.]+ (MiB|GiB) · [\d.]+ (MiB|GiB) in all · /);
  if (memory) {
    await expect(choice).toContainText(`¾ of the ${memory} GiB navigator.deviceMemory reports`);
    await expect(cost).toContainText(`fits ¾ of ${memory} GiB`);
  } else {
    await expect(choice).toContainText('reports no memory figure');
  }
  await expect(select.getByRole('option')).toHaveText([
    /^2,048 tokens/,
    /^4,096 tokens/,
    /^8,192 tokens/,
    /^16,384 tokens/,
  ]);
  await expect(select.locator('option:checked')).toContainText('(picked)');
  await screenshot(page, 'window-01-picked');

  await select.selectOption('2048');
  await expect(cost).toHaveText(/^2,048 tokens · KV cache 24 MiB · /);
  await expect(choice).toContainText('You picked 2,048 instead.');
  // A model trained on 8,192 tokens offers no more than that.
  await page.getByRole('radio', { name: 'SmolLM2 1.7B Instruct' }).check();
  await expect(select.getByRole('option')).toHaveText([/^2,048 tokens/, /^4,096 tokens/, /^8,192 tokens/]);
  await expect(choice).toContainText('(it was trained on 8,192)');
  await screenshot(page, 'window-02-smollm2');

  // An endpoint's window is the number field's.
  await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
  await expect(choice).toHaveCount(0);
  await expect(page.getByRole('spinbutton', { name: /Context window/ })).toBeVisible();
});

test('the tool set is picked on the start screen, kept across a reload, and named in the inspector', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await expect(page.getByTestId('tool-set-full')).toBeChecked();
  await page.getByTestId('tool-set-small').check();
  await page.reload();
  await expect(page.getByTestId('tool-set-small')).toBeChecked();

  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page).toHaveURL(/#\/run$/);
  await expect(page.getByTestId('run-stop')).toBeVisible({ timeout: 30_000 });
  await page.getByRole('listbox', { name: 'Steps' }).getByRole('option').first().click();
  const inspector = page.getByTestId('inspector');
  await inspector.getByRole('button', { name: 'Context window' }).click();
  const toolSet = inspector.getByTestId('run-tool-set');
  await expect(toolSet).toHaveText(
    'Tool set small: the model is offered 9 tools (ws_read, ws_write, ws_edit, ws_patch, ws_list, ws_grep, ws_shell, ws_test, done).',
  );
  await expect(inspector.getByTestId('budget-bar')).toBeVisible();
  await screenshot(page, 'window-03-inspector-tool-set');
});
