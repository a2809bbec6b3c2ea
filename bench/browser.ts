/**
 * The built app in headless Chromium (Debian's /usr/bin/chromium through Playwright),
 * served by `vite preview` on a free port: time to first render of the start screen, of an
 * example session opened from it, and of the tool console, each the median of fresh page loads
 * (a new browser context each, so nothing is cached), beside a blank static page served by the
 * same server; and a 100-step session replayed and checked in the page (the session file picked
 * on the start screen until every step shows ✓), beside the same replay in Node.
 *
 * Times are read inside the page (`performance.now()`, from the start of navigation, or from
 * the click or the pick), on the first animation frame where the awaited element is there, by a
 * watcher installed before the page's first script and read over the DevTools protocol.
 */
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { chromium, type Browser, type CDPSession, type Page } from '@playwright/test';
import { replaySession } from '../src/session/replay.ts';
import { parseSessionFile } from '../src/session/share-codec.ts';
import { buildExample, exampleFileText, hundredStepScript } from '../scripts/make-examples.ts';
import { appBuild } from './build.ts';
import { startPreview } from './preview.ts';
import { ms, summarize, timeRuns, timingCell, type Timing } from './stats.ts';
import type { BenchRow, BenchSection, BenchSectionDef } from './table.ts';

const CHROMIUM = '/usr/bin/chromium';
const ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const LOADS = 9;
const REPLAYS = 3;
const REPLAY_MS = 2000;
/** Issue 16: the start screen lists its task choices within this, median of the fresh loads. */
const TASK_CHOICES_MS = 500;
const WAIT_MS = 30_000;
/** The example opened from the start screen (examples/thirty-steps.session.json). */
const EXAMPLE = { button: 'Thirty steps on tiny-utils', steps: 30 };
/** The baseline page, written into the build's outDir: one line of text, so it has a first contentful paint. */
const BLANK = {
  file: 'bench-blank.html',
  html: '<!doctype html><html lang="en"><head><meta charset="utf-8"><title>blank</title></head><body><p>blank</p></body></html>\n',
};

const TITLE = 'the built app in headless Chromium (vite preview)';

/** What the in-page watcher records: its name, the element, and the text it must start with. */
interface Watch {
  readonly name: string;
  readonly selector: string;
  readonly prefix: string;
  /** Also record, as `<name>-painted`, when the element is first painted (Element Timing's renderTime). */
  readonly painted?: boolean;
}

/**
 * Installed in the page before its first script (an init script): on every animation frame it
 * records, in `window.__bench`, the `performance.now()` at which each watched element is first
 * there (and, for a watch marked `painted`, when it is first painted: it gets an `elementtiming`
 * attribute as it is inserted); it records the first contentful paint and the moment a session
 * file is picked too.
 * Playwright's own page script is never needed to time a row: injected while the app loads, it
 * took the page's main thread for 50–170 ms and showed up in every figure. Plain JavaScript in a
 * string, so nothing the TypeScript loader adds to a function reaches the page.
 */
const WATCHER = (watches: readonly Watch[]): string => `(() => {
  if (window !== window.top) return;
  const watches = ${JSON.stringify(watches)};
  const times = (window.__bench = {});
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) if (e.name === 'first-contentful-paint') times.fcp ??= e.startTime;
  }).observe({ type: 'paint', buffered: true });
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) times[e.identifier + '-painted'] ??= e.renderTime || e.loadTime;
  }).observe({ type: 'element', buffered: true });
  new MutationObserver(() => {
    for (const w of watches) {
      if (!w.painted) continue;
      // Element Timing times the text of an element's own text nodes: the element and all it holds are marked.
      for (const el of document.querySelectorAll(w.selector)) {
        if (!(el.textContent ?? '').trim().startsWith(w.prefix)) continue;
        for (const t of [el, ...el.querySelectorAll('*')]) if (!t.hasAttribute('elementtiming')) t.setAttribute('elementtiming', w.name);
      }
    }
  }).observe(document, { subtree: true, childList: true });
  document.addEventListener('change', (e) => {
    if (e.target?.dataset?.testid === 'session-file-input') times.picked ??= performance.now();
  }, true);
  const tick = () => {
    for (const w of watches) {
      if (times[w.name] === undefined && [...document.querySelectorAll(w.selector)].some((el) => (el.textContent ?? '').trim().startsWith(w.prefix))) times[w.name] = performance.now();
    }
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})();`;

/** Evaluates `expression` in the page over the DevTools protocol, so nothing of Playwright's is injected. */
async function evaluate(cdp: CDPSession, expression: string): Promise<unknown> {
  const r = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
  if (r.exceptionDetails)
    throw new Error(`in the page: ${r.exceptionDetails.exception?.description ?? r.exceptionDetails.text}`);
  return r.result.value;
}

