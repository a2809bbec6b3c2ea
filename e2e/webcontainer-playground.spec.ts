/**
 * The workspace choice in the playground, in real Chromium against the build: choosing
 * WebContainer where it cannot start ends in the notice that says why within the boot
 * timeout (3 s here, through `?wcTimeout=3000`), the Run button waits while it boots, and a
 * scripted run still completes on the in-memory workspace, with the notice on the run page
 * too. Online, a run really goes to WebContainer and its terminal shows the agent's commands.
 * Every test also fails on any console error, CSP violations included.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';
import { blockStackBlitz, goOffline, skipUnlessOnline, unavailable } from './webcontainer.ts';

const START = '/?wcTimeout=3000#/';

/** The start screen with its choices loaded. */
async function openStart(page: Page, url = START): Promise<void> {
  await page.goto(url);
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
}

const workspaceRadio = (page: Page, name: RegExp) =>
  page.getByRole('group', { name: 'Workspace' }).getByRole('radio', { name });
const runButton = (page: Page) => page.getByRole('button', { name: 'Run', exact: true });

/** Runs the scripted starter task and waits for done. */
async function runStarter(page: Page): Promise<void> {
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await runButton(page).click();
  await expect(page).toHaveURL(/#\/run$/);
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
}

test.describe('WebContainer chosen where it cannot start', () => {
  test('offline: the notice says why at once, and the scripted run completes on the in-memory workspace', async ({
    page,
    problems: _problems,
  }) => {
    await goOffline(page);
    await openStart(page);
    await expect(workspaceRadio(page, /^In-memory \(works offline\)/)).toBeChecked();
    const chosen = Date.now();
    // A click, not check(): the radio moves back to in-memory as soon as the boot fails.
    await workspaceRadio(page, /^WebContainer \(real Node\.js; needs a connection\)/).click();
    const notice = unavailable(page, 'offline');
    await expect(notice).toContainText('WebContainer needs a connection');
    await expect(notice).toContainText('The run continues on the in-memory workspace');
    await expect(notice.getByRole('button', { name: 'Reload page' })).toBeVisible();
    expect(Date.now() - chosen).toBeLessThan(3000);
    await expect(runButton(page)).toBeEnabled();
    // The radio follows the fallback, and the notice spans the page and says what runs instead.
    await expect(workspaceRadio(page, /^In-memory \(works offline\)/)).toBeChecked();
    await expect(notice).toContainText(
      "The run continues on the in-memory workspace, whose shell runs the project's JavaScript tests in a sandbox",
    );
    await expect(notice).not.toContainText('no node or npm');
    expect((await notice.boundingBox())!.width).toBeGreaterThan(1000);
    await screenshot(page, 'webcontainer-10-start-offline');

    await runStarter(page);
    await expect(page.getByTestId('run-backend')).toHaveText('in-memory workspace');
    await expect(unavailable(page, 'offline')).toBeVisible();
    await expect(page.getByRole('listbox', { name: 'Steps' }).getByRole('option')).toHaveCount(7);
    // No terminal: nothing ran in WebContainer.
    await expect(page.getByTestId('webcontainer-terminal')).toHaveCount(0);
    await screenshot(page, 'webcontainer-11-run-on-memory');
  });

  test('StackBlitz does not answer: Run waits while it boots, the timeout notice comes within 3 s, the run completes in memory', async ({
    page,
    problems: _problems,
  }) => {
    await blockStackBlitz(page);
    await openStart(page);
    await workspaceRadio(page, /^WebContainer/).check();
    await expect(page.locator('[role="status"][data-state="booting"]')).toContainText('up to 3 s');
    await expect(runButton(page)).toBeDisabled();
    await expect(page.locator('#run-why')).toHaveText(
      'WebContainer is starting; Run is enabled once it is up, or once it has failed and the in-memory workspace is used instead.',
    );
    await screenshot(page, 'webcontainer-12-start-booting');

    const notice = unavailable(page, 'timeout');
    await expect(notice).toContainText('WebContainer did not start within 3 s', { timeout: 6000 });
    await expect(notice).toContainText('Reload the page to try again');
    await runStarter(page);
    await expect(page.getByTestId('run-backend')).toHaveText('in-memory workspace');
    await expect(unavailable(page, 'timeout')).toBeVisible();
  });
});

test('while WebContainer boots, "Use the in-memory workspace instead" enables Run at once', async ({
  page,
  problems: _problems,
}) => {
  await blockStackBlitz(page);
  await openStart(page, '/?wcTimeout=60000#/');
  await workspaceRadio(page, /^WebContainer/).check();
  const booting = page.locator('[role="status"][data-state="booting"]');
  await expect(booting).toContainText('up to 60 s');
  await expect(runButton(page)).toBeDisabled();
  await booting.getByRole('button', { name: 'Use the in-memory workspace instead' }).click();
  await expect(runButton(page)).toBeEnabled();
  await expect(workspaceRadio(page, /^In-memory/)).toBeChecked();
  await expect(booting).toHaveCount(0);
  await runStarter(page);
  await expect(page.getByTestId('run-backend')).toHaveText('in-memory workspace');
});

test('online: a run goes to WebContainer, and its terminal shows the agent’s commands', async ({
  page,
  problems: _problems,
}) => {
  await skipUnlessOnline();
  test.setTimeout(120_000);
  await openStart(page, '/?wcTimeout=30000#/');
  await workspaceRadio(page, /^WebContainer/).check();
  await expect(page.locator('[role="status"][data-state="ready"]')).toBeVisible({ timeout: 35_000 });
  await runStarter(page);
  await expect(page.getByTestId('run-backend')).toHaveText('WebContainer workspace');
  const terminal = page.getByTestId('webcontainer-terminal');
  await expect(terminal).toContainText('$ npm test');
  await screenshot(page, 'webcontainer-13-run-in-webcontainer');
});
