/**
 * Sessions in real Chromium against the production build: a scripted run is recorded and
 * shared by link, and the link replays in a fresh browser context with every step ✓; tampered,
 * truncated, newer and decompression-bomb links end in the codec's message with the app still
 * usable; a reload mid-run loses no step and offers to continue; a session exported as a file
 * comes back through the file picker and by dropping it; bundled examples and lessons replay
 * from the start screen; and a 100-step session's replay and check is timed.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import type { Browser, Page } from '@playwright/test';
import { expect, SCREENSHOT_DIR, screenshot, test } from './console.ts';

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });
const checks = (page: Page, kind = 'ok') => timeline(page).locator(`[data-testid="step-check"][data-check="${kind}"]`);
const verdict = (page: Page) => page.getByTestId('replay-verdict');
const notice = (page: Page) => page.getByTestId('session-notice');

/** The start screen with its choices loaded. */
async function openStart(page: Page, path = '/'): Promise<void> {
  await page.goto(path);
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
}

/** Runs the scripted starter task without pauses and waits for done. */
async function runStarter(page: Page): Promise<void> {
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
}

/** A link carrying `bytes` as its compressed data. */
function linkOf(bytes: Buffer): string {
  return `/#s=${deflateRawSync(bytes).toString('base64url')}`;
}

/** A fresh context's page that fails the test on console errors, like the `problems` fixture. */
async function freshPage(browser: Browser): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
  page.on('pageerror', (e) => problems.push(e.message));
  return { page, problems, close: () => context.close() };
}

test("the Share panel shows the link of the run on screen, never the previous run's", async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await runStarter(page);
  await page.getByRole('button', { name: 'Share…' }).click();
  const linkA = await page.getByTestId('share-url').inputValue();

  await page.getByRole('button', { name: 'New run…' }).click();
  await runStarter(page);
  await expect(page.getByTestId('saved-steps')).toHaveAttribute('data-saved', '7');
  await expect(page.getByTestId('share-panel')).toHaveCount(0);
  await page.getByRole('button', { name: 'Share…' }).click();
  const linkB = await page.getByTestId('share-url').inputValue();
  expect(linkB).toMatch(/^http:\/\/localhost:\d+\/#s=2\.[A-Za-z0-9_-]+$/);
  expect(linkB).not.toBe(linkA);
  await screenshot(page, 'sessions-00-share-run-b');
});

