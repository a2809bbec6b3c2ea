/**
 * Python in the tab, in headless Chromium (the built app served by `vite preview`): the first
 * `python3` of a fresh page (Pyodide fetched from the app and started in a worker of the sandbox
 * frame) from the click to the result shown, and the bytes it took on the wire beside the page's
 * own first load; then unittest runs of tests/fixtures/python-unittest once Python is loaded (a
 * worker started ahead) and the bytes they fetched. The baselines are the same commands run by
 * this machine's CPython, measured in the same bench run.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from '@playwright/test';
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

/** Bytes on the wire so far: every HTTP request the context finished (workers' fetches included), by phase, as vite preview serves them (uncompressed). */
class Wire {
  phase = 'page';
  readonly bytes = new Map<string, number>();
  readonly files = new Map<string, number>();
  readonly #pending: Promise<void>[] = [];

  constructor(context: BrowserContext) {
    context.on('requestfinished', (r) => {
      // Only what crossed the network: blob: and data: URLs (the sandbox's modules) are made in the page.
      if (!/^https?:/.test(r.url())) return;
      const phase = this.phase;
      this.files.set(phase, (this.files.get(phase) ?? 0) + 1);
      this.#pending.push(
        r.sizes().then((s) => {
          const bytes = Math.max(0, s.responseBodySize) + Math.max(0, s.responseHeadersSize);
          this.bytes.set(phase, (this.bytes.get(phase) ?? 0) + bytes);
        }),
      );
    });
  }

  /** The bytes and files of `phase`, once every size reported so far has arrived. */
  async of(phase: string): Promise<{ bytes: number; files: number }> {
    await Promise.all(this.#pending);
    return { bytes: this.bytes.get(phase) ?? 0, files: this.files.get(phase) ?? 0 };
  }
}

function size(bytes: number): string {
  return bytes >= 2 ** 20 ? `${(bytes / 2 ** 20).toFixed(1)} MiB` : `${(bytes / 1024).toFixed(1)} KiB`;
}

async function measure(browser: Browser, origin: string): Promise<BenchRow[]> {
  const context = await browser.newContext();
  try {
    const page = await context.newPage();
    const wire = new Wire(context);
    await page.goto(`${origin}/#/console`);
    await page.locator('button.card', { hasText: 'ws_read' }).first().waitFor({ timeout: WAIT_MS });
    for (const [path, content] of fixtureFiles()) await call(page, 'ws_write', { path, content });
    wire.phase = 'first';
    const first = await call(page, 'ws_shell', { command: 'python3 calc.py', timeout_ms: String(WAIT_MS - 10_000) });
    if (!/\[exit code 0\]|command succeeded with no output/.test(first.text))
      throw new Error(`python3 calc.py failed: ${first.text.slice(0, 200)}`);
    const runs: number[] = [];
    for (let i = 0; i < RUNS; i++) {
      // As a person or a model would: a moment and another call between runs (the loop guard
      // answers a third identical call in a row instead of running it), so the worker started ahead is ready.
      wire.phase = 'between';
      await page.waitForTimeout(5000);
      await call(page, 'ws_read', { path: 'calc.py' });
      wire.phase = 'unittest';
      const r = await call(page, 'ws_shell', { command: UNITTEST, timeout_ms: String(WAIT_MS - 10_000) });
      if (!/Ran 8 tests/.test(r.text)) throw new Error(`the unittest run gave no tally: ${r.text.slice(0, 200)}`);
      runs.push(r.ms);
    }
    const pageLoad = await wire.of('page');
    const loaded = await wire.of('first');
    const unittest = await wire.of('unittest');
    const host = hostRuns();
    return [
      {
        figure: 'first python3 of a page (python3 calc.py; Pyodide fetched and started): click → result',
        ours: ms(first.ms),
        baseline: host ? `${ms(host.start)} (this machine's CPython: python3 calc.py)` : 'no python3 on this machine',
      },
      {
        figure: 'bytes on the wire for that first python3',
        ours: `${size(loaded.bytes)} (${loaded.files} files)`,
        baseline: `${size(pageLoad.bytes)} (${pageLoad.files} files): the console page's own load, without Python`,
      },
      {
        figure: `${UNITTEST} (8 tests) once loaded: click → result`,
        ours: timingCell(summarize(runs)),
        baseline: host ? `${ms(host.unittest)} (this machine's CPython)` : 'no python3 on this machine',
      },
      {
        figure: `bytes on the wire for those ${RUNS} unittest runs`,
        ours: `${size(unittest.bytes)} (${unittest.files} files)`,
        baseline: "0 B (this machine's CPython reads its library from disk)",
      },
    ];
  } finally {
    await context.close();
  }
}

/** Medians of `runs` runs of `args` by this machine's CPython in the fixture; null when it has none. */
function hostMedian(args: readonly string[]): number | null {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = performance.now();
    const r = spawnSync('python3', ['-B', ...args], { cwd: FIXTURE });
    if (r.error) return null;
    times.push(performance.now() - t0);
  }
  return summarize(times).median;
}

/** The baseline, measured in the same run: the same two commands by this machine's CPython, directly on the fixture. */
function hostRuns(): { start: number; unittest: number } | null {
  const start = hostMedian(['calc.py']);
  const unittest = hostMedian(['-m', 'unittest', 'discover', '-s', 'tests']);
  return start === null || unittest === null ? null : { start, unittest };
}

/** The section; registered in bench/main.ts. Skipped, with the reason printed, when Chromium is missing. */
export function pythonSection(): BenchSectionDef {
  return {
    title: TITLE,
    async run(): Promise<BenchSection> {
      const unit = `ms, or bytes; the unittest row is the median / p90 of ${RUNS} runs, its baseline the median`;
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
