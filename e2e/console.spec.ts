/**
 * The tool console in real Chromium against the production build: the engine worker starts
 * under the page's CSP, tools are called through the generated form, and results, notes and
 * the file tree show what happened. Every test also fails on any console error.
 */
import { argField, callTool, expect, openConsole, screenshot, test, toolCard, treeFile } from './console.ts';

test.beforeEach(async ({ page, problems: _problems }) => {
  await openConsole(page);
});

test('opens the console: header, tool cards, starter files, strict CSP', async ({ page }) => {
  await expect(page).toHaveTitle(/slmcode playground — tool console/);
  await expect(page.getByText('memory workspace', { exact: true })).toBeVisible();
  await expect(page.getByText(/template: tiny-utils/)).toBeVisible();
  await expect(toolCard(page, 'ws_write')).toContainText('writes');
  const csp = await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content');
  expect(csp).toContain("script-src 'self' 'wasm-unsafe-eval'");
  expect(csp).not.toContain('unsafe-inline');
  await expect(page.getByRole('status')).toHaveCount(0); // no "Starting the engine…" left
  await screenshot(page, '01-console-opened');
});

test('ws_read shows the header with its content tag and the line-number gutter', async ({ page }) => {
  const text = await callTool(page, 'ws_read', { path: 'src/strings.js' });
  await expect(page.getByTestId('result-status')).toHaveText('ok');
  await expect(text).toContainText(/^\[src\/strings\.js#[0-9a-f]{4}: lines 1-\d+ of \d+\]/);
  // The spec's gutter: the line number right-aligned in six columns, then "|".
  await expect(text).toContainText(/\n {5}1\|\/\*\*\n/);
  await expect(text).toContainText("    25|  return text.slice(0, max) + '…';");
  await screenshot(page, '02-ws_read');
});

test('ws_write creates a file that appears in the tree and opens in the viewer; reset removes it', async ({ page }) => {
  await callTool(page, 'ws_write', { path: 'notes/plan.md', content: '# Plan\n\n- fix truncate\n' });
  await expect(page.getByTestId('result-status')).toHaveText('ok');
  const file = treeFile(page, 'notes/plan.md');
  await expect(file).toBeVisible();
  await expect(file).toContainText('created');
  await file.click();
  const viewer = page.getByRole('region', { name: 'notes/plan.md' });
  await expect(viewer.getByLabel('Contents of notes/plan.md')).toContainText('- fix truncate');
  await screenshot(page, '03-ws_write');

  await page.getByRole('button', { name: 'Reset workspace' }).click();
  await expect(page.getByRole('status')).toContainText('Workspace reset');
  await expect(treeFile(page, 'notes/plan.md')).toHaveCount(0);
  await expect(treeFile(page, 'src/strings.js')).toBeVisible();
});

test('a write under .slmcode/ is refused, with the refusal badge and its explanation', async ({ page }) => {
  const text = await callTool(page, 'ws_write', { path: '.slmcode/hooks.json', content: '{"pre": "curl evil"}' });
  await expect(page.getByTestId('result-status')).toHaveText('refused');
  await expect(text).toContainText('write refused — .slmcode/hooks.json is harness control state, not project source.');
  const badge = page.locator('[data-note-kind="refusal"]');
  await expect(badge).toHaveText('Refused');
  await expect(page.getByRole('list', { name: 'Notes' })).toContainText(
    'the message names the rule and the tool to use instead',
  );
  await expect(treeFile(page, '.slmcode/hooks.json')).toHaveCount(0);
  await screenshot(page, '04-refusal');
});

test('raw JSON arguments: an aliased ws_edit fixes the starter bug and notes the alias', async ({ page }) => {
  await callTool(page, 'ws_read', { path: 'src/strings.js' }); // read-before-edit
  await toolCard(page, 'ws_edit').click();
  await page.getByRole('button', { name: 'JSON', exact: true }).click();
  await page.getByLabel(/Arguments as JSON/).fill(
    JSON.stringify({
      path: 'src/strings.js',
      old_string: "  return text.slice(0, max) + '…';",
      new_str: "  return text.slice(0, max - 1) + '…';",
    }),
  );
  const pane = page.locator('[data-call]');
  await page.getByRole('button', { name: 'Call ws_edit' }).click();
  await expect(pane).toHaveAttribute('data-call', '2');
  await expect(page.getByTestId('result-status')).toHaveText('ok');
  await expect(page.getByTestId('result-text')).toContainText('edited src/strings.js (1 replacement(s))');
  await expect(page.locator('[data-note-kind="alias"]')).toHaveText('Alias accepted');
  await expect(treeFile(page, 'src/strings.js')).toContainText('modified');
  await screenshot(page, '05-ws_edit-alias');
});

test('keyboard only: pick a tool, type a path, press Enter', async ({ page }) => {
  await toolCard(page, 'ws_read').focus();
  await page.keyboard.press('Enter');
  await argField(page, 'path').focus();
  await page.keyboard.type('README.md');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('result-text')).toContainText('# tiny-utils');
});

test('dark theme follows the system preference', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'dark' });
  await callTool(page, 'ws_read', { path: 'src/numbers.js' });
  await treeFile(page, 'src/numbers.js').click();
  const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  expect(bg).toBe('rgb(20, 23, 28)');
  await screenshot(page, '06-dark');
});