test('a scripted run is shared by link, and the link replays in a fresh browser with every step ✓', async ({
  page,
  browser,
  context,
  problems: _problems,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await openStart(page);
  await runStarter(page);
  await expect(page.getByTestId('saved-steps')).toHaveAttribute('data-saved', '7');

  await page.getByRole('button', { name: 'Share…' }).click();
  await expect(page.getByTestId('link-size')).toHaveText(/^The link is [\d,]+ characters/);
  const url = await page.getByTestId('share-url').inputValue();
  expect(url).toMatch(/^http:\/\/localhost:\d+\/#s=2\.[A-Za-z0-9_-]*[A-Za-z0-9]$/);
  // The default run's link fits in a chat message.
  expect(url.length).toBeLessThanOrEqual(2000);
  await page.getByRole('button', { name: 'Copy link' }).click();
  await expect(page.getByRole('button', { name: 'Copied' })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
  await screenshot(page, 'sessions-01-share');

  const other = await freshPage(browser);
  await other.page.goto(url);
  await expect(other.page).toHaveURL(/#\/run$/);
  await expect(verdict(other.page)).toHaveText('✓ Reproduced: all 7 replayed steps match the record', {
    timeout: 30_000,
  });
  await expect(checks(other.page)).toHaveCount(7);
  await expect(other.page.getByTestId('session-bar')).toContainText('Opened from a link');
  await timeline(other.page).getByRole('option').filter({ hasText: '#5' }).click();
  await expect(other.page.getByTestId('step-session')).toContainText('✓ Reproduced');
  await screenshot(other.page, 'sessions-02-link-replayed');
  // The opened link is kept in that browser's list, under the title the link carried.
  await other.page.getByRole('link', { name: 'Start' }).click();
  await expect(other.page.getByTestId('saved-sessions')).toContainText('tiny-utils (starter) · scripted: ');
  expect(other.problems).toEqual([]);
  await other.close();
});

test('tampered, truncated, newer and bomb links each end in a clear message, and a run still starts', async ({
  page,
  problems: _problems,
}) => {
  const good = deflateRawSync(readFileSync('examples/drifted-edit.session.json')).toString('base64url');
  // A changed character that breaks the compressed data (checked here, so the case is certain).
  let tampered = '';
  for (let i = Math.floor(good.length / 2); !tampered; i++) {
    const candidate = good.slice(0, i) + (good[i] === 'A' ? 'B' : 'A') + good.slice(i + 1);
    try {
      inflateRawSync(Buffer.from(candidate, 'base64url'));
    } catch {
      tampered = candidate;
    }
  }
  const cases: [string, string, RegExp][] = [
    ['tampered', `/#s=${tampered}`, /The shared link could not be opened\. The session link (is damaged|is cut short)/],
    [
      'truncated',
      `/#s=${good.slice(0, Math.floor(good.length / 2) + 1)}`,
      /The session link is cut short.*Ask for the session file/,
    ],
    ['not a session', '/#s=hello', /This is not a session link: its data, "hello", is 5 characters/],
    [
      'newer',
      linkOf(
        Buffer.from(JSON.stringify({ v: 2, task: 'a session recorded by a newer build of the playground', steps: [] })),
      ),
      /recorded in format v2, newer than this build reads \(v1\)/,
    ],
    // 3 MB of spaces deflates to ~3 KB: a small link that inflates past the 2 MB cap.
    [
      'bomb',
      linkOf(Buffer.alloc(3 * 1024 * 1024, 0x20)),
      /expands to more than 2 MB when decompressed.*so decompressing was stopped/,
    ],
  ];
  for (const [name, link, message] of cases) {
    await openStart(page, link);
    await expect(notice(page), name).toContainText(message);
    // The link that did not open stays in the address bar, to be looked at.
    expect(new URL(page.url()).hash, name).toBe(new URL(link, 'http://x').hash);
    if (name === 'bomb') await screenshot(page, 'sessions-03-bomb-refused');
    if (name === 'tampered') await screenshot(page, 'sessions-03-damaged-link');
  }
  // Links carry no markup: a session whose task is HTML shows it as text.
  const html = JSON.parse(readFileSync('examples/drifted-edit.session.json', 'utf8')) as { task: string };
  html.task = '<img src=x onerror="document.title=\'pwned\'"> fix it';
  await page.goto(linkOf(Buffer.from(JSON.stringify(html))));
  await expect(page.getByTestId('session-bar')).toContainText('Shared link: <img src=x');
  await expect(page).toHaveTitle('slmcode playground — run inspector');
  await expect(page.locator('img[src="x"]')).toHaveCount(0);

  await openStart(page);
  await runStarter(page);
  await expect(timeline(page).getByRole('option')).toHaveCount(7);
});

test('a reload in the middle of a run loses no step and offers to continue', async ({ page, problems: _problems }) => {
  await openStart(page);
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByLabel(/Start paused/).check();
  await page.getByRole('button', { name: 'Start paused' }).click();
  const step = page.getByRole('toolbar', { name: 'Run controls' }).getByRole('button', { name: 'Step' });
  for (const n of [1, 2]) {
    await step.click();
    await expect(timeline(page).getByRole('option')).toHaveCount(n);
  }
  await expect(page.getByTestId('saved-steps')).toHaveAttribute('data-saved', '2');

  await page.reload();
  await expect(verdict(page)).toHaveText('✓ Reproduced: all 2 replayed steps match the record');
  await expect(checks(page)).toHaveCount(2);
  const offer = page.getByTestId('continue-offer');
  await expect(offer).toContainText('This run was cut short after step 2');
  // The run bar says it was cut short, not that it ended.
  await expect(page.getByTestId('run-phase')).toHaveText('cut short');
  await screenshot(page, 'sessions-04-restored');
  await offer.getByRole('button', { name: /^Continue with the rest of its recorded script/ }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await expect(timeline(page).getByRole('option')).toHaveCount(7);
  await expect(checks(page)).toHaveCount(2);
  await expect(page.getByTestId('saved-steps')).toHaveAttribute('data-saved', '7');
  const cutNote = 'Cut short by a reload after step 2, and continued from there';
  await expect(page.getByTestId('cut-short-note')).toContainText(cutNote);

  // The same saved entry now holds the whole run, and still says which part the reload cut short.
  await page.getByRole('link', { name: 'Start' }).click();
  const saved = page.getByTestId('saved-sessions').getByRole('listitem');
  await expect(saved).toHaveCount(1);
  await expect(saved).toContainText('7 steps');
  await expect(saved).toContainText('finished with done');
  await saved.getByRole('button', { name: /^Open / }).click();
  await expect(verdict(page)).toHaveText('✓ Reproduced: all 7 replayed steps match the record');
  await expect(page.getByTestId('cut-short-note')).toContainText(cutNote);
});

test('export, then import by the file picker and by dropping the file on the start screen', async ({
  page,
  problems: _problems,
}, info) => {
  await openStart(page);
  await runStarter(page);
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export file' }).click();
  const file = info.outputPath((await download).suggestedFilename());
  await (await download).saveAs(file);
  expect(file).toMatch(/\.session\.json$/);
  const text = readFileSync(file, 'utf8');
  const session = JSON.parse(text) as { v: number; steps: { resultText?: string }[] };
  expect(session.v).toBe(1);
  expect(session.steps).toHaveLength(7);
  expect(session.steps[0]!.resultText).toContain('npm test');

  await page.getByRole('link', { name: 'Start' }).click();
  await page.getByTestId('session-file-input').setInputFiles(file);
  await expect(verdict(page)).toHaveText('✓ Reproduced: all 7 replayed steps match the record');
  await expect(page.getByTestId('session-bar')).toContainText('Opened from a file');

  // A file with no title (as older exports are) is named after itself.
  const untitled = JSON.stringify({ ...JSON.parse(text), title: undefined });
  await page.getByRole('link', { name: 'Start' }).click();
  const transfer = await page.evaluateHandle((t) => {
    const dt = new DataTransfer();
    dt.items.add(new File([t], 'dropped.session.json', { type: 'application/json' }));
    return dt;
  }, untitled);
  await page.locator('.start').dispatchEvent('dragover', { dataTransfer: transfer });
  await page.locator('.start').dispatchEvent('drop', { dataTransfer: transfer });
  await expect(page.getByTestId('session-bar')).toContainText('dropped');
  await expect(checks(page)).toHaveCount(7);
});

test('an example and a lesson open from the start screen and replay with every step ✓', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await screenshot(page, 'sessions-05-start');
  await page.getByRole('button', { name: /^Thirty steps on tiny-utils/ }).click();
  await expect(verdict(page)).toHaveText('✓ Reproduced: all 30 replayed steps match the record');
  await expect(checks(page)).toHaveCount(30);
  // A scripted fork needs the script that recorded the session: the button says what to pick instead.
  await timeline(page).getByRole('option').filter({ hasText: '#10' }).click();
  await expect(page.getByTestId('continue-from-here')).toBeDisabled();
  await expect(page.getByTestId('step-session')).toContainText(
    'pick llama.cpp in this tab, a WebLLM model or an OpenAI-compatible endpoint on the start screen',
  );
  await screenshot(page, 'sessions-06-example');

  await page.getByRole('link', { name: 'Start' }).click();
  await page.getByRole('button', { name: /Edits that drift/ }).click();
  await expect(page.getByTestId('lesson-intro')).toContainText('A small model re-types the lines it wants to change');
  await expect(verdict(page)).toContainText('✓ Reproduced');
  await timeline(page).getByRole('option').filter({ hasText: '#2' }).click();
  await expect(page.getByTestId('lesson-caption')).toContainText('matched by the trailing-whitespace rung');
  await screenshot(page, 'sessions-07-lesson');
});

test('a 100-step session replays and checks in the browser (timed)', async ({ page, problems: _problems }, info) => {
  const file = info.outputPath('hundred-steps.session.json');
  // Built by the real loop and engine in Node, exactly as the examples are (an ES module, for its top-level await).
  const build = info.outputPath('build-hundred.mts');
  const root = process.cwd();
  mkdirSync(info.outputDir, { recursive: true });
  writeFileSync(
    build,
    [
      `import { buildExample, exampleFileText, hundredStepScript } from '${root}/scripts/make-examples.ts';`,
      `import { useNodeWasm } from '${root}/src/platform/node-wasm.ts';`,
      `import { writeFileSync } from 'node:fs';`,
      'useNodeWasm();',
      `writeFileSync(${JSON.stringify(file)}, exampleFileText(await buildExample(hundredStepScript())));`,
    ].join('\n'),
  );
  execFileSync('npx', ['tsx', build], { stdio: 'inherit' });
  await openStart(page);
  const t0 = Date.now();
  await page.getByTestId('session-file-input').setInputFiles(file);
  await expect(verdict(page)).toHaveText('✓ Reproduced: all 100 replayed steps match the record', { timeout: 60_000 });
  const ms = Date.now() - t0;
  const worker = await verdict(page).getAttribute('title');
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  writeFileSync(
    `${SCREENSHOT_DIR}/sessions-bench.txt`,
    `100-step replay + verify, file picked → every step ✓: ${ms} ms (${worker})\n`,
  );
  info.annotations.push({ type: 'bench', description: `100-step replay + verify: ${ms} ms end to end (${worker})` });
  await expect(checks(page)).toHaveCount(100);
});
