/**
 * The inspector's copy buttons put exactly what their section shows on the clipboard: the
 * model's output, the parsed call, what the model saw next, and the step's change as a patch.
 */
import { expect, screenshot, test } from './console.ts';

test.use({ permissions: ['clipboard-read', 'clipboard-write'] });

test("copy buttons: the model's output, the parsed call, what the model saw, the diff", async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await page.goto('/#/run?step=5');
  const insp = page.getByTestId('inspector');
  await expect(insp.getByRole('heading', { level: 2 })).toContainText('Step 5');
  const clipboard = () => page.evaluate(() => navigator.clipboard.readText());

  await insp.getByRole('button', { name: "Copy the model's output" }).click();
  await expect.poll(clipboard).toBe(await insp.getByTestId('raw-output').innerText());
  await expect(insp.getByRole('status').filter({ hasText: 'Copied' }).first()).toBeVisible();

  await insp.getByRole('button', { name: 'Copy the parsed call' }).click();
  await expect.poll(async () => JSON.parse(await clipboard()).tool).toBe('ws_edit');
  expect(JSON.parse(await clipboard()).args.path).toBe('src/strings.js');

  await insp.getByRole('button', { name: 'Copy what the model saw next' }).click();
  await expect.poll(clipboard).toBe(await insp.getByTestId('observation').innerText());

  await insp.getByRole('button', { name: "Copy the step's change as a patch" }).click();
  await expect.poll(clipboard).toContain('diff --git a/src/strings.js b/src/strings.js');
  expect(await clipboard()).toContain("+  return text.slice(0, max - 1) + '…';");
  await screenshot(page, '64-copy-buttons');
});
