/**
 * The Eval page runs any suite, in real Chromium against the production build: the suite
 * `slm eval import exercism` writes from the fixture track (run here through the real CLI) is
 * opened as a folder, its name and task count show, three of its JavaScript tasks run with the
 * reference solutions on the on and off arms — the Jest-style specs graded in the tab's
 * sandbox — and give the same table, paired comparison, plot and grid as the builtin suite; the
 * export names the suite. The same suite as a .zip opens too, and the builtin suite comes back.
 * Its two Python tasks are graded in the tab's Pyodide: a reference solution passes, a wrong
 * one fails.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { expect, screenshot, test } from './console.ts';

const TASKS = ['async-inventory', 'shopping-cart', 'sum-of-digits'];
/** The suite's Python tasks (unittest tests, graded by `python3 -m unittest`). */
const PYTHON_TASKS = ['vowel-count', 'clamp-range'];

/** The fixture track imported by the CLI into DIR/suite. */
function importSuite(): string {
  const dir = mkdtempSync(join(tmpdir(), 'slm-e2e-suite-'));
  const suite = join(dir, 'suite');
  const run = spawnSync(
    'node_modules/.bin/tsx',
    ['src/cli/main.ts', 'eval', 'import', 'exercism', 'tests/fixtures/exercism-track', '--out', suite],
    { encoding: 'utf8' },
  );
  // Exit 1: the track also holds folders it cannot import (a Go exercise, one without its config), named on stdout.
  expect(run.stdout).toContain('imported 6 exercise(s)');
  return suite;
}

