/**
 * A session recorded where the workspace was not at /ws (WebContainer keeps it in its home
 * directory) replays in the tab: the default run is exported, its command steps rewritten as a
 * WebContainer would have printed them (the root `/home/projects/tiny-utils`, hashes to match),
 * and the file opened again. The failing test run replays as equivalent (≈, with its diff), the
 * step says its root was normalised, the session bar counts the equivalent step, and every other
 * step is identical.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });
const ROOT = '/home/projects/tiny-utils';
const short = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 12);

test('a session recorded outside /ws: its command steps compared with the root normalised, and said so', async ({
  page,
  problems: _problems,
}, info) => {
  await page.goto('/');
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 30_000 });
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export file' }).click();
  const file = info.outputPath('run.session.json');
  await (await download).saveAs(file);
  const session = JSON.parse(readFileSync(file, 'utf8')) as {
    steps: {
      backend?: string;
      shellOutput?: string;
      resultText: string;
      resultHash: string;
      shellHash?: string;
      root?: string;
    }[];
  };
  let moved = 0;
  for (const step of session.steps) {
    if (step.backend === undefined || !step.shellOutput!.includes('/ws/')) continue;
    moved++;
    step.shellOutput = step.shellOutput!.split('/ws/').join(`${ROOT}/`);
    step.resultText = step.resultText.split('/ws/').join(`${ROOT}/`);
    step.resultHash = short(step.resultText);
    step.shellHash = short(step.shellOutput);
    step.root = ROOT;
  }
  expect(moved).toBe(1);

  await page.getByRole('link', { name: 'Start' }).click();
  await page.getByTestId('session-file-input').setInputFiles({
    name: 'webcontainer.session.json',
    mimeType: 'application/json',
    buffer: Buffer.from(JSON.stringify(session)),
  });
  await expect(page.getByTestId('replay-verdict')).toHaveText('✓ Reproduced: all 7 replayed steps match the record');
  await expect(page.getByTestId('replay-equivalent')).toContainText('≈ 1 equivalent');
  await timeline(page).getByRole('option').filter({ hasText: '#1' }).click();
  await expect(page.getByTestId('root-normalised')).toHaveText(
    `Workspace root normalised: this command saw the workspace at \`${ROOT}\`, not /ws, so its output was compared with that root read as /ws.`,
  );
  await expect(page.getByTestId('step-equivalent')).toContainText('≈ Equivalent: The command printed other text');
  // The file keeps the recorded output: the step says how it compares, never that a link left it out.
  await expect(page.getByTestId('step-equivalent')).not.toContainText('a shared link leaves it out');
  await screenshot(page, 'root-01-equivalent');
  // A step that ran no command says nothing of roots.
  await timeline(page).getByRole('option').filter({ hasText: '#2' }).click();
  await expect(page.getByTestId('root-normalised')).toHaveCount(0);
});
