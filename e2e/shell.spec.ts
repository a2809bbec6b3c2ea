/**
 * ws_shell in the built app: `npm test` runs the starter's tests in the JavaScript sandbox and
 * the tally shows; the note on where a command ran links to what the tab's shell runs and
 * refuses; an endless test is killed at its timeout while the page stays responsive;
 * and code in the sandbox cannot reach the playground's storage or origin (checked by a test
 * file run in it).
 */
import { argField, callTool, expect, openConsole, screenshot, test, toolCard } from './console.ts';

test.beforeEach(async ({ page, problems: _problems }) => {
  await openConsole(page);
});

test('ws_shell npm test runs the starter tests in the sandbox and shows the tally', async ({ page }) => {
  const text = await callTool(page, 'ws_shell', { command: 'npm test' });
  await expect(page.getByTestId('result-status')).toHaveText('failed');
  await expect(text).toContainText('> tiny-utils@1.0.0 test\n> node --test');
  await expect(text).toContainText('not ok 8 - truncate never returns more than max characters');
  await expect(text).toContainText("+ 'hello wo…'\n    - 'hello w…'");
  await expect(text).toContainText('# tests 9\n# suites 0\n# pass 8\n# fail 1');
  await expect(text).toContainText('[exit code 1]');
  const notes = page.getByRole('list', { name: 'Notes' });
  await expect(notes).toContainText('test tally: 8 passed, 1 failed');
  await expect(notes).toContainText('node ran in the browser sandbox');
  await screenshot(page, 'shell-01-npm-test');
});

test("the where-it-ran note links to what the tab's shell runs: why npx prettier fails here", async ({ page }) => {
  const text = await callTool(page, 'ws_shell', { command: 'npx prettier --check .' });
  await expect(text).toContainText('npx prettier is not available in the offline workspace');
  await page.getByTestId('shell-commands-open').click();
  const list = page.getByTestId('shell-commands');
  await expect(list.getByRole('heading', { name: 'Not in this shell' })).toBeVisible();
  // Made from the shell's own table: npx runs only the test runners, npm only scripts.
  await expect(list.locator('dd').filter({ hasText: 'runs only jest, vitest, mocha' })).toBeVisible();
  await expect(list).toContainText('every other npm command — install, ci, exec … — says it is not available');
  await expect(list.locator('dt').filter({ hasText: 'tsc' })).toBeVisible();
  await screenshot(page, 'shell-commands-list');
  await list.getByRole('button', { name: 'Close' }).click();
  await expect(list).toBeHidden();
});

test('ws_test reads the same run as 8 passed, 1 failed and names the failing test', async ({ page }) => {
  const text = await callTool(page, 'ws_test', {});
  await expect(text).toContainText(
    /^npm test: 8 passed, 1 failed \(exit code 1\)\nFirst failures:\n {2}1\. truncate never returns more than max characters\n/,
  );
});

test('an endless test is killed at its timeout while the page stays responsive', async ({ page }) => {
  await callTool(page, 'ws_write', {
    path: 'test/spin.test.js',
    content: "import { test } from 'node:test';\ntest('spins forever', () => {\n  for (;;) {}\n});\n",
  });
  await expect(page.getByTestId('result-status')).toHaveText('ok');

  await toolCard(page, 'ws_shell').click();
  await argField(page, 'command').fill('node --test test/spin.test.js');
  await argField(page, 'timeout_ms').fill('3000');
  const pane = page.locator('[data-call]');
  const next = Number(await pane.getAttribute('data-call')) + 1;
  const started = Date.now();
  await page.getByRole('button', { name: 'Call ws_shell' }).click();

  // While the loop spins, the page answers at once and a control still works.
  const roundTrip = await page.evaluate(async () => {
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, 0));
    return performance.now() - t0;
  });
  expect(roundTrip).toBeLessThan(250);
  const theme = page.getByLabel('Theme');
  await theme.selectOption('dark');
  await expect(theme).toHaveValue('dark');
  expect(Date.now() - started).toBeLessThan(2500);

  await expect(pane).toHaveAttribute('data-call', String(next), { timeout: 20_000 });
  const text = page.getByTestId('result-text');
  await expect(text).toContainText('# Subtest: spins forever');
  await expect(text).toContainText('[timed out after 3 s: the command and every process it started were killed.');
  await expect(page.getByRole('list', { name: 'Notes' })).toContainText('timed out after 3000 ms; process tree killed');
  await screenshot(page, 'shell-02-timeout');

  // Afterwards the engine and the page carry on as before.
  const after = await callTool(page, 'ws_shell', { command: 'ls test' });
  await expect(after).toContainText('spin.test.js');
  await toolCard(page, 'ws_read').click();
  await expect(page.getByRole('heading', { level: 2, name: /^ws_read\b/ })).toBeVisible();
});

test('code in the sandbox has an opaque origin: no IndexedDB, Cache Storage, localStorage or playground fetch', async ({
  page,
}) => {
  // Something worth stealing: a localStorage entry and an IndexedDB database of the playground's origin.
  const origin = await page.evaluate(async () => {
    localStorage.setItem('slm-secret', 'do not read');
    await new Promise((resolve, reject) => {
      const open = indexedDB.open('slm-probe');
      open.onsuccess = () => resolve(open.result.close());
      open.onerror = () => reject(open.error);
    });
    return location.origin;
  });
  // The runtime removes these globals; the test reaches past that to the real ones, so what it
  // checks is the origin's isolation, not the removal.
  const probe = `import { test } from 'node:test';
import assert from 'node:assert/strict';
const proto = WorkerGlobalScope.prototype;
const real = (name) => Object.getOwnPropertyDescriptor(proto, name);

test('runs with an opaque origin in the sandbox frame', () => {
  assert.equal(self.origin, 'null');
  assert.equal(location.protocol, 'blob:');
});

test('cannot open the playground IndexedDB', () => {
  const idb = real('indexedDB').get.call(self);
  assert.throws(() => idb.open('slm-probe'), { name: 'SecurityError' });
});

test('has no Cache Storage, localStorage or sessionStorage', () => {
  // Chromium does not expose Cache Storage to an opaque origin's worker at all; where it does, it throws.
  const caches = real('caches');
  if (caches) assert.throws(() => caches.get.call(self), { name: 'SecurityError' });
  assert.equal(typeof localStorage, 'undefined');
  assert.equal(typeof sessionStorage, 'undefined');
});

test('cannot read the playground over fetch', async () => {
  await assert.rejects(real('fetch').value.call(self, ${JSON.stringify(origin)} + '/index.html'), TypeError);
});
`;
  await callTool(page, 'ws_write', { path: 'test/isolation.test.js', content: probe });
  await expect(page.getByTestId('result-status')).toHaveText('ok');
  const text = await callTool(page, 'ws_shell', { command: 'node --test test/isolation.test.js' });
  await expect(text).toContainText('ok 1 - runs with an opaque origin in the sandbox frame');
  await expect(text).toContainText('ok 2 - cannot open the playground IndexedDB');
  await expect(text).toContainText('ok 3 - has no Cache Storage, localStorage or sessionStorage');
  await expect(text).toContainText('ok 4 - cannot read the playground over fetch');
  await expect(text).toContainText('# pass 4\n# fail 0');
  await expect(page.getByTestId('result-status')).toHaveText('ok');
  // The page's own storage is untouched.
  expect(await page.evaluate(() => localStorage.getItem('slm-secret'))).toBe('do not read');
});
