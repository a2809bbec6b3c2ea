/**
 * The run page as a newcomer uses it, in real Chromium against the build: the side column keeps
 * its steps in view whatever is open, the ladder-rung plot names every rung inside its frame,
 * a click on a plot's column selects that step, nothing in the inspector scrolls sideways, a
 * jump link lands its heading below the sticky header, the step being written sits right under
 * the list, the steps can be searched and filtered with the hit marked, and the whole run comes
 * out as a patch and a zip. Every test also fails on any console error.
 */
import type { Page } from '@playwright/test';
import { readFile } from 'node:fs/promises';
import { expect, screenshot, test } from './console.ts';

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });
const inspector = (page: Page) => page.getByTestId('inspector');

/** The scripted starter run from the start screen, with `pace` ms between steps; waits for its end unless told not to. */
async function runStarter(page: Page, { pace = '0', wait = true } = {}): Promise<void> {
  await page.goto('/');
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked();
  await page.getByLabel('Pause between scripted steps (ms)').fill(pace);
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page).toHaveURL(/#\/run$/);
  if (wait) await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
}

test('layout: both side panels open still leave the steps usable; the inspector never scrolls sideways; a jump lands below the header', async ({
  page,
  problems: _problems,
}) => {
  await runStarter(page);
  await page.getByText('Re-run with other ACI settings').click();
  await page.getByText('Edit-format bandit').click();
  await expect(page.getByTestId('evolve-choice')).toBeVisible();
  const list = await timeline(page).boundingBox();
  expect(list!.height).toBeGreaterThan(120);
  await screenshot(page, 'inspector-01-both-panels');

  // Step 7's summary is one long line: it wraps instead of scrolling the call or the page sideways.
  await timeline(page).getByRole('option').last().click();
  const value = inspector(page).getByTestId('parsed-call').locator('pre').last();
  expect(await value.evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0);
  expect(await inspector(page).evaluate((e) => e.scrollWidth - e.clientWidth)).toBe(0);

  for (const [link, heading] of [
    ['Workspace change', 'Workspace change'],
    ['Files', 'Files after step 7'],
    ['What the engine did', 'What the engine did'],
  ] as const) {
    await inspector(page)
      .getByRole('navigation', { name: 'Inspector sections' })
      .getByRole('button', { name: link, exact: true })
      .click();
    const h = inspector(page).getByRole('heading', { level: 3, name: new RegExp(`^${heading}`) });
    await expect(h).toBeInViewport();
    const headBottom = await inspector(page)
      .locator('header.head')
      .evaluate((e) => e.getBoundingClientRect().bottom);
    const top = await h.evaluate((e) => e.getBoundingClientRect().top);
    expect(top, `${heading} starts below the sticky header`).toBeGreaterThanOrEqual(headBottom);
  }
  await screenshot(page, 'inspector-02-jump');
});

