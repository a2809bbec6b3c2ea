/**
 * A link never approves, in real Chromium against the production build. The link carries a
 * session whose step 1 ran a gated command (`touch approved-marker`) that a person approved
 * when it was recorded. Opened in a fresh browser, nothing runs: the file is not in the
 * workspace, the step says the approval is history ("not by you"), and only after a person
 * presses "Approve and run" (here with the keyboard) does that one step run and the file appear.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { expect, screenshot, test } from './console.ts';

const MARKER = 'approved-marker';
const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });

/**
 * The link's path and hash, built the way the playground builds one: a scripted run recorded by
 * the real loop and engine in Node on the starter template, a person approving the gated
 * command, then encoded by the share codec.
 */
function approvedLink(dir: string): string {
  const root = process.cwd();
  const out = `${dir}/approved-link.txt`;
  const build = `${dir}/build-approved-link.mts`;
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    build,
    [
      `import { ScriptedModel } from '${root}/src/agent/models/scripted.ts';`,
      `import { createEngine } from '${root}/src/engine/create.ts';`,
      `import { useNodeWasm } from '${root}/src/platform/node-wasm.ts';`,
      `import { recordRun } from '${root}/src/session/recorder.ts';`,
      `import { shareUrl } from '${root}/src/session/share-codec.ts';`,
      `import { seedTemplateRepo } from '${root}/src/workspace/git-seed.ts';`,
      `import { MemoryWorkspace } from '${root}/src/workspace/memory/memory-workspace.ts';`,
      `import { NodeJsEngine } from '${root}/src/workspace/memory/node-runner.ts';`,
      `import { ShellRunner } from '${root}/src/workspace/memory/shell-runner.ts';`,
      `import { STARTER_TEMPLATE } from '${root}/src/workspace/templates/index.ts';`,
      `import { writeFileSync } from 'node:fs';`,
      'useNodeWasm();',
      // A workspace that runs commands (the page's replay has the JavaScript sandbox; touch runs the same in both).
      'const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine()));',
      'await seedTemplateRepo(ws, STARTER_TEMPLATE);',
      `const outputs = [${JSON.stringify(JSON.stringify({ tool: 'ws_shell', args: { command: `touch ${MARKER}` } }))}, ${JSON.stringify(JSON.stringify({ tool: 'ws_list', args: { path: '.' } }))}];`,
      'const { session } = await recordRun({ engine: createEngine(ws), model: new ScriptedModel(outputs), task: STARTER_TEMPLATE.task, maxSteps: outputs.length, approve: async () => true });',
      `if (session.steps[0].approval !== 'approved' || !(await ws.lstat('${MARKER}'))) throw new Error('the recorded run did not approve and run the command');`,
      `writeFileSync(${JSON.stringify(out)}, await shareUrl(session, '/'));`,
      'process.exit(0);',
    ].join('\n'),
  );
  execFileSync('npx', ['tsx', build], { stdio: 'inherit' });
  return readFileSync(out, 'utf8');
}

test('a link whose gated step recorded an approval runs nothing until a person presses "Approve and run"', async ({
  page,
  problems: _problems,
}, info) => {
  const link = approvedLink(info.outputPath('link'));
  expect(link).toMatch(/^\/#s=(?:2\.)?[A-Za-z0-9_-]+$/);
  await page.goto(link);

  // The replay ends; step 1 is marked as not run without an approval, not as a changed result.
  await expect(page.getByTestId('replay-verdict')).toHaveText(/Diverged at step 1 \(approval\)/, { timeout: 30_000 });
  await expect(timeline(page).locator('[data-testid="step-check"]').first()).toHaveAttribute('data-check', 'approval');
  await expect(timeline(page).locator('[data-testid="step-check"]').first()).toHaveText('✗ not run without approval');

  // Step 1 in the inspector (Home selects the first step).
  await page.keyboard.press('Home');
  const inspector = page.getByTestId('inspector');
  await expect(inspector.getByRole('heading', { level: 2 })).toContainText('Step 1');
  await expect(inspector.getByTestId('step-approval')).toHaveText(
    'approved when it was recorded (not by you) · not run here: it needs your approval',
  );
  await expect(inspector.getByTestId('recorded-approval')).toContainText(
    'approved — by whoever recorded it, not by you',
  );
  await expect(inspector.getByTestId('step-session')).toContainText(
    'Step 1 (ws_shell) cannot be reproduced without an approval',
  );
  await expect(inspector.getByTestId('offer-command')).toHaveText(`touch ${MARKER}`);
  await expect(inspector.getByTestId('offer-writes')).toHaveText(`This command would write: ${MARKER}.`);

  // Nothing ran: the file is in no workspace view of the run.
  const tree = inspector.getByTestId('step-tree');
  await expect(tree).toHaveAttribute('data-step', '1');
  await expect(tree.locator('[data-path="README.md"]')).toBeVisible();
  await expect(tree.locator(`[data-path="${MARKER}"]`)).toHaveCount(0);
  await screenshot(page, 'replay-approval-before');

  // A person approves, with the keyboard: the button is named for screen readers with the command.
  const button = inspector.getByRole('button', { name: `Approve and run step 1: touch ${MARKER}` });
  await button.focus();
  await page.keyboard.press('Enter');
  const result = inspector.getByTestId('approved-result');
  await expect(result).toHaveAttribute('data-check', 'ok', { timeout: 30_000 });
  await expect(result).toContainText('✓ You approved step 1');
  await expect(inspector.getByTestId('approved-tree').locator(`[data-path="${MARKER}"]`)).toContainText('created');
  // A link keeps only the hash of a command's result: the check above compared the hashes, and the page says so.
  await expect(inspector.getByTestId('approved-live')).toBeVisible();
  await expect(
    inspector.getByText(
      'The record keeps only a hash of this result (a shared link leaves the texts out); the check above compares the hashes.',
    ),
  ).toBeVisible();
  await screenshot(page, 'replay-approval-after');

  // The replay as recorded is unchanged: its step 1 still shows no file.
  await expect(tree.locator(`[data-path="${MARKER}"]`)).toHaveCount(0);
});