test('an imported Exercism-layout suite opened as a folder runs with the reference solutions: name, count, table, paired statistics, grid and an export that names it', async ({
  page,
  problems: _problems,
}) => {
  test.setTimeout(240_000);
  const suite = importSuite();
  await page.goto('/#/eval');
  await expect(page.getByTestId('eval-suite')).toContainText(/Suite: builtin · 2\d tasks/);
  await page.getByTestId('eval-suite-folder-input').setInputFiles(suite);
  await expect(page.getByTestId('eval-suite')).toHaveText(/Suite: suite · 6 tasks/);

  await page.getByText('Tasks: 6 of 6').click();
  await page.getByRole('button', { name: 'None' }).click();
  for (const id of TASKS) await page.getByLabel(`Task ${id}`).check();
  await page.getByRole('button', { name: 'Run 6 sessions' }).click();
  await expect(page.getByTestId('eval-progress').or(page.getByTestId('eval-summary'))).toBeVisible();
  await expect(page.getByTestId('eval-progress')).toHaveCount(0, { timeout: 200_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The reference solutions pass every grader with the ACI on: the Jest specs ran in the tab.
  const summary = page.getByTestId('eval-summary');
  await expect(summary.locator('tr[data-arm="on"]')).toContainText('3 / 3');
  await expect(page.getByTestId('eval-paired')).toContainText('on vs off');
  await expect(page.getByTestId('eval-plot')).toBeVisible();
  const grid = page.getByTestId('eval-grid');
  for (const id of TASKS) await expect(grid.locator(`tr[data-task="${id}"] [data-testid="eval-cell"]`)).toHaveCount(2);
  await expect(grid.locator('tr[data-task="initials"]')).toHaveCount(0);
  await expect(page.getByTestId('eval-results-suite')).toHaveText('suite');

  // The export names the suite.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export the whole result…' }).click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^eval-suite-scripted-.*\.eval\.json$/);
  const exported = JSON.parse(readFileSync(await saved.path(), 'utf8')) as { results: { suite: string } };
  expect(exported.results.suite).toBe('suite');

  // A cell opens its session; on ⇄ off opens the pair side by side.
  await grid.locator(`tr[data-task="${TASKS[0]}"] [data-testid="eval-compare"]`).click();
  await expect(page).toHaveURL(/#\/compare\?a=link:[^&]+&b=link:/);
  await expect(page.getByTestId('compare-head-left')).toContainText(`Eval: ${TASKS[0]} · on · seed 0`);

  // The same suite as a .zip, then the builtin suite again.
  await page.getByRole('link', { name: 'Eval' }).click();
  const zip = join(suite, '..', 'imported.zip');
  const entries = Object.fromEntries(
    readdirSync(suite).map((name) => [`imported/${name}`, strToU8(readFileSync(join(suite, name), 'utf8'))]),
  );
  writeFileSync(zip, zipSync(entries));
  await page.getByTestId('eval-suite-file-input').setInputFiles(zip);
  await expect(page.getByTestId('eval-suite')).toHaveText(/Suite: imported · 6 tasks/);
  await page.getByRole('button', { name: 'Builtin suite' }).click();
  await expect(page.getByTestId('eval-suite')).toContainText(/Suite: builtin · 2\d tasks/);
});

test("the suite's Python tasks are graded by python3 -m unittest in the tab's Pyodide: the reference solution passes, a wrong one fails", async ({
  page,
  problems: _problems,
}) => {
  // Each session and each grading runs python3: the first loads Pyodide, which takes seconds (tens on a loaded machine).
  test.setTimeout(360_000);
  const suite = importSuite();
  // clamp-range's solution made wrong: the bounds check is left out, so one of its four tests fails.
  const file = join(suite, 'clamp-range.task.json');
  const task = JSON.parse(readFileSync(file, 'utf8')) as { solution: Record<string, string> };
  task.solution = { 'clamp_range.py': 'def clamp(value, low, high):\n    return max(low, min(value, high))\n' };
  writeFileSync(file, JSON.stringify(task));

  await page.goto('/#/eval');
  await page.getByTestId('eval-suite-folder-input').setInputFiles(suite);
  await expect(page.getByTestId('eval-suite')).toHaveText(/Suite: suite · 6 tasks/);
  await page.getByText('Tasks: 6 of 6').click();
  await page.getByRole('button', { name: 'None' }).click();
  for (const id of PYTHON_TASKS) await page.getByLabel(`Task ${id}`).check();
  await page.getByRole('button', { name: 'Run 4 sessions' }).click();
  await expect(page.getByTestId('eval-progress').or(page.getByTestId('eval-summary'))).toBeVisible();
  await expect(page.getByTestId('eval-progress')).toHaveCount(0, { timeout: 330_000 });
  await expect(page.getByRole('alert')).toHaveCount(0);

  // The right verdict for each, graded rather than an infrastructure failure: the wrong solution's
  // own final test run failed too, so the session finished with failing tests (gave up).
  await expect(page.getByTestId('eval-summary').locator('tr[data-arm="on"]')).toContainText('1 / 2');
  const cell = (id: string) => page.getByTestId('eval-grid').locator(`tr[data-task="${id}"] [data-testid="eval-cell"]`);
  await expect(cell('vowel-count').first()).toHaveAttribute('title', /^vowel-count · on · seed 0: passed/);
  await expect(cell('clamp-range').first()).toHaveAttribute('title', /^clamp-range · on · seed 0: failed \(gave-up\)/);
  await screenshot(page, 'eval-python-tasks');

  // The passing session's last step ran the project's unittest tests in Pyodide.
  await cell('vowel-count').first().click();
  await expect(page).toHaveURL(/#\/run/);
  const last = page.getByRole('listbox', { name: 'Steps' }).getByRole('option').last();
  // The inspector replays it as it opens; its last step runs the tests in Pyodide again.
  await expect(last).toContainText('done', { timeout: 120_000 });
  await last.click();
  await expect(page.getByTestId('inspector')).toContainText(/Final test run \(3 passed, 0 failed\)/);
  await expect(page.getByTestId('inspector')).toContainText('python3 ran in Pyodide');
});

test('a folder that is not a suite is refused with what to open instead', async ({ page, problems: _problems }) => {
  const dir = mkdtempSync(join(tmpdir(), 'slm-e2e-notsuite-'));
  writeFileSync(join(dir, 'notes.md'), '# not a task');
  await page.goto('/#/eval');
  await expect(page.getByTestId('eval-suite')).toContainText('Suite: builtin');
  await page.getByTestId('eval-suite-file-input').setInputFiles(join(dir, 'notes.md'));
  await expect(page.getByRole('alert')).toContainText(
    'cannot be opened: the folder holds no *.task.json file. A suite is a folder of *.task.json files',
  );
  await expect(page.getByTestId('eval-suite')).toContainText('Suite: builtin');
});
