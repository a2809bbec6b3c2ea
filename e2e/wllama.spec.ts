/**
 * llama.cpp in WebAssembly, for real, in headless Chromium: a tiny seeded random-weight GGUF
 * is generated at test time (no weights can be downloaded here) and loaded through the real
 * wllama — picked as a local file, and served on loopback as a GGUF URL of one's own. Its
 * calls are valid only because decoding is constrained by the call's JSON schema, which is
 * what this proves: every raw output of a run of at least five steps parses against that
 * schema and is executed. Stop ends a run while the model is writing, and the run and its
 * session are labelled with the test model's name, never a real model's.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { callJsonSchema, toolSpecs } from '../src/agent/call-schema.ts';
import { CODING_TOOLS } from '../src/engine/tools/index.ts';
import { makeTestModel, TEST_MODEL_FILE, TEST_MODEL_NAME } from '../tests/support/gguf/test-model.ts';
import { expect, screenshot, test } from './console.ts';
import type { Page } from '@playwright/test';
import { latestSavedSession } from './saved-session.ts';

/** The trained context of the test models: every window the start screen offers fits the prompt (about 3,000 tokens). */
const CONTEXT = 32768;
const bytes = makeTestModel({ seed: 1, contextLength: CONTEXT });
/**
 * The Stop test's time: its first token comes after a download, a load and a ~3,000-token prefill,
 * which took 105 s on a two-core machine whose load average was 18 (other builds and tests sharing
 * it), close to the 120 s this wait once had; what follows the first token (Stop, the cache list)
 * takes a few seconds. The first token's time is recorded as the test's `first token` annotation.
 */
const STOP_TEST_MS = 480_000;
const AFTER_FIRST_TOKEN_MS = 60_000;
/** A wider model for Stop: it writes slowly enough to be caught mid-reply. */
const slow = makeTestModel({
  seed: 1,
  contextLength: CONTEXT,
  embedding: 256,
  layers: 4,
  heads: 4,
  kvHeads: 2,
  feedForward: 1024,
});
const dir = mkdtempSync(join(tmpdir(), 'slm-gguf-'));
const modelPath = join(dir, TEST_MODEL_FILE);
writeFileSync(modelPath, bytes);

