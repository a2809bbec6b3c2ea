/**
 * The playground in real Chromium against the production build: the start screen, a scripted
 * run of the starter task streaming its steps, stepping through them with the keyboard, and
 * the inspector (raw output, a ladder-rung note with its explanation, the merge diff, the file
 * tree at an earlier step). Every test also fails on any console error, CSP violations included.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

/** The start screen with its choices loaded. */
async function openStart(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('slmcode playground');
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
}

/** Starts the scripted starter run and waits until it has ended with done. */
async function runStarter(page: Page, pace = '150'): Promise<void> {
  await page.getByLabel('Pause between scripted steps (ms)').fill(pace);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page).toHaveURL(/#\/run$/);
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
}

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });
const inspector = (page: Page) => page.getByTestId('inspector');

test('the start screen offers the starter task, four kinds of model and the settings', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await expect(page).toHaveTitle('slmcode playground — start');
  await expect(page.getByText(/Task given to the model: Run the tests with `npm test`/)).toBeVisible();
  await expect(page.getByRole('radio', { name: /^Scripted/ })).toBeChecked();
  await expect(page.getByText('scripted: recorded turns, not a live model').first()).toBeVisible();
  await expect(page.getByRole('radio', { name: /OpenAI-compatible endpoint/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /WebLLM in this tab/ })).toBeVisible();
  await expect(page.getByRole('radio', { name: /llama\.cpp in this tab/ })).toBeVisible();
  await expect(page.getByLabel('Max steps')).toHaveValue('25');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toContain('unsafe-inline');
  expect(csp).not.toContain("'unsafe-eval'");
  await screenshot(page, '10-start');
});

