/**
 * Editing the model's output and continuing as a branch, in real Chromium: lesson 2 ("Copying
 * from a read") is opened, step 3's raw output is edited (the pasted gutter taken off its first
 * line), and the run continues with the rest of the recorded outputs as a new session; that
 * session says where it branched, keeps itself in "Your sessions", and opens the split view
 * against the lesson on the branch point, where steps 1–2 are the same and step 3 differs. A
 * branch saved before its run reached the edited step opens — from a file and from "Your
 * sessions" — replays what it holds and says so.
 */
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });

test('edit step 3 of a lesson, continue with the scripted rest, compare with the original from step 3', async ({
  page,
  problems: _problems,
}) => {
  await page.goto('/');
  await page.getByRole('button', { name: /Copying from a read/ }).click();
  await expect(page.getByTestId('replay-verdict')).toContainText('✓ Reproduced: all 5 replayed steps match');
  await timeline(page).getByRole('option').filter({ hasText: '#3' }).click();
  await expect(page.getByTestId('inspector')).toContainText('Edit refused');

  await page.getByTestId('edit-output').click();
  const raw = page.getByTestId('edit-raw');
  const recorded = await raw.inputValue();
  expect(recorded).toContain('     6|export function clamp');
  // As recorded, there is nothing to branch: the button waits for an edit.
  await expect(page.getByTestId('branch-run')).toBeDisabled();
  await raw.fill(recorded.replace('     6|export function clamp', 'export function clamp'));
  await expect(page.getByRole('radio', { name: /the rest of the recorded outputs/ })).toBeChecked();
  await screenshot(page, 'branch-01-edit');
  await page.getByTestId('branch-run').click();

  // A new session: steps 1–2 replayed and checked, step 3 the edit, then the recorded rest.
  await expect(page.getByTestId('run-phase')).toHaveText('ended', { timeout: 60_000 });
  await expect(timeline(page).getByRole('option')).toHaveCount(5);
  await expect(page.getByTestId('replay-verdict')).toContainText(
    '✓ Reproduced: steps 1–2 match the record; step 3 is the edited output',
  );
  await expect(page.getByTestId('branch-of')).toHaveText('✎ Branch: step 3 edited');
  await timeline(page).getByRole('option').filter({ hasText: '#3' }).click();
  await expect(page.getByTestId('step-edited')).toBeVisible();
  await expect(page.getByTestId('inspector')).toContainText('edited src/numbers.js (1 replacement(s))');
  // The recorded step 4 makes the same edit again, and the text it looks for is gone now.
  await timeline(page).getByRole('option').filter({ hasText: '#4' }).click();
  await expect(page.getByTestId('inspector')).not.toContainText('edited src/numbers.js (1 replacement(s))');
  await screenshot(page, 'branch-02-run');

  // Kept in "Your sessions" under the lesson's title, and opened against the lesson on step 3.
  await page.getByTestId('compare-branch').click();
  await expect(page).toHaveURL(/#\/compare\?a=lesson:copying-from-a-read&b=saved:[0-9a-f-]+&row=3$/);
  await expect(page.getByTestId('compare-head-left')).toContainText('Lesson 2: Copying from a read');
  await expect(page.getByTestId('compare-head-right')).toContainText('Copying from a read — branch at step 3');
  const selected = page.getByTestId('compare-rows').locator('[aria-selected="true"]');
  await expect(selected).toHaveAttribute('data-row', '3');
  await expect(page.getByTestId('first-divergence')).toContainText('First divergence at row 3');
  await expect(page.getByTestId('compare-step-left')).toContainText('Edit refused');
  await expect(page.getByTestId('compare-step-right')).toContainText('edited src/numbers.js');
  await screenshot(page, 'branch-03-compare');
});

test('a branch saved before it reached its edited step opens from a file and from the list, and says so', async ({
  page,
  problems: _problems,
}) => {
  const lesson = JSON.parse(readFileSync('lessons/copying-from-a-read.session.json', 'utf8')) as {
    steps: unknown[];
  };
  // What a branch at step 3 holds when it was saved after step 2 (a reload during its replay).
  const short = {
    ...lesson,
    title: 'A branch cut before its edit',
    steps: lesson.steps.slice(0, 2),
    branch: { parentHash: '0123456789ab', parentId: 'lesson:copying-from-a-read', step: 3 },
  };
  const says = async () => {
    await expect(page.getByTestId('replay-verdict')).toContainText('✓ Reproduced');
    await expect(timeline(page).getByRole('option')).toHaveCount(2);
    await expect(page.getByTestId('branch-of')).toHaveText('✎ Branch: step 3 edited (not reached)');
    // Nothing to compare: the edited step never ran.
    await expect(page.getByTestId('compare-branch')).toHaveCount(0);
    await expect(page.getByTestId('branch-short')).toContainText(
      'Saved before it reached its edited step: it holds steps 1–2 of the original, replayed before step 3',
    );
  };
  await page.goto('/');
  await page.getByTestId('session-file-input').setInputFiles({
    name: 'short-branch.session.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(short)),
  });
  await says();
  await screenshot(page, 'branch-04-short');

  await page.getByRole('link', { name: 'Start' }).click();
  await page.getByRole('button', { name: 'Open A branch cut before its edit' }).click();
  await says();
});
