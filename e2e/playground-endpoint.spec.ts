/**
 * A live model behind an OpenAI-compatible endpoint, played by a small local server that
 * answers /v1/models and /v1/chat/completions with the starter run's outputs. The page's
 * requests go from the engine worker across origins, so this checks CORS, the page's CSP and
 * the run end to end without the scripted model; a server that sends no CORS headers gets the
 * explanation of how to allow this page.
 */
import { expect, screenshot, test } from './console.ts';
import { standIn } from './stand-in.ts';

test('an endpoint drives a live run: connection check, steps with the model’s own token counts', async ({
  page,
  problems: _problems,
}) => {
  const server = await standIn(true);
  try {
    await page.goto('/');
    await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
    await page.getByLabel('Base URL').fill(server.url);
    await page.getByLabel('Model', { exact: true }).fill('stand-in-coder');
    await page.getByRole('button', { name: 'Check connection' }).click();
    await expect(page.getByText('Connected: 1 model listed (stand-in-coder).')).toBeVisible();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
    await expect(page.getByTestId('scripted-label')).toHaveCount(0);
    await expect(page.getByText(`stand-in-coder at ${server.url}`)).toBeVisible();
    const timeline = page.getByRole('listbox', { name: 'Steps' });
    await expect(timeline.getByRole('option')).toHaveCount(7);
    // Usage from the server replaces the estimate.
    await timeline.getByRole('option').filter({ hasText: '#5' }).click();
    await expect(page.getByTestId('inspector').getByText(/^905 prompt \+ 40 reply tokens ·/)).toBeVisible();
    await expect(page.getByTestId('inspector').getByText('scripted: recorded turns, not a live model')).toHaveCount(0);
    expect(server.requests.filter((r) => r === 'POST /v1/chat/completions')).toHaveLength(7);
    await screenshot(page, '22-endpoint-run');
    // The step's request as a curl command: the same endpoint and body, the key left to the shell.
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    await page.getByRole('button', { name: /^Copy the request as a curl command/ }).click();
    const curl = await page.evaluate(() => navigator.clipboard.readText());
    expect(curl).toMatch(/^curl 'http:\/\/[^']+\/chat\/completions' \\\n {2}-H 'content-type: application\/json' \\\n/);
    expect(curl).toContain('-H "authorization: Bearer $SLM_API_KEY"');
    const body = JSON.parse(curl.slice(curl.indexOf("--data-binary '") + 15, -1).replaceAll("'\\''", "'")) as {
      model: string;
      messages: unknown[];
    };
    expect(body.model).toBe('stand-in-coder');
    expect(body.messages.length).toBeGreaterThan(2);
  } finally {
    await server.close();
  }
});

test('an endpoint that does not allow this page (no CORS headers) is explained', async ({ page, problems }) => {
  const server = await standIn(false);
  try {
    await page.goto('/');
    await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
    await page.getByLabel('Base URL').fill(server.url);
    await page.getByRole('button', { name: 'Check connection' }).click();
    const failure = page.getByRole('alert').filter({ hasText: 'CORS' });
    await expect(failure).toContainText('does not allow requests from this page (CORS)');
    await expect(failure).toContainText('OLLAMA_ORIGINS');
    await screenshot(page, '23-endpoint-cors');
    // The browser itself logs the blocked request; that line is expected here, and the only one.
    expect(problems.every((p) => /CORS|Failed to load resource|ERR_FAILED/.test(p))).toBe(true);
    problems.length = 0;
  } finally {
    await server.close();
  }
});