/** Serves the model on loopback with CORS (all a cross-origin fetch needs, COEP included); other paths answer 404. */
async function serveModel(
  bytes: Uint8Array,
): Promise<{ url: string; missing: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url} ${req.headers.range ?? ''}`.trim());
    res.setHeader('access-control-allow-origin', '*');
    res.setHeader('access-control-allow-headers', 'range');
    if (req.method === 'OPTIONS') return void res.writeHead(204).end();
    if (req.url !== `/${TEST_MODEL_FILE}`) return void res.writeHead(404, 'Not Found').end();
    res.setHeader('content-length', String(bytes.length));
    res.setHeader('content-type', 'application/octet-stream');
    res.end(Buffer.from(bytes));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://127.0.0.1:${port}`;
  return {
    url: `${base}/${TEST_MODEL_FILE}`,
    missing: `${base}/missing.gguf`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

async function chooseLlamaCpp(page: Page, maxSteps: number): Promise<void> {
  await page.goto('/');
  await page.getByRole('radio', { name: /llama\.cpp in this tab/ }).check();
  await page.getByLabel('Max steps').fill(String(maxSteps));
}

/** A GGUF from `source`; once its header is read, its window is chosen as a catalog model's is (up to 16,384 here). */
async function chooseSource(page: Page, source: 'A .gguf file on this computer' | 'A GGUF URL'): Promise<void> {
  await page.getByLabel(source).check();
}

test('a generated GGUF picked from disk runs the agent for five steps, every output schema-valid and executed', async ({
  page,
  problems: _problems,
}) => {
  // Five steps of a ~3,000-token prompt: a minute or two on a busy two-core machine.
  test.setTimeout(240_000);
  await chooseLlamaCpp(page, 5);
  await expect(page.getByTestId('engine-advice')).toContainText('llama.cpp');
  await expect(page.getByTestId('gguf-catalog')).toContainText('Qwen2.5-Coder 0.5B Instruct');
  await page.getByTestId('gguf-catalog').scrollIntoViewIfNeeded();
  await screenshot(page, '39-llamacpp-catalog');
  await chooseSource(page, 'A .gguf file on this computer');
  await page.getByTestId('gguf-file').setInputFiles(modelPath);
  await expect(page.getByText(`${TEST_MODEL_FILE} (`)).toBeVisible();
  // Its header says what it was trained on, and its window is chosen as a catalog model's is.
  await expect(page.getByTestId('gguf-header')).toHaveText(
    `${TEST_MODEL_NAME} (llama) · trained on 32,768 tokens (llama.context_length). Its context window is chosen below, never more than that.`,
  );
  await expect(page.getByRole('spinbutton', { name: /Context window/ })).toHaveCount(0);
  await expect(page.getByTestId('window-select').getByRole('option')).toHaveText([
    /^2,048 tokens/,
    /^4,096 tokens/,
    /^8,192 tokens/,
    /^16,384 tokens/,
  ]);
  await expect(page.getByTestId('window-cost')).toHaveText(
    /^[\d,]+ tokens · KV cache [\d.]+ MiB · [\d.]+ MiB in all · /,
  );
  await screenshot(page, '40-llamacpp-start');
  await page.getByRole('button', { name: 'Run', exact: true }).click();

  await expect(page.getByTestId('run-stop')).toBeVisible({ timeout: 200_000 });
  const timeline = page.getByRole('listbox', { name: 'Steps' });
  const steps = await timeline.getByRole('option').count();
  expect(steps).toBeGreaterThanOrEqual(5);
  await expect(timeline.getByText('no call')).toHaveCount(0);
  await expect(page.getByTestId('scripted-label')).toHaveCount(0);
  await expect(page.getByText(`llama.cpp (CPU) ${TEST_MODEL_FILE} (file from disk)`)).toBeVisible();
  // Each step says how fast llama.cpp answered, from its own timings.
  await timeline.getByRole('option').filter({ hasText: '#2' }).click();
  await expect(page.getByTestId('step-speed')).toContainText(
    /first token .* prefill .* tok\/s · decode .* tok\/s .*\(engine timings\)/,
  );
  await expect(page.getByTestId('step-speed')).toContainText('prompt tokens from the KV cache');
  await screenshot(page, '41-llamacpp-run');

  const session = await latestSavedSession<{ model: { id: string }; steps: { raw: string }[] }>(page);
  expect(session.model.id).toBe(`gguf:${TEST_MODEL_FILE}`);
  const call = z.fromJSONSchema(callJsonSchema(toolSpecs(CODING_TOOLS)) as z.core.JSONSchema.JSONSchema);
  expect(session.steps.length).toBe(steps);
  for (const s of session.steps) expect(call.safeParse(JSON.parse(s.raw)).success, s.raw).toBe(true);

  // Opened again from the saved sessions, the run is a replay of this model's turns, never "scripted".
  await page.getByRole('button', { name: 'New run…' }).click();
  await page
    .getByTestId('saved-sessions')
    .getByRole('button', { name: /^Open / })
    .first()
    .click();
  await expect(page.getByTestId('replay-label')).toHaveText(`replay of a live run: gguf:${TEST_MODEL_FILE}`);
  await expect(page.getByTestId('scripted-label')).toHaveCount(0);
});

test('?model=gguf:URL preselects llama.cpp with that URL and runs nothing', async ({ page, problems: _problems }) => {
  const url = 'http://127.0.0.1:9/never-fetched.gguf';
  const fetched: string[] = [];
  page.context().on('request', (r) => void (r.url().startsWith(url) && fetched.push(r.url())));
  await page.goto(`/?model=gguf:${url}`);
  await expect(page.getByRole('radio', { name: /llama\.cpp in this tab/ })).toBeChecked();
  await expect(page.getByTestId('gguf-url')).toHaveValue(url);
  await expect(page.getByTestId('model-spec')).toContainText('Nothing is downloaded or run until you press Run.');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await expect(page.getByRole('heading', { name: /Model/ })).toBeVisible();
  expect(new URL(page.url()).hash).not.toMatch(/run/);
  expect(fetched).toEqual([]);
});

test('Stop ends a llama.cpp run while the model is writing; a GGUF URL is downloaded once and cached, a 404 is named with its file and status', async ({
  page,
  problems,
}) => {
  test.setTimeout(STOP_TEST_MS);
  const began = Date.now();
  const server = await serveModel(slow);
  try {
    await chooseLlamaCpp(page, 50);
    await chooseSource(page, 'A GGUF URL');
    await page.getByTestId('gguf-url').fill(server.missing);
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    await expect(page.getByTestId('run-stop')).toContainText(
      `missing.gguf could not be downloaded: ${server.missing} answered HTTP 404 Not Found.`,
    );
    problems.length = 0; // the failed fetch is logged by the browser itself

    await page.getByRole('button', { name: 'New run…' }).click();
    await page.getByTestId('gguf-url').fill(server.url);
    await page.getByTestId('gguf-url').blur();
    // Only the header is read before the run (this server ignores Range: the rest of its answer is cancelled).
    await expect(page.getByTestId('gguf-header')).toContainText('trained on 32,768 tokens (llama.context_length)');
    await expect(page.getByTestId('window-choice')).toBeVisible();
    const runAt = Date.now();
    await page.getByRole('button', { name: 'Run', exact: true }).click();
    // Download, load and the step-1 prefill (about 3,000 tokens: the test vocabulary spends a token on
    // most characters) on the wide model come before the first token. The wait is whatever the test's
    // time leaves after what the rest needs, so a loaded machine is slow here and only a stuck run fails.
    const wait = STOP_TEST_MS - (Date.now() - began) - AFTER_FIRST_TOKEN_MS;
    await expect(page.getByTestId('live-output')).toBeVisible({ timeout: wait });
    test.info().annotations.push({ type: 'first token', description: `${Date.now() - runAt} ms after Run` });
    // Read the step being written and press Stop in the same turn of the page, so they agree.
    const writing = await page.evaluate(() => {
      const index = Number(document.querySelector('[data-testid="live-output"] .index')?.textContent?.slice(1));
      [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Stop')!.click();
      return index;
    });
    await expect(page.getByTestId('run-stop')).toContainText(/stopped/i);
    // The reply cut off by Stop is not a step: the run ends with the steps before it.
    await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option')).toHaveCount(writing - 1);
    await expect(page.getByText(`llama.cpp (CPU) ${TEST_MODEL_FILE}`)).toBeVisible();
    // One download of the model, besides the header's read (a Range request for its first megabyte).
    const gets = server.requests.filter((r) => r.startsWith(`GET /${TEST_MODEL_FILE}`));
    expect(gets.filter((r) => !/bytes=0-1048575$/.test(r))).toHaveLength(1);
    expect(gets.filter((r) => /bytes=0-1048575$/.test(r))).toHaveLength(1);

    await page.getByRole('button', { name: 'New run…' }).click();
    await page.getByRole('button', { name: 'Which GGUF files are cached?' }).click();
    const cached = page.getByRole('list', { name: 'Cached GGUF files' });
    await expect(cached).toContainText(TEST_MODEL_FILE);
    await cached.getByRole('button', { name: `Delete the cached file ${TEST_MODEL_FILE}` }).click();
    await expect(page.getByText('No GGUF file is cached in this browser.')).toBeVisible();
    expect(TEST_MODEL_NAME).not.toMatch(/qwen|llama-3|gemma|smollm/i);
  } finally {
    await server.close();
  }
});
