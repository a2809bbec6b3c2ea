/**
 * A custom WebLLM model whose URL answers 404: the run must end naming the file, its URL and
 * the HTTP status — not Cache.add's bare "Request failed". Headless Chromium with
 * --enable-unsafe-webgpu gives a software adapter (q4f32 builds only). The model host is this
 * test's route: every request to it is answered 404; every other host is refused.
 */
import config from '../playwright.config.ts';
import { expect, screenshot, test } from './console.ts';

const launch = config.use?.launchOptions ?? {};
test.use({
  launchOptions: {
    ...launch,
    args: [
      ...(launch.args ?? []),
      '--enable-unsafe-webgpu',
      '--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE localhost',
    ],
  },
});

const HOST = 'models.example';
const URL_GIVEN = `https://${HOST}/me/Tiny-q4f32_1-MLC`;

test('a custom WebLLM URL that answers 404 is named with the file and the status', async ({
  page,
  problems: _problems,
}) => {
  const asked: string[] = [];
  await page.context().route(
    (url) => url.hostname !== 'localhost',
    async (route) => {
      const url = new URL(route.request().url());
      if (url.hostname !== HOST) return route.abort('internetdisconnected');
      asked.push(`${route.request().method()} ${url.href}`);
      return route.fulfill({
        status: 404,
        contentType: 'text/plain',
        body: 'Not Found',
        headers: { 'access-control-allow-origin': '*' },
      });
    },
  );

  await page.goto('/');
  await page.getByRole('radio', { name: /WebLLM in this tab/ }).check();
  await page.getByTestId('custom-model').locator('summary').click();
  await page.getByLabel('Model URL').fill(URL_GIVEN);
  await page.getByLabel(/Base model/).selectOption({ label: 'Qwen2.5-Coder 0.5B (q4f32)' });
  const run = page.getByRole('button', { name: 'Run', exact: true });
  await expect(run).toBeEnabled();
  await run.click();

  const stop = page.getByTestId('run-stop');
  const config = `${URL_GIVEN}/resolve/main/mlc-chat-config.json`;
  await expect(stop).toContainText(`mlc-chat-config.json could not be downloaded: ${config} answered HTTP 404`, {
    timeout: 45_000,
  });
  await expect(stop).not.toContainText("Failed to execute 'add' on 'Cache'");
  await screenshot(page, 'webllm-custom-404');
  expect(asked).toContain(`HEAD ${config}`);
});
