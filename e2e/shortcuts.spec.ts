/**
 * The keyboard, in real Chromium against the build: ? opens the list of shortcuts, and every
 * shortcut it lists does what it says (one row of the table below per listed shortcut, so a
 * shortcut added to the list without a check here fails); the skip link is the first Tab and
 * lands on the Run button; an invalid setting is marked on its field with its message tied to
 * it; the ACI is spelled out. Every test also fails on any console error.
 */
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';
import { SHORTCUTS } from '../src/ui/shared/shortcuts.ts';

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });
const dialog = (page: Page) => page.getByRole('dialog', { name: 'Keyboard shortcuts' });

async function openStart(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
}

async function runStarter(page: Page): Promise<void> {
  await openStart(page);
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
}

/** Playwright's name for each key the list shows. */
const KEY: Record<string, string> = {
  '←': 'ArrowLeft',
  '→': 'ArrowRight',
  '↑': 'ArrowUp',
  '↓': 'ArrowDown',
  Esc: 'Escape',
  '?': 'Shift+Slash',
  '/': 'Slash',
  'Ctrl+Enter': 'Control+Enter',
};
const press = (page: Page, key: string) => page.keyboard.press(KEY[key] ?? key);

/** Takes the focus out of any field by clicking the page's title, where a click does nothing else. */
async function focusPage(page: Page): Promise<void> {
  await page.getByRole('heading', { level: 1, name: 'slmcode playground' }).click();
}

