/**
 * Python in the tab, in headless Chromium (the built app served by `vite preview`): the first
 * `python3` of a fresh page (Pyodide fetched from the app and started in a worker of the sandbox
 * frame) from the click to the result shown, with the bytes its files took on the wire; then a
 * unittest run of tests/fixtures/python-unittest once Python is loaded (a worker started ahead),
 * beside the same run by this machine's CPython.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type Page } from '@playwright/test';
import { appBuild } from './build.ts';
import { startPreview } from './preview.ts';
import { ms, summarize, timingCell } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking'];
const FIXTURE = join(import.meta.dirname, '../tests/fixtures/python-unittest');
const UNITTEST = 'python3 -m unittest discover -s tests';
const RUNS = 3;
const WAIT_MS = 300_000;
const TITLE = 'Python in the tab (Pyodide in the sandbox frame, headless Chromium)';

function fixtureFiles(dir = FIXTURE, base = ''): [string, string][] {
  return readdirSync(dir).flatMap((name): [string, string][] =>
    statSync(join(dir, name)).isDirectory()
      ? fixtureFiles(join(dir, name), `${base}${name}/`)
      : [[`${base}${name}`, readFileSync(join(dir, name), 'utf8')]],
  );
}

/** Calls a tool in the console and returns ms from the click to its result, and the result's text. */
async function call(page: Page, tool: string, args: Record<string, string>): Promise<{ ms: number; text: string }> {
  await page.getByRole('button', { name: new RegExp(`^${tool}\\b`) }).click();
  for (const [field, value] of Object.entries(args)) await page.locator(`#arg-${field}`).fill(value);
  const pane = page.locator('[data-call]');
  const next = String(Number(await pane.getAttribute('data-call')) + 1);
  const t0 = performance.now();
  await page.getByRole('button', { name: `Call ${tool}` }).click();
  await page.waitForFunction((n) => document.querySelector('[data-call]')?.getAttribute('data-call') === n, next, {
    timeout: WAIT_MS,
    polling: 'raf',
  });
  const took = performance.now() - t0;
  return { ms: took, text: await page.getByTestId('result-text').innerText() };
}

async function measure(browser: Browser, origin: string): Promise<BenchRow[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    // Worker requests are the context's: Pyodide's files are fetched by the engine worker.
    let wire = 0;
    let files = 0;
    context.on('requestfinished', (r) => {
      if (!/pyodide|python_stdlib/.test(r.url())) return;
      files++;
      void r.sizes().then((s) => (wire += s.responseBodySize + s.responseHeadersSize));
    });
    await page.goto(`${origin}/#/console`);
    await page.locator('button.card', { hasText: 'ws_read' }).first().waitFor({ timeout: WAIT_MS });
    for (const [path, content] of fixtureFiles()) await call(page, 'ws_write', { path, content });
    const first = await call(page, 'ws_shell', { command: 'python3 calc.py', timeout_ms: String(WAIT_MS - 10_000) });
    if (!first.text.includes('[exit code 0]')) throw new Error(`python3 calc.py failed: ${first.text.slice(0, 200)}`);
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // As a person or a model would: a moment between runs, so the worker started ahead is ready.
      await page.waitForTimeout(5000);
      const r = await call(page, 'ws_shell', { command: UNITTEST, timeout_ms: String(WAIT_MS - 10_000) });
      if (!/Ran 8 tests/.test(r.text)) throw new Error(`the unittest run gave no tally: ${r.text.slice(0, 200)}`);
      runs.push(r.ms);
    }
    const cpython = hostRun();
    return [
      {
        figure: 'first python3 of a page: click → result (Pyodide fetched and started)',
        ours: ms(first.ms),
        baseline: `${files} files, ${(wire / 2 ** 20).toFixed(1)} MiB on the wire`,
      },
      {
        figure: `${UNITTEST} (8 tests) once loaded: click → result`,
        ours: timingCell(summarize(runs)),
        baseline: cpython,
      },
    ];
  } finally {
    await context.close();
  }
}

/** The same unittest run by this machine's CPython, directly on the fixture: the baseline. */
function hostRun(): string {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync('python3', ['-B', '-m', 'unittest', 'discover', '-s', 'tests'], { cwd: FIXTURE });
    if (r.error) return 'no python3 on this machine';
    times.push(performance.now() - t0);
  }
  return `${ms(summarize(times).median)} (this machine's CPython)`;
}

/** The section; registered in bench/main.ts. Skipped, with the reason printed, when Chromium is missing. */
export function pythonSection(): BenchSectionDef {
  return {
    title: TITLE,
    async run(): Promise<BenchSection> {
      const unit = `ms; the unittest row is the median / p90 of ${RUNS} runs`;
      if (!existsSync(CHROMIUM))
        return {
          title: TITLE,
          unit,
          rows: [{ figure: 'Python section', ours: `skipped: ${CHROMIUM} is missing`, baseline: '' }],
        };
      const build = await appBuild();
      const preview = await startPreview(build.dir);
      let browser: Browser | null = null;
      try {
        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
        return { title: TITLE, unit, rows: await measure(browser, preview.origin) };
      } finally {
        await browser?.close();
        await preview.stop();
      }
    },
  };
}
