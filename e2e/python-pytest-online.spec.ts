/**
 * `pytest` in the tab when Pyodide's package index is reachable, in Chromium against the built
 * app: the page (its engine worker), never the sandbox frame, fetches the wheels, checks each
 * against the lock's sha256, and hands them to the Python worker, which installs them. The index
 * here is a loopback HTTP server this spec starts; it serves a TEST STAND-IN for pytest's wheel
 * (tests/support/stand-in-wheel.ts: a small module named `pytest` that runs `test_*` functions and
 * prints a pytest-shaped summary line; it is not pytest), and the page is given a lock entry for it
 * (`window.slmcodePackageIndex`), so the sha256 check really runs. The server counts every request:
 * only the page's one wheel fetch may reach it, even when a test the stand-in runs tries urlopen.
 */
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { Page } from '@playwright/test';
import { standInPytest, STAND_IN_WHEEL } from '../tests/support/stand-in-wheel.ts';
import { callSlowly, expect, openConsole, screenshot, test } from './console.ts';

/** Starting Pyodide takes seconds, and tens of seconds on a loaded machine. */
const SLOW_MS = 150_000;

/** The loopback index: the stand-in's wheel at /good/, a byte of it changed at /tampered/; every request is kept. */
async function startIndex(): Promise<{ server: Server; base: string; requests: IncomingMessage[] }> {
  const good = standInPytest().bytes;
  const tampered = good.slice();
  tampered.set([tampered.at(-30)! ^ 1], tampered.length - 30);
  const requests: IncomingMessage[] = [];
  const server = createServer((req, res) => {
    requests.push(req);
    const body =
      req.url === `/good/${STAND_IN_WHEEL}` ? good : req.url === `/tampered/${STAND_IN_WHEEL}` ? tampered : null;
    res.writeHead(body ? 200 : 404, { 'Access-Control-Allow-Origin': '*', 'Content-Type': 'application/octet-stream' });
    res.end(body ?? 'not here');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}`, requests };
}

/** Names the index (and the stand-in's lock entry) to the page before it loads, as main.ts reads it. */
async function useIndex(page: Page, baseUrl: string): Promise<void> {
  await page.addInitScript((index) => Object.assign(window, { slmcodePackageIndex: index }), {
    baseUrl,
    lock: standInPytest().lock,
  });
}

const notes = (page: Page) => page.getByRole('list', { name: 'Notes' });
const slowCall = (page: Page, name: string, args: Record<string, string>) => callSlowly(page, name, args, SLOW_MS);

let index: Awaited<ReturnType<typeof startIndex>>;
test.beforeEach(async () => {
  index = await startIndex();
});
test.afterEach(() => new Promise<void>((resolve) => index.server.close(() => resolve())));

test('pytest: the page fetches and verifies the wheel, Python installs it, the frame reaches nothing', async ({
  page,
}) => {
  test.setTimeout(600_000);
  await useIndex(page, `${index.base}/good/`);
  await openConsole(page);
  await slowCall(page, 'ws_write', { path: 'calc.py', content: 'def add(a, b):\n    return a + b\n' });
  await slowCall(page, 'ws_write', {
    path: 'tests/test_calc.py',
    content: [
      'import urllib.request',
      'from calc import add',
      '',
      'def test_add():',
      '    assert add(1, 2) == 3',
      '',
      'def test_wrong():',
      '    assert add(2, 2) == 5',
      '',
      'def test_no_network():',
      '    try:',
      `        urllib.request.urlopen(${JSON.stringify(`${index.base}/from-the-frame`)}, timeout=5)`,
      '    except Exception:',
      '        return',
      '    raise AssertionError("the sandbox reached the index")',
      '',
    ].join('\n'),
  });
  const run = await slowCall(page, 'ws_shell', { command: 'pytest tests', timeout_ms: String(SLOW_MS - 10_000) });
  await expect(run).toContainText('pytest test stand-in');
  await expect(run).toContainText('FAILED tests/test_calc.py::test_wrong - AssertionError');
  await expect(run).toContainText(/==== 1 failed, 2 passed in [\d.]+s ====/);
  await expect(notes(page)).toContainText('test tally: 2 passed, 1 failed');
  await expect(notes(page)).toContainText(
    "pytest from Pyodide's package index (1 wheel, each checked against its lock)",
  );
  await screenshot(page, 'pytest-online-01-run');

  // A second run uses the page's copy: nothing more is fetched.
  const again = await slowCall(page, 'ws_shell', {
    command: 'python3 -m pytest tests',
    timeout_ms: String(SLOW_MS - 10_000),
  });
  await expect(again).toContainText(/==== 1 failed, 2 passed in [\d.]+s ====/);

  // One request reached the index: the page's wheel fetch (its origin is the page's; the frame's would be opaque).
  expect(index.requests.map((r) => r.url)).toEqual([`/good/${STAND_IN_WHEEL}`]);
  expect(index.requests[0]!.headers.origin).toBe(new URL(page.url()).origin);
});

test('pytest: a wheel that does not match the lock is refused and nothing runs', async ({ page }) => {
  test.setTimeout(300_000);
  await useIndex(page, `${index.base}/tampered/`);
  await openConsole(page);
  await slowCall(page, 'ws_write', { path: 'tests/test_a.py', content: 'def test_a():\n    assert True\n' });
  const run = await slowCall(page, 'ws_shell', { command: 'pytest', timeout_ms: String(SLOW_MS - 10_000) });
  await expect(run).toContainText(`${STAND_IN_WHEEL} was refused: the download did not match the lock`);
  await expect(run).not.toContainText('stand-in');
  await expect(run).toContainText('[exit code 1]');
  expect(index.requests.map((r) => r.url)).toEqual([`/tampered/${STAND_IN_WHEEL}`]);
});