/** Resolves to the time the watcher recorded under `name`, polling every 20 ms from outside the page. */
async function recorded(cdp: CDPSession, name: string): Promise<number> {
  const until = Date.now() + WAIT_MS;
  for (;;) {
    const at = await evaluate(cdp, `window.__bench?.[${JSON.stringify(name)}] ?? null`);
    if (typeof at === 'number') return at;
    if (Date.now() > until) throw new Error(`${name} was not seen within ${WAIT_MS} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Clicks the button whose text starts with `text`; resolves to `performance.now()` just before the click. */
async function clickAt(cdp: CDPSession, selector: string, text: string): Promise<number> {
  const at = await evaluate(
    cdp,
    `(() => {
      const button = [...document.querySelectorAll(${JSON.stringify(selector)})].find((b) => (b.textContent ?? '').trim().startsWith(${JSON.stringify(text)}));
      if (!button) throw new Error(${JSON.stringify(`no ${selector} reading "${text}" on the page`)});
      const at = performance.now();
      button.click();
      return at;
    })()`,
  );
  return at as number;
}

/** A page in a fresh context (its own empty cache and storage) with the watcher installed; page errors go to `errors`. */
async function withPage<T>(
  browser: Browser,
  errors: string[],
  use: (page: Page, cdp: CDPSession) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext();
  try {
    await context.addInitScript({ content: WATCHER(WATCHES) });
    const page = await context.newPage();
    page.on('pageerror', (e) => errors.push(`page error at ${page.url()}: ${e.message}`));
    return await use(page, await context.newCDPSession(page));
  } finally {
    await context.close();
  }
}

// The start screen is ready when its task choices are listed, the starter checked (they come with
// the page; the engine worker is still loading then: the tool console's row waits for it).
const START_READY = 'label.choice:has(input[type="radio"]:checked)';
const VERDICT = '[data-testid="replay-verdict"]';
const WATCHES: readonly Watch[] = [
  { name: 'start', selector: START_READY, prefix: 'tiny-utils', painted: true },
  { name: 'step', selector: '[data-testid="timeline"] [role="option"]', prefix: '' },
  { name: 'example', selector: VERDICT, prefix: `✓ Reproduced: all ${EXAMPLE.steps} replayed steps` },
  { name: 'hundred', selector: VERDICT, prefix: '✓ Reproduced: all 100 replayed steps' },
  { name: 'console', selector: 'button.card', prefix: 'ws_read' },
];

interface Load {
  readonly blank: number;
  readonly appPaint: number;
  readonly startReady: number;
  readonly startPainted: number;
  readonly exampleFirstStep: number;
  readonly exampleVerified: number;
  readonly consoleReady: number;
}

async function oneLoad(browser: Browser, origin: string, errors: string[]): Promise<Load> {
  const blank = await withPage(
    browser,
    errors,
    async (page, cdp) => (await page.goto(`${origin}/${BLANK.file}`, { waitUntil: 'commit' }), recorded(cdp, 'fcp')),
  );
  const app = await withPage(browser, errors, async (page, cdp) => {
    await page.goto(`${origin}/`, { waitUntil: 'commit' });
    const startReady = await recorded(cdp, 'start');
    const startPainted = await recorded(cdp, 'start-painted');
    const appPaint = await recorded(cdp, 'fcp');
    const clicked = await clickAt(cdp, 'button.entry', EXAMPLE.button);
    const firstStep = await recorded(cdp, 'step');
    const verified = await recorded(cdp, 'example');
    return {
      appPaint,
      startReady,
      startPainted,
      exampleFirstStep: firstStep - clicked,
      exampleVerified: verified - clicked,
    };
  });
  const consoleReady = await withPage(
    browser,
    errors,
    async (page, cdp) => (await page.goto(`${origin}/#/console`, { waitUntil: 'commit' }), recorded(cdp, 'console')),
  );
  return { blank, ...app, consoleReady };
}

/** The 100-step session picked as a file on a fresh start screen, until every step is ✓; ms from the pick (in the page) to the verdict, and the worker's own figure. */
async function oneReplay(
  browser: Browser,
  origin: string,
  file: string,
  errors: string[],
): Promise<{ ms: number; worker: string }> {
  return withPage(browser, errors, async (page, cdp) => {
    await page.goto(`${origin}/`, { waitUntil: 'commit' });
    await recorded(cdp, 'start');
    await page.setInputFiles('[data-testid="session-file-input"]', file);
    const verified = await recorded(cdp, 'hundred').catch(async (e: unknown) => {
      const verdict = (await page.textContent(VERDICT).catch(() => null))?.trim();
      throw verdict ? new Error(`the replay ended: ${verdict}`) : e;
    });
    return {
      ms: verified - (await recorded(cdp, 'picked')),
      worker: (await page.getAttribute(VERDICT, 'title')) ?? '',
    };
  });
}

const pick = (loads: readonly Load[], k: keyof Load): Timing => summarize(loads.map((l) => l[k]));

async function measure(
  browser: Browser,
  origin: string,
  sessionFile: string,
  sessionText: string,
  errors: string[],
): Promise<BenchRow[]> {
  const loads: Load[] = [];
  for (let i = 0; i < LOADS; i++) loads.push(await oneLoad(browser, origin, errors));
  const blank = `${timingCell(pick(loads, 'blank'))} (blank page, first paint)`;
  const rows: BenchRow[] = [
    { figure: 'start screen: first contentful paint', ours: timingCell(pick(loads, 'appPaint')), baseline: blank },
    {
      figure: 'start screen: task choices shown (in the page at an animation frame)',
      ours: timingCell(pick(loads, 'startReady')),
      baseline: blank,
      target: { text: `≤ ${TASK_CHOICES_MS} ms median`, met: pick(loads, 'startReady').median <= TASK_CHOICES_MS },
    },
    {
      figure: 'start screen: task choices painted (Element Timing)',
      ours: timingCell(pick(loads, 'startPainted')),
      baseline: blank,
    },
    {
      figure: `example (${EXAMPLE.steps} steps): first step, from the click`,
      ours: timingCell(pick(loads, 'exampleFirstStep')),
      baseline: '',
    },
    {
      figure: `example (${EXAMPLE.steps} steps): all ✓, from the click`,
      ours: timingCell(pick(loads, 'exampleVerified')),
      baseline: '',
    },
    { figure: 'tool console: tool cards shown', ours: timingCell(pick(loads, 'consoleReady')), baseline: blank },
  ];

  const replays: { ms: number; worker: string }[] = [];
  const replayFigure = 'replay + verify 100 steps: file picked → all ✓';
  try {
    for (let i = 0; i < REPLAYS; i++) replays.push(await oneReplay(browser, origin, sessionFile, errors));
  } catch (e) {
    // The load rows above stand on their own; the replay row says why it has no figure.
    rows.push({
      figure: replayFigure,
      ours: e instanceof Error ? e.message.split('\n')[0]! : String(e),
      baseline: '',
      target: { text: `< ${REPLAY_MS} ms`, met: false },
    });
    return rows;
  }
  const browserReplay = summarize(replays.map((r) => r.ms));
  // The same session replayed and checked in Node, as the share section does.
  const checked = await parseSessionFile(sessionText);
  if (!checked.ok) throw new Error(`the 100-step session file does not parse: ${checked.text}`);
  const node = await timeRuns(async () => void (await replaySession(checked.session)), { runs: REPLAYS, warmup: 1 });
  const worker = /Replayed in ([\d.]+ m?s)/.exec(replays.at(-1)?.worker ?? '')?.[1];
  rows.push({
    figure: replayFigure,
    ours: `${timingCell(browserReplay)}${worker ? ` (worker: ${worker})` : ''}`,
    baseline: `${ms(node.median)} (Node, same session)`,
    target: { text: `< ${REPLAY_MS} ms`, met: browserReplay.median < REPLAY_MS },
  });
  return rows;
}

/** The section; registered in bench/main.ts. Skipped, with the reason printed, when Chromium is missing. */
export function browserSection(): BenchSectionDef {
  return {
    title: TITLE,
    async run(): Promise<BenchSection> {
      const unit = `ms from navigation (or the click), median / p90 of ${LOADS} fresh loads; replay of ${REPLAYS}`;
      if (!existsSync(CHROMIUM)) {
        return {
          title: TITLE,
          unit,
          rows: [
            {
              figure: 'browser section',
              ours: `skipped: ${CHROMIUM} is missing (apt-get install chromium)`,
              baseline: '',
              target: { text: `replay < ${REPLAY_MS} ms`, met: null },
            },
          ],
        };
      }
      const build = await appBuild();
      // Both files go into the build's directory, which is removed when the bench exits.
      await writeFile(join(build.dir, BLANK.file), BLANK.html);
      const sessionFile = join(build.dir, 'bench-hundred-steps.session.json');
      const sessionText = exampleFileText(await buildExample(hundredStepScript()));
      await writeFile(sessionFile, sessionText);
      const errors: string[] = [];
      const preview = await startPreview(build.dir);
      let browser: Browser | null = null;
      try {
        browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
        const rows = await measure(browser, preview.origin, sessionFile, sessionText, errors);
        return { title: TITLE, unit, rows, details: errors };
      } finally {
        await browser?.close();
        await preview.stop();
      }
    },
  };
}
