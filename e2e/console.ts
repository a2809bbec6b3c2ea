/**
 * Helpers for the tool console specs: a page fixture that fails the test on any console error
 * (CSP violations included), and small actions that wait on what the page shows, never on time.
 */
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import { mkdirSync } from 'node:fs';

/** Where the specs' screenshots go (kept by CI as artifacts). */
export const SCREENSHOT_DIR = 'test-results/screenshots';

export const test = base.extend<{ problems: string[] }>({
  problems: async ({ page }, use) => {
    const problems: string[] = [];
    page.on('console', (msg) => {
      if (msg.type() === 'error') problems.push(`console.error: ${msg.text()}`);
    });
    page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
    await use(problems);
    expect(problems, 'the page logged errors').toEqual([]);
  },
});

export { expect };

/** Opens the console and waits until the engine has listed its tools and the workspace. */
export async function openConsole(page: Page): Promise<void> {
  await page.goto('/#/console');
  await expect(page.getByRole('heading', { level: 1 })).toContainText('slmcode playground');
  await expect(toolCard(page, 'ws_read')).toBeVisible();
  await expect(treeFile(page, 'src/strings.js')).toBeVisible();
}

/** The card of one tool (its accessible name starts with the tool's name). */
export function toolCard(page: Page, name: string): Locator {
  return page.getByRole('button', { name: new RegExp(`^${name}\\b`) });
}

/** A file button in the workspace tree. */
export function treeFile(page: Page, path: string): Locator {
  return page.getByRole('navigation', { name: 'Workspace files' }).locator(`button[data-path="${path}"]`);
}

/** The form input of one argument. */
export function argField(page: Page, name: string): Locator {
  return page.locator(`#arg-${name}`);
}

/** Selects a tool, fills its form (strings go into inputs/textareas), calls it and waits for the result of that call. */
export async function callTool(page: Page, name: string, args: Record<string, string>): Promise<Locator> {
  await toolCard(page, name).click();
  await expect(page.getByRole('heading', { level: 2, name: new RegExp(`^${name}\\b`) })).toBeVisible();
  for (const [field, value] of Object.entries(args)) await argField(page, field).fill(value);
  // The result pane counts calls; waiting for the next number waits for exactly this call.
  const pane = page.locator('[data-call]');
  const next = Number(await pane.getAttribute('data-call')) + 1;
  await page.getByRole('button', { name: `Call ${name}` }).click();
  await expect(pane).toHaveAttribute('data-call', String(next));
  return page.getByTestId('result-text');
}

/** callTool for a call that may take `ms` (the first python3 starts Pyodide, which takes seconds to tens of seconds). */
export async function callSlowly(page: Page, name: string, args: Record<string, string>, ms: number): Promise<Locator> {
  await toolCard(page, name).click();
  for (const [field, value] of Object.entries(args)) await argField(page, field).fill(value);
  const pane = page.locator('[data-call]');
  const next = Number(await pane.getAttribute('data-call')) + 1;
  await page.getByRole('button', { name: `Call ${name}` }).click();
  await expect(pane).toHaveAttribute('data-call', String(next), { timeout: ms });
  return page.getByTestId('result-text');
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await page.screenshot({ path: `${SCREENSHOT_DIR}/${name}.png` });
}