/** Starts the starter run from the start screen with Ctrl+Enter, `pace` ms between steps, and waits until it runs. */
async function runByKey(page: Page, pace: string): Promise<void> {
  await page.getByRole('link', { name: 'Start', exact: true }).click();
  await page.getByLabel('Pause between scripted steps (ms)').fill(pace);
  await press(page, 'Ctrl+Enter');
  await expect(page).toHaveURL(/#\/run$/);
}

/** Runs the starter to its end again (the rows after a stopped run start from its step 4). */
async function runToEnd(page: Page): Promise<void> {
  await runByKey(page, '0');
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
}

/** From step 4 of the finished starter run (the page, not a field, has the focus), what each key should lead to. */
const EXPECT: Record<string, (page: Page, key: string) => Promise<void>> = {
  'Show this list of shortcuts': async (page, key) => {
    await press(page, key);
    await expect(dialog(page)).toBeVisible();
    await page.keyboard.press('Escape');
  },
  'Close this list': async (page, key) => {
    await press(page, '?');
    await expect(dialog(page)).toBeVisible();
    await press(page, key);
    await expect(dialog(page)).toBeHidden();
  },
  "Run the start screen's choice (a run in progress is stopped)": async (page, key) => {
    await page.getByRole('link', { name: 'Start', exact: true }).click();
    await press(page, key);
    await expect(page).toHaveURL(/#\/run$/);
    await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
    await expect(timeline(page).getByRole('option')).toHaveCount(7);
  },
  'Pause the run, or resume it': async (page, key) => {
    await runByKey(page, '700');
    await expect(page.getByTestId('run-phase')).toHaveText('running');
    await focusPage(page);
    await press(page, key);
    await expect(page.getByTestId('run-phase')).toHaveText('paused');
    await press(page, key);
    await expect(page.getByTestId('run-phase')).toHaveText('running');
    await page.getByRole('button', { name: 'Stop' }).click();
    await runToEnd(page);
  },
  'Stop the run': async (page, key) => {
    await runByKey(page, '700');
    await expect(page.getByTestId('run-phase')).toHaveText('running');
    await focusPage(page);
    await press(page, key);
    await expect(page.getByTestId('run-stop')).toContainText(/stopped/i);
    await runToEnd(page);
  },
  'The previous step': async (page, key) => {
    await press(page, key);
    await expect(page).toHaveURL(/step=3$/);
  },
  'The next step': async (page, key) => {
    await press(page, key);
    await expect(page).toHaveURL(/step=5$/);
  },
  'The first step': async (page, key) => {
    await press(page, key);
    await expect(page).toHaveURL(/step=1$/);
  },
  'The last step': async (page, key) => {
    await press(page, key);
    await expect(page).toHaveURL(/step=7$/);
  },
  'Search the steps (text, tool, note kind)': async (page, key) => {
    await press(page, key);
    await expect(page.getByRole('searchbox', { name: 'Text in a step' })).toBeFocused();
  },
  'Clear the step search and go back to the steps': async (page, key) => {
    const field = page.getByRole('searchbox', { name: 'Text in a step' });
    await field.fill('ws_edit');
    await expect(timeline(page).getByRole('option')).toHaveCount(1);
    await press(page, key);
    await expect(field).toHaveValue('');
    await expect(timeline(page)).toBeFocused();
    await expect(timeline(page).getByRole('option')).toHaveCount(7);
  },
};

test('? lists the shortcuts, and every listed shortcut works', async ({ page, problems: _problems }) => {
  // Run, Pause and Stop each start runs of their own.
  test.setTimeout(240_000);
  await runStarter(page);
  await page.locator('body').press('Shift+Slash');
  await expect(dialog(page)).toBeVisible();
  for (const s of SHORTCUTS) await expect(dialog(page)).toContainText(s.what);
  await screenshot(page, 'shortcuts-01-list');
  await page.keyboard.press('Escape');
  await expect(dialog(page)).toBeHidden();
  // The header's ? button says the list is there, for those who do not know the key.
  await page.getByRole('button', { name: 'Keyboard shortcuts' }).click();
  await expect(dialog(page)).toBeVisible();
  await page.keyboard.press('Escape');

  for (const s of SHORTCUTS) {
    const check = EXPECT[s.what];
    expect(check, `a check for “${s.what}”`).toBeDefined();
    for (const key of s.keys) {
      await page.goto('/#/run?step=4');
      await expect(page.getByTestId('inspector').getByRole('heading', { level: 2 })).toContainText('Step 4');
      await focusPage(page);
      await test.step(`${key}: ${s.what}`, () => check!(page, key));
    }
  }
});

test('the first Tab is the skip link: to the Run button on the start screen, to the steps on the run page', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to the Run button' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await screenshot(page, 'shortcuts-02-skip-link');
  await page.keyboard.press('Enter');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeFocused();

  // On the run page it goes to the steps.
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  const toSteps = page.getByRole('link', { name: 'Skip to the steps' });
  await toSteps.focus();
  await expect(toSteps).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(timeline(page)).toBeFocused();
});

test('an invalid setting is marked on its field, its message tied to it; the ACI is spelled out', async ({
  page,
  problems: _problems,
}) => {
  await openStart(page);
  await expect(page.getByText('agent–computer interface (ACI', { exact: false })).toBeVisible();
  const steps = page.getByLabel('Max steps');
  await expect(steps).not.toHaveAttribute('aria-invalid');
  await steps.fill('500');
  await expect(steps).toHaveAttribute('aria-invalid', 'true');
  await expect(steps).toHaveAccessibleDescription(/^“Max steps” must be between 1 and 200\./);
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeDisabled();
  await screenshot(page, 'shortcuts-03-invalid-setting');
  await steps.fill('');
  await expect(steps).toHaveAccessibleDescription(/^Fill in “Max steps”\./);
  await steps.fill('25');
  await expect(steps).not.toHaveAttribute('aria-invalid');
  await expect(page.getByRole('button', { name: 'Run', exact: true })).toBeEnabled();

  // The re-run form marks its own fields the same way; the run page names the ACI in full on hover.
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await expect(page.locator('abbr[title="agent–computer interface"]').first()).toHaveText('ACI');
  await page.getByText('Re-run with other ACI settings').click();
  const cap = page.getByTestId('rerun-panel').getByLabel('Result cap (characters)');
  await cap.fill('5');
  await expect(cap).toHaveAttribute('aria-invalid', 'true');
  await expect(cap).toHaveAccessibleDescription('“Result cap” must be a whole number between 100 and 1000000.');
});