test('plots: every rung name inside the frame, and a click on a column selects its step', async ({
  page,
  problems: _problems,
}) => {
  // Lesson 1 drifts once per rung: five rows of the rung plot, each named.
  await page.goto('/');
  await page.getByRole('button', { name: 'Edits that drift' }).click();
  await expect(page.getByTestId('replay-verdict')).toHaveText('✓ Reproduced: all 7 replayed steps match the record', {
    timeout: 30_000,
  });
  const rungs = page.getByTestId('plot-rungs');
  await expect(rungs.locator('text.rung-label')).toHaveText([
    'trailing-ws',
    'quotes-dashes',
    'indent',
    'blank-lines',
    'anchors',
  ]);
  const frame = (await rungs.boundingBox())!;
  for (const label of await rungs.locator('text.rung-label').all()) {
    const box = (await label.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(frame.x);
    expect(box.x + box.width).toBeLessThanOrEqual(frame.x + frame.width);
    expect(box.y).toBeGreaterThanOrEqual(frame.y);
    expect(box.y + box.height).toBeLessThanOrEqual(frame.y + frame.height + 1);
  }
  // No dot sits on a name: every dot is right of the widest name.
  const namesEnd = Math.max(
    ...(await rungs.locator('text.rung-label').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right))),
  );
  for (const dot of await rungs.locator('circle.rung').all())
    expect((await dot.boundingBox())!.x).toBeGreaterThan(namesEnd);
  await screenshot(page, 'inspector-03-rung-plot');

  // Seven columns right of the names' gutter (RunPlots: 78 of the 300 units wide, 2 at the right
  // edge): a click in the middle of the 3rd, then of the 6th.
  const tests = page.getByTestId('plot-tests');
  const box = (await tests.boundingBox())!;
  const column = (n: number) => (box.width * (78 + ((n - 0.5) * (300 - 78 - 2)) / 7)) / 300;
  await tests.click({ position: { x: column(3), y: box.height / 2 } });
  await expect(page).toHaveURL(/#\/run\?step=3$/);
  await page.getByTestId('plot-context').click({ position: { x: column(6), y: box.height / 2 } });
  await expect(page).toHaveURL(/#\/run\?step=6$/);
  await expect(timeline(page).getByRole('option', { selected: true })).toContainText('#6');
});

test('the card of the step being written sits right under the list, in view', async ({ page, problems: _problems }) => {
  await runStarter(page, { pace: '1500', wait: false });
  await expect(timeline(page).getByRole('option').first()).toBeVisible({ timeout: 15_000 });
  // One read of the layout while the card is there: the list's bottom, the card, and the side column's visible bottom.
  const layout = () =>
    page.evaluate(() => {
      const card = document.querySelector('[data-testid="live-output"]')?.getBoundingClientRect();
      if (!card) return null;
      const list = document.querySelector('[data-testid="timeline"]')!.getBoundingClientRect();
      const side = document.querySelector('aside.side')!.getBoundingClientRect();
      return {
        rightUnderTheList: card.top - list.bottom >= 0 && card.top - list.bottom < 16,
        inView: card.bottom <= side.bottom,
      };
    });
  // The card is up only while a step is written: read often, so a busy machine does not miss it.
  await expect.poll(layout, { intervals: [10], timeout: 30_000 }).toEqual({ rightUnderTheList: true, inView: true });
  await screenshot(page, 'inspector-04-writing');
  await page.getByRole('button', { name: 'Stop' }).click();
});

test('search and filter the steps: by text with the hit marked, by tool, by note kind; the keys keep to the matches', async ({
  page,
  problems: _problems,
}) => {
  await runStarter(page);
  const options = timeline(page).getByRole('option');
  await expect(options).toHaveCount(7);

  await page.locator('body').press('/');
  const field = page.getByRole('searchbox', { name: 'Text in a step' });
  await expect(field).toBeFocused();
  await field.fill('truncate');
  await expect(page.getByTestId('search-count')).toContainText(/^\d of 7 steps match/);
  const count = await options.count();
  expect(count).toBeGreaterThan(0);
  expect(count).toBeLessThan(7);
  for (const mark of await timeline(page).locator('mark').all()) await expect(mark).toHaveText(/^truncate$/i);
  await screenshot(page, 'inspector-05-search');

  await field.fill('');
  await page.getByRole('combobox', { name: 'Tool' }).selectOption('ws_edit');
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('ws_edit');
  // The inspector showed step 7 (the latest); the filter keeps only step 5, so the selection moves there.
  await expect(page).toHaveURL(/step=5$/);
  await expect(page.getByTestId('inspector').getByRole('heading', { level: 2 })).toContainText('Step 5');
  await expect(options.first()).toHaveAttribute('aria-selected', 'true');
  await page.getByRole('combobox', { name: 'Tool' }).selectOption({ label: 'All tools' });
  await page.getByRole('combobox', { name: 'Note kind' }).selectOption({ label: 'Retry asked' });
  await expect(options).toHaveCount(1);
  await expect(options.first()).toContainText('no call');
  await page.getByRole('combobox', { name: 'Note kind' }).selectOption({ label: 'All notes' });

  // With a query on, → and ← step through the matches only.
  await field.fill('ws_');
  const shown = await options.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-step'))));
  await timeline(page).focus();
  await page.keyboard.press('Home');
  await expect(page).toHaveURL(new RegExp(`step=${shown[0]}$`));
  await page.keyboard.press('ArrowRight');
  await expect(page).toHaveURL(new RegExp(`step=${shown[1]}$`));

  // A search that matches nothing says the step on screen is outside it.
  await field.fill('no step says this');
  await expect(options).toHaveCount(0);
  await expect(page.getByTestId('search-outside')).toContainText(
    /No step matches: the inspector still shows step \d, which is outside the search/,
  );
  await screenshot(page, 'inspector-06-search-outside');

  // Esc in the field clears the search.
  await field.focus();
  await page.keyboard.press('Escape');
  await expect(field).toHaveValue('');
  await expect(options).toHaveCount(7);
});

test("downloads: the run's change as a patch, and its final files as a zip", async ({ page, problems: _problems }) => {
  await runStarter(page);
  const downloads = page.getByTestId('run-downloads');
  const patchDownload = page.waitForEvent('download');
  await downloads.getByRole('button', { name: 'Change (.patch)' }).click();
  const patch = await patchDownload;
  expect(patch.suggestedFilename()).toBe('tiny-utils-starter.patch');
  const text = await readFile((await patch.path())!, 'utf8');
  expect(text).toMatch(/^# tiny-utils \(starter\): the change of the run, start → after step 7\n# 1 file changed\n/);
  expect(text).toContain(
    'diff --git a/src/strings.js b/src/strings.js\n--- a/src/strings.js\n+++ b/src/strings.js\n@@',
  );

  const zipDownload = page.waitForEvent('download');
  await downloads.getByRole('button', { name: 'Final files (.zip)' }).click();
  const zip = await zipDownload;
  expect(zip.suggestedFilename()).toBe('tiny-utils-starter.zip');
  const bytes = await readFile((await zip.path())!);
  expect([...bytes.subarray(0, 4)]).toEqual([0x50, 0x4b, 0x03, 0x04]);
  expect(bytes.toString('latin1')).toContain('tiny-utils-starter/src/strings.js');
  await screenshot(page, 'inspector-06-downloads');
});