test('a scripted run: steps stream in, the keyboard steps through them, the inspector explains each', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await page.getByLabel('Pause between scripted steps (ms)').fill('600');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page).toHaveURL(/#\/run$/);
  await expect(page.getByTestId('scripted-label')).toHaveText('scripted: recorded turns, not a live model');
  // Steps arrive one by one while the run is live.
  await expect(timeline(page).getByRole('option')).toHaveCount(2, { timeout: 15_000 });
  await expect(page.getByTestId('run-phase')).toHaveText('running');
  await screenshot(page, '11-run-live');
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await expect(timeline(page).getByRole('option')).toHaveCount(7);
  await expect(page).toHaveTitle('slmcode playground — run inspector');

  // Keyboard: Home, then → to the reply without a call and on to the edit; the URL follows.
  await timeline(page).focus();
  await page.keyboard.press('Home');
  await expect(page).toHaveURL(/#\/run\?step=1$/);
  for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(/#\/run\?step=4$/);
  const insp = inspector(page);
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('no call');
  await expect(insp.getByTestId('parse-error')).toContainText('No usable call (no-call)');
  await expect(insp.getByTestId('retry-message')).toContainText(
    'Your reply contained no tool call, so nothing was run.',
  );
  await screenshot(page, '12-no-call-retry');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('j');
  await page.keyboard.press('k');
  await expect(page).toHaveURL(/#\/run\?step=5$/);
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('ws_edit');
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('rung: indent');

  await expect(insp.getByRole('heading', { level: 2 })).toContainText('Step 5 ws_edit');
  // The raw output, labelled as recorded turns.
  await expect(insp.getByTestId('raw-output')).toContainText('"tool":"ws_edit"');
  await expect(insp.getByText('scripted: recorded turns, not a live model')).toBeVisible();
  await expect(insp.getByTestId('parsed-call')).toContainText('old_str');
  // The rung note and why it helps a small model.
  const notes = insp.getByRole('list', { name: 'Notes' });
  await expect(notes.locator('[data-note-kind="rung"]')).toHaveText('Ladder rung');
  await expect(notes).toContainText('matched by the indent rung');
  await expect(notes).toContainText('naming the rung tells the model how its copy differed');
  await expect(notes.locator('[data-note-kind="dropped-calls"]')).toBeVisible();
  // The exact text the model saw next.
  await expect(insp.getByTestId('observation')).toContainText('[matched after normalizing indentation');
  await screenshot(page, '13-inspector-notes');

  // The workspace change as a merge view, unified and side by side.
  await insp.getByRole('button', { name: 'Workspace change' }).click();
  const diff = insp.getByTestId('merge-view');
  await expect(diff.locator('.cm-editor')).toBeVisible();
  await expect(diff).toContainText('text.slice(0, max - 1)');
  await expect(diff.locator('.cm-deletedChunk, .cm-changedLine').first()).toBeVisible();
  await screenshot(page, '14-diff-unified');
  await insp.getByRole('button', { name: 'Side by side' }).click();
  await expect(diff.locator('.cm-mergeView')).toBeVisible();
  await expect(diff.locator('.cm-mergeView .cm-editor')).toHaveCount(2);
  await screenshot(page, '15-diff-side-by-side');
});

test('time travel: the file tree and a file as they were at an earlier step', async ({ page, problems: _problems }) => {
  await openStart(page);
  await runStarter(page);
  await timeline(page).getByRole('option').filter({ hasText: '#5' }).click();
  await expect(page).toHaveURL(/step=5$/);

  const insp = inspector(page);
  await insp.getByRole('button', { name: 'Files', exact: true }).click();
  const tree = insp.getByRole('navigation', { name: 'Workspace files after step 5' });
  await expect(tree.locator('button[data-path="src/strings.js"]')).toContainText('modified');
  await tree.locator('button[data-path="src/strings.js"]').click();
  const code = insp.getByTestId('file-code');
  await expect(code).toContainText('text.slice(0, max - 1)');

  // One step back: the same file, before the edit.
  await timeline(page).focus();
  await page.keyboard.press('ArrowLeft');
  await expect(page).toHaveURL(/step=4$/);
  await expect(insp.getByRole('navigation', { name: 'Workspace files after step 4' })).toBeVisible();
  await expect(code).toContainText("return text.slice(0, max) + '…';");
  await expect(code).not.toContainText('max - 1');
  await insp.getByRole('button', { name: 'Files', exact: true }).click();
  await screenshot(page, '16-time-travel-step-4');

  // The context window of the step, as a budget bar with its estimate flag.
  await insp.getByRole('button', { name: 'Context window' }).click();
  await expect(insp.getByTestId('budget-bar')).toBeVisible();
  await expect(insp.getByText('estimated', { exact: true })).toBeVisible();
  await screenshot(page, '17-context-window');
});

test('the selected step is in the URL and survives a reload; plots and dark theme', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await runStarter(page);
  await expect(page.getByTestId('plot-context').locator('rect.ctx')).toHaveCount(7);
  await expect(page.getByTestId('plot-rungs').locator('circle')).toHaveCount(1);
  // The measured tally: one failing test before the edit, none after (the last run is done's).
  await expect(page.getByTestId('plot-tests')).toHaveAttribute(
    'aria-label',
    'Tests over the steps: step 1: 8 passed, 1 failed; step 6: 9 passed, 0 failed; step 7: 9 passed, 0 failed',
  );
  await page.getByLabel('Theme').selectOption('dark');
  await timeline(page).getByRole('option').filter({ hasText: '#5' }).click();
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(20, 23, 28)');
  await screenshot(page, '18-dark-inspector');

  await page.reload();
  await expect(page).toHaveURL(/#\/run\?step=5$/);
  await expect(page.getByRole('heading', { name: 'No run in this tab yet' })).toBeVisible();
  await expect(page.getByText('The link selects step 5.')).toBeVisible();
  // The theme choice was kept.
  await expect(page.getByLabel('Theme')).toHaveValue('dark');
});

test('pause before step 1, then Step walks one turn at a time; approvals are answered inline', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await page.getByLabel('Ask me before a call changes files').check();
  await page.getByLabel(/Start paused/).check();
  await page.getByRole('button', { name: 'Start paused' }).click();
  await expect(page.getByTestId('run-phase')).toHaveText('paused');
  await expect(page.getByText('Paused before step 1')).toBeVisible();
  const step = page.getByRole('toolbar', { name: 'Run controls' }).getByRole('button', { name: 'Step' });
  for (const n of [1, 2, 3, 4]) {
    await step.click();
    await expect(timeline(page).getByRole('option')).toHaveCount(n);
  }
  await step.click();
  const ask = page.getByTestId('approval');
  await expect(ask).toContainText('Step 5 waits for you: run ws_edit?');
  await expect(page.getByTestId('live-output')).toContainText('waits for your approval');
  await screenshot(page, '19-approval');
  await ask.getByRole('button', { name: 'Deny' }).click();
  await expect(timeline(page).getByRole('option')).toHaveCount(5);
  await expect(timeline(page).getByRole('option').nth(4)).toContainText('refused');
  await expect(inspector(page).getByText('A person declined this ws_edit call')).toBeVisible();
  await page.getByRole('button', { name: 'Stop' }).click();
  await expect(page.getByTestId('run-stop')).toHaveText('stopped by the user');
});

test('own files: picked files are listed, and the scripted model steps aside', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await page.getByRole('radio', { name: /Your own files/ }).check();
  await page.locator('input[type="file"][multiple]').setInputFiles([
    { name: 'calc.js', mimeType: 'text/javascript', buffer: Buffer.from('export const add = (a, b) => a - b;\n') },
    { name: 'logo.png', mimeType: 'image/png', buffer: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0]) },
  ]);
  await expect(page.getByText('1 file ready')).toBeVisible();
  await expect(page.getByRole('list', { name: 'Files to seed' })).toContainText('calc.js');
  await expect(page.getByRole('status').filter({ hasText: 'Left out' })).toContainText('logo.png — a binary file');
  await expect(page.getByRole('radio', { name: /^Scripted/ })).not.toBeChecked();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await page.getByLabel('What should the agent do?').fill('Make add add.');
  await page.getByRole('radio', { name: /OpenAI-compatible endpoint/ }).check();
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();
  await screenshot(page, '20-own-files');
});
