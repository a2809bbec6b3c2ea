/**
 * CommonJS in the tab's sandbox frame, in real Chromium: a project whose package.json has no
 * "type" (CommonJS by Node's rules) runs `node main.js`, which require()s a sibling file, as a
 * classic script (sloppy mode, loaded at once, as Node's wrapper is) under the frame's policy,
 * which refuses eval (the program's own new Function is refused, and says why). The program's fetch to a loopback listener this spec starts reaches
 * nothing (the listener counts every connection), and `node loop.js` ends at the timeout.
 */
import { listen } from './loopback-listener.ts';
import type { Page } from '@playwright/test';
import { argField, callTool, expect, openConsole, screenshot, test, toolCard } from './console.ts';

const notes = (page: Page) => page.getByRole('list', { name: 'Notes' });

const LIB = `'use strict';
exports.twice = (n) => n * 2;
exports.where = __filename;
`;

/** The entry: no 'use strict', so a plain call's \`this\` is the global object, as in Node. */
function main(port: number): string {
  return `const { twice, where } = require('./lib');
const cached = require('./lib.js') === require('./lib');
function mode() { return this === undefined ? 'strict' : 'sloppy'; }
console.log('twice', twice(21), 'from', where, 'cached', cached, 'mode', mode());
console.log('module.exports is this:', module.exports === this);
try {
  new Function('return 1')();
  console.log('new Function ran');
} catch (e) {
  console.log('new Function refused:', e.name);
}
fetch('http://127.0.0.1:${port}/cjs').then(
  () => console.log('fetch reached the listener'),
  (e) => console.log('fetch failed:', e.name),
);
`;
}

test('a CommonJS project runs in the sandbox frame: require() of a sibling, no network, the loop ends at the timeout', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const listener = await listen();
  try {
    await openConsole(page);
    await callTool(page, 'ws_read', { path: 'package.json' });
    await callTool(page, 'ws_write', {
      path: 'package.json',
      content: JSON.stringify({ name: 'cjs', version: '1.0.0', scripts: { test: 'node --test' } }),
    });
    await callTool(page, 'ws_write', { path: 'lib.js', content: LIB });
    await callTool(page, 'ws_write', { path: 'main.js', content: main(listener.port) });
    const run = await callTool(page, 'ws_shell', { command: 'node main.js', timeout_ms: '20000' });
    await expect(run).toContainText('twice 42 from /ws/lib.js cached true mode sloppy');
    await expect(run).toContainText('module.exports is this: true');
    await expect(run).toContainText('fetch failed: TypeError');
    // The program's own code from a string is still refused, and the result says why.
    await expect(run).toContainText('new Function refused: EvalError');
    await expect(run).toContainText('sandbox: code built from a string (eval, new Function) was blocked (script-src)');
    await expect(page.getByTestId('result-status')).toHaveText('ok');
    expect(listener.connections()).toBe(0);
    await screenshot(page, 'sandbox-commonjs-01-require');

    // An infinite loop in a CommonJS file ends at the timeout, with the worker terminated.
    await callTool(page, 'ws_write', { path: 'loop.js', content: 'for (;;) {}\n' });
    await toolCard(page, 'ws_shell').click();
    await argField(page, 'command').fill('node loop.js');
    await argField(page, 'timeout_ms').fill('3000');
    const pane = page.locator('[data-call]');
    const next = Number(await pane.getAttribute('data-call')) + 1;
    await page.getByRole('button', { name: 'Call ws_shell' }).click();
    await expect(pane).toHaveAttribute('data-call', String(next), { timeout: 60_000 });
    await expect(page.getByTestId('result-status')).toHaveText('failed');
    await expect(notes(page)).toContainText(/killed after \d+ ms \(the sandbox worker was terminated\)/);
    expect(listener.connections()).toBe(0);
  } finally {
    await new Promise((resolve) => listener.server.close(resolve));
  }
});
