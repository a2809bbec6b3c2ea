/**
 * Titles and notes travel, in real Chromium against the build (IndexedDB): a finished run is
 * renamed and given a note, exported, deleted, and the downloaded file opened again under
 * another name keeps its title and note; "Your sessions" is searched by title, task and note.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

const saved = (page: Page) => page.getByTestId('saved-sessions').getByRole('listitem');

test('export → open keeps the title and the note; the list is searched by title, task and note', async ({
  page,
  problems: _problems,
}, info) => {
  await page.goto('/');
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await page.getByRole('link', { name: 'Start' }).click();
  await expect(saved(page)).toHaveCount(1);
  const entry = saved(page).first();
  await entry.getByRole('button', { name: /^Rename / }).click();
  await entry.getByRole('textbox', { name: /^New title for / }).fill('My tidy fix');
  await entry.getByRole('textbox', { name: /^New title for / }).press('Enter');
  await entry.getByRole('button', { name: 'Note on My tidy fix' }).click();
  const note = entry.getByRole('textbox', { name: 'Note on My tidy fix' });
  await expect(note).toBeFocused();
  await note.fill('the off-by-one in truncate');
  await note.blur();
  await expect(entry.getByTestId('session-note')).toHaveText('the off-by-one in truncate');

  const download = page.waitForEvent('download');
  await entry.getByRole('button', { name: 'Export My tidy fix' }).click();
  const file = info.outputPath('renamed.session.json');
  await (await download).saveAs(file);
  expect((await download).suggestedFilename()).toBe('my-tidy-fix.session.json');
  const text = readFileSync(file, 'utf8');
  expect(JSON.parse(text)).toMatchObject({ title: 'My tidy fix', note: 'the off-by-one in truncate' });

  // Gone from this browser, then opened from the file under another name: its own title and note come back.
  await entry.getByRole('button', { name: 'Delete My tidy fix' }).click();
  await expect(page.getByTestId('saved-sessions')).toHaveCount(0);
  await page
    .getByTestId('session-file-input')
    .setInputFiles({ name: 'download (3).session.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await expect(page.getByTestId('replay-verdict')).toContainText('✓ Reproduced');
  await expect(page.getByTestId('session-bar')).toContainText('My tidy fix');
  await page.getByRole('link', { name: 'Start' }).click();
  await expect(saved(page)).toHaveCount(1);
  await expect(saved(page).first().locator('.title')).toHaveText('My tidy fix');
  await expect(saved(page).first().getByTestId('session-note')).toHaveText('the off-by-one in truncate');

  // A second entry to search among: the default run again, under its own title.
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  await page.getByRole('link', { name: 'Start' }).click();
  await expect(saved(page)).toHaveCount(2);
  const search = page.getByTestId('sessions-search');
  for (const [query, titles] of [
    ['tidy', ['My tidy fix']],
    ['OFF-BY-ONE', ['My tidy fix']],
    ['npm test', [/^tiny-utils \(starter\)/, 'My tidy fix']],
    ['scripted starter', [/^tiny-utils \(starter\)/]],
  ] as const) {
    await search.fill(query);
    await expect(saved(page)).toHaveCount(titles.length);
    for (const [i, t] of titles.entries()) await expect(saved(page).nth(i).locator('.title')).toHaveText(t);
  }
  await search.fill('python');
  await expect(page.getByTestId('sessions-no-match')).toContainText(
    'No saved session has “python” in its title, task or note. Clear the search to see all 2.',
  );
  await search.fill('tidy');
  await search.scrollIntoViewIfNeeded();
  await page.getByTestId('saved-sessions').scrollIntoViewIfNeeded();
  await screenshot(page, 'titles-01-search');
});
