/**
 * The JavaScript project with Jest-style specs (tests/fixtures/jest-project) in the built app's
 * memory workspace, in real Chromium: its files written with ws_write over the starter (whose
 * node:test files are deleted first), then ws_test and ws_shell `npm test` run its "jest ./*"
 * script through the execution plan in the sandbox frame's worker, with Jest's own `expect`
 * loaded on that first run; the tally is read from Jest's summary.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { callTool, expect, openConsole, screenshot, test } from './console.ts';

const FIXTURE = join(import.meta.dirname, '../tests/fixtures/jest-project');

function fixtureFiles(dir = FIXTURE, base = ''): [string, string][] {
  return readdirSync(dir).flatMap((name): [string, string][] =>
    statSync(join(dir, name)).isDirectory()
      ? fixtureFiles(join(dir, name), `${base}${name}/`)
      : [[`${base}${name}`, readFileSync(join(dir, name), 'utf8')]],
  );
}

test.beforeEach(async ({ page, problems: _problems }) => {
  await openConsole(page);
  for (const path of ['test/numbers.test.js', 'test/strings.test.js']) {
    await callTool(page, 'ws_delete', { path });
    await expect(page.getByTestId('result-status')).toHaveText('ok');
  }
  // The starter's package.json is overwritten: a file is read before it is written over.
  await callTool(page, 'ws_read', { path: 'package.json' });
  for (const [path, content] of fixtureFiles()) {
    await callTool(page, 'ws_write', { path, content });
    await expect(page.getByTestId('result-status')).toHaveText('ok');
  }
});

test("ws_test runs the Jest-style specs and reads 7 passed, 1 failed from Jest's summary", async ({ page }) => {
  const text = await callTool(page, 'ws_test', {});
  await expect(text).toContainText(
    /^npm test: 7 passed, 1 failed \(exit code 1\)\nFirst failures:\n {2}1\. Stack › is last in, first out\n/,
  );
  await expect(text).toContainText('Tests:       1 failed, 1 skipped, 7 passed, 9 total');
  const notes = page.getByRole('list', { name: 'Notes' });
  await expect(notes).toContainText('test tally: 7 passed, 1 failed');
  await expect(notes).toContainText("jest ran as the sandbox's Jest-style runner");
  await screenshot(page, 'jest-01-ws-test');
});

test('ws_shell npm test shows each spec file and the failure as Jest prints them', async ({ page }) => {
  const text = await callTool(page, 'ws_shell', { command: 'npm test' });
  await expect(page.getByTestId('result-status')).toHaveText('failed');
  await expect(text).toContainText('> shapes@1.0.0 test\n> jest ./*');
  await expect(text).toContainText('PASS test/rect.spec.js');
  await expect(text).toContainText('✓ perimeter(0.1, 0.2) is 0.6');
  await expect(text).toContainText('○ skipped a square helper');
  await expect(text).toContainText('FAIL test/stack.test.js');
  await expect(text).toContainText('Expected: 1\n    Received: 2');
  await expect(text).toContainText('[exit code 1]');
  await expect(page.getByRole('list', { name: 'Notes' })).toContainText('test tally: 7 passed, 1 failed');
});
