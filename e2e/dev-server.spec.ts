/**
 * The README's first command: `npm run dev` from an empty dependency cache, the page loaded and
 * the starter run started at once. The dev server must have optimised every dependency the
 * engine worker imports before it served the page; one found later makes Vite bundle again and
 * reload the page, which loses the run ("No run in this tab yet").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type ViteDevServer } from 'vite';
import { expect, test } from './console.ts';

// A port of its own beside the preview server's (E2E_PORT), so both can run side by side.
const DEV_PORT = Number(process.env.E2E_PORT ?? 4173) + 10;

let server: ViteDevServer | undefined;
let cacheDir = '';
const reloadsAnnounced: string[] = [];

test.beforeAll(async () => {
  cacheDir = mkdtempSync(join(tmpdir(), 'slmcode-vite-cache-'));
  server = await createServer({
    configFile: 'vite.config.ts',
    cacheDir,
    logLevel: 'info',
    server: { port: DEV_PORT, strictPort: true },
    customLogger: {
      info: (msg) => {
        if (/reloading|new dependencies optimized/i.test(msg)) reloadsAnnounced.push(msg);
      },
      warn: (msg) => console.warn(msg),
      warnOnce: (msg) => console.warn(msg),
      error: (msg) => console.error(msg),
      clearScreen: () => {},
      hasErrorLogged: () => false,
      hasWarned: false,
    },
  });
  await server.listen();
});

test.afterAll(async () => {
  await server?.close();
  rmSync(cacheDir, { recursive: true, force: true });
});

test('from an empty Vite cache, the first run on the dev server is not lost to a reload', async ({
  page,
  problems: _problems,
}) => {
  test.setTimeout(240_000);
  let loads = 0;
  page.on('load', () => loads++);
  await page.goto(`http://localhost:${DEV_PORT}/`);
  await expect(page.getByRole('radio', { name: /tiny-utils \(starter\)/ })).toBeChecked({ timeout: 120_000 });
  await page.getByLabel('Pause between scripted steps (ms)').fill('0');
  await page.getByRole('button', { name: 'Run', exact: true }).click();
  await expect(page).toHaveURL(/#\/run$/);
  // The starter's run reads, edits and runs the tests: the engine's lazy parts (tree-sitter,
  // acorn, isomorphic-git) all load on the way.
  await expect(page.getByTestId('run-stop')).toContainText('finished with done', { timeout: 120_000 });
  expect(reloadsAnnounced, 'the dev server re-optimised dependencies after the first page load').toEqual([]);
  expect(loads, 'the page was loaded again').toBe(1);
});
