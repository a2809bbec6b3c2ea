/**
 * WebLLM on a software WebGPU adapter, offline. This file's browser is launched with
 * --enable-unsafe-webgpu, which gives headless Chromium a SwiftShader fallback adapter without
 * shader-f16. The start screen must say what that means (only the q4f32 builds, far too slow
 * for real use) and still let a run start; the run's model worker then imports WebLLM, whose
 * first download fails because no model host can be reached, and the run must end with that
 * reason in plain words. A scripted run afterwards shows the app is still usable.
 *
 * Nothing here reaches the internet: every request to a host other than this server is aborted
 * by the context's route (which also sees the workers' fetches, Cache API included), and the
 * host resolver fails every other name at once in case a request slipped past the route.
 */
import type { Request } from '@playwright/test';
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

const MODEL = { id: 'Qwen2.5-Coder-0.5B-Instruct-q4f32_1-MLC', label: 'Qwen2.5-Coder 0.5B (q4f32)' };

test('on a software adapter WebLLM offers the q4f32 builds; offline, the download failure is explained and the app stays usable', async ({
  page,
  problems: _problems,
}) => {
  // Requests leaving this machine are held until the loading state has been checked, then refused.
  const blocked: string[] = [];
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.context().route(
    (url) => url.hostname !== 'localhost',
    async (route) => {
      blocked.push(route.request().url());
      await held;
      await route.abort('internetdisconnected');
    },
  );
  const scripts: string[] = [];
  page
    .context()
    .on('request', (r: Request) => void (r.resourceType() === 'script' && scripts.push(new URL(r.url()).pathname)));
  const workers: string[] = [];
  page.on('worker', (w) => void workers.push(new URL(w.url()).pathname));

  await page.goto('/');
  await page.getByRole('radio', { name: /WebLLM in this tab/ }).check();

  // What the app's GPU detection says about SwiftShader.
  const status = page.getByTestId('gpu-status');
  await expect(status).toHaveAttribute('role', 'status');
  await expect(status).toContainText('WebGPU found only a software fallback adapter (google swiftshader), not a GPU.');
  await expect(status).toContainText('far too slowly for real use');
  await expect(status).toContainText('only the q4f32 builds below can run');
  await expect(status).toContainText('WebGPU: yes · GPU adapter: yes · shader-f16: no · software fallback only');

  // The q4f16 builds cannot run here and say why; the default selection is a q4f32 build that can.
  const f16Row = page.getByRole('radio', { name: /^Qwen2\.5-Coder 1\.5B\b(?! \(q4f32\))/ });
  await expect(f16Row).toBeDisabled();
  await expect(page.locator('label.model', { has: f16Row })).toContainText('needs shader-f16');
  await expect(page.getByRole('radio', { name: /\(q4f32\)/ }).and(page.locator(':checked'))).toHaveCount(1);
  await expect(page.locator('#run-why')).not.toContainText('shader-f16');
  for (const label of [
    'SmolLM2 360M (q4f32)',
    'Qwen2.5-Coder 0.5B (q4f32)',
    'Qwen2.5-Coder 1.5B (q4f32)',
    'Qwen2.5-Coder 3B (q4f32)',
  ]) {
    await expect(page.getByRole('radio', { name: label })).toBeEnabled();
  }
  await page.getByRole('radio', { name: MODEL.label }).check();
  const run = page.getByRole('button', { name: 'Run', exact: true });
  await expect(run).toBeEnabled();
  await status.scrollIntoViewIfNeeded();
  await screenshot(page, 'webllm-1-software-adapter');

  // The run: the model worker imports WebLLM, whose first fetch (the model's config) is refused.
  await run.click();
  await expect(page).toHaveURL(/#\/run$/);
  await expect(page.getByTestId('run-phase')).toHaveText('loading the model', { timeout: 30_000 });
  const loading = page.getByRole('region', { name: `Loading WebLLM ${MODEL.label}` });
  await expect(loading).toContainText(
    "Fetching the model's files from huggingface.co and raw.githubusercontent.com (or the browser's cache)…",
  );
  await expect.poll(() => blocked.length).toBeGreaterThan(0);
  await screenshot(page, 'webllm-2-loading');
  release();

  // "the model failed (code): …" is how a run that ended with a model-error stop says why.
  const stop = page.getByTestId('run-stop');
  await expect(stop).toContainText('the model failed (connection):', { timeout: 45_000 });
  await expect(stop).toContainText(
    `Downloading the model weights of ${MODEL.label} failed: the model host could not be reached (the files come from huggingface.co and raw.githubusercontent.com).`,
  );
  await expect(stop).toContainText('This browser is offline, or a firewall, proxy or extension blocks the host.');
  await expect(stop).toContainText(
    'Nothing was lost: your files are as they were, and any weights already downloaded stay cached for the next try.',
  );
  await expect(stop).toContainText(
    'Check the connection and run again, or pick the Scripted model (works offline) or an OpenAI-compatible endpoint',
  );
  // A run that ends before its first step failed: it says so, not "ended" like a finished run.
  await expect(page.getByTestId('run-phase')).toHaveText('failed');
  await expect(page.getByTestId('inspector')).toContainText('The run ended before its first step (see why above).');
  await screenshot(page, 'webllm-3-offline-failure');

  expect(
    workers.some((w) => /\/model\.worker-[\w-]+\.js$/.test(w)),
    `workers started: ${workers.join(', ')}`,
  ).toBe(true);
  expect(
    scripts.some((s) => /\/webllm-[\w-]+\.js$/.test(s)),
    'the model worker imported the WebLLM chunk',
  ).toBe(true);
  // WebLLM asked for the chosen model's config first, on the hub; nothing else left this machine.
  expect(blocked[0]).toBe(`https://huggingface.co/mlc-ai/${MODEL.id}/resolve/main/mlc-chat-config.json`);
  expect(blocked.filter((u) => new URL(u).hostname !== 'huggingface.co')).toEqual([]);

  // Still usable: a scripted run from the start screen finishes.
  await page.getByRole('button', { name: 'New run…' }).click();
  await page.getByRole('radio', { name: /^Scripted/ }).check();
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await expect(page.getByTestId('scripted-label')).toHaveText('scripted: recorded turns, not a live model');
  await screenshot(page, 'webllm-4-scripted-after');
});
