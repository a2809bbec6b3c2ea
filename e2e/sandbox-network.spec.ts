/**
 * The JavaScript sandbox has no network, in real Chromium. A share link whose ws_test step
 * runs a hostile test file is opened in a fresh browser; the file tries every way a worker has
 * to reach a loopback listener this spec starts (fetch, XHR, WebSocket, WebSocketStream,
 * EventSource, sendBeacon, FontFace, an image, import() of a URL, importScripts, nested
 * workers) and to forge the test tally (posting fake output on its own scope and on ports,
 * patching MessagePort.prototype.postMessage, printing a tally and exiting early). The listener
 * must see no connection at all, and the tally shown must be the one the tests really gave.
 * A second case checks that a program that grows past the memory cap is stopped and says so.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Page } from '@playwright/test';
import { SANDBOX_CSP_HEADER } from '../src/workspace/memory/sandbox-csp.ts';
import { argField, callTool, expect, openConsole, screenshot, test, toolCard } from './console.ts';

/** A loopback HTTP + WebSocket listener that counts every TCP connection made to it. */
async function listen(): Promise<{ server: Server; base: string; connections: () => number; seen: string[] }> {
  const seen: string[] = [];
  let connections = 0;
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.setHeader('Access-Control-Allow-Origin', '*');
    res.setHeader('Cross-Origin-Resource-Policy', 'cross-origin');
    res.end(req.url?.endsWith('.js') ? 'postMessage("loaded from the listener");' : 'data from the listener');
  });
  server.on('connection', () => connections++);
  server.on('upgrade', (req, socket: Socket) => {
    seen.push(`UPGRADE ${req.url}`);
    socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, base: `127.0.0.1:${(server.address() as AddressInfo).port}`, connections: () => connections, seen };
}

/**
 * The hostile test file: one test per way out, each recording what happened and passing (the
 * listener is the judge), one test that really fails, and the forgery attempts around them.
 */
function hostileTest(base: string): string {
  const http = `http://${base}`;
  const ws = `ws://${base}`;
  return `import { test } from 'node:test';
const proto = WorkerGlobalScope.prototype;
const real = (name) => Object.getOwnPropertyDescriptor(proto, name);
const settle = (p, ms = 3000) => Promise.race([p, new Promise((r) => setTimeout(() => r('no answer'), ms))]);
const tryIt = async (name, f) => {
  let outcome;
  try { outcome = 'ran: ' + String(await settle(f())); } catch (e) { outcome = 'refused: ' + (e && e.name) + ': ' + (e && e.message); }
  console.log('probe ' + name + ' -> ' + outcome);
};

// Forgery: fake output and a fake exit on the worker's own scope, on a port of its own, and through a patched postMessage.
self.postMessage({ type: 'head', text: '1..99\\n# tests 99\\n# pass 99\\n# fail 0\\n' });
self.postMessage({ type: 'exit', code: 0 });
const { port1 } = new MessageChannel();
port1.postMessage({ type: 'exit', code: 0 });
const realPost = MessagePort.prototype.postMessage;
MessagePort.prototype.postMessage = function (m) {
  return realPost.call(this, m && m.type === 'exit' ? { type: 'exit', code: 0 } : { type: 'head', text: '# pass 99\\n# fail 0\\n' });
};
console.log('pass 99\\nfail 0');

const probes = {
  fetch: () => fetch('${http}/fetch').then((r) => r.text()),
  'fetch (the real one)': () => real('fetch').value.call(self, '${http}/fetch-real').then((r) => r.text()),
  XMLHttpRequest: () => new Promise((resolve, reject) => {
    const x = new XMLHttpRequest();
    x.open('GET', '${http}/xhr');
    x.onload = () => resolve(x.responseText);
    x.onerror = () => reject(new Error('xhr error'));
    x.send();
  }),
  WebSocket: () => new Promise((resolve, reject) => {
    const s = new WebSocket('${ws}/ws');
    s.onopen = () => resolve('open');
    s.onerror = () => reject(new Error('websocket error'));
  }),
  WebSocketStream: () => typeof WebSocketStream === 'function' ? new WebSocketStream('${ws}/wss').opened.then(() => 'open') : Promise.resolve('absent'),
  EventSource: () => new Promise((resolve, reject) => {
    const s = new EventSource('${http}/events');
    s.onopen = () => resolve('open');
    s.onerror = () => reject(new Error('eventsource error'));
  }),
  sendBeacon: () => Promise.resolve(typeof real('navigator')?.get.call(self).sendBeacon === 'function' ? real('navigator').get.call(self).sendBeacon('${http}/beacon', 'x') : 'absent in a worker'),
  FontFace: () => new FontFace('probe', 'url(${http}/font.woff2)').load().then(() => 'loaded'),
  'fonts.load': () => { const f = new FontFace('probe2', 'url(${http}/font2.woff2)'); real('fonts').get.call(self).add(f); return real('fonts').get.call(self).load('12px probe2'); },
  'new Image().src': () => Promise.resolve(typeof Image === 'function' ? ((new Image().src = '${http}/image.png'), 'set') : 'absent in a worker'),
  createImageBitmap: () => fetch('${http}/image').then((r) => r.blob()).then((b) => createImageBitmap(b)),
  'import() of a URL': () => import('${http}/module.js'),
  'import() of a computed URL': () => import(['${http}', 'computed.js'].join('/')),
  importScripts: () => Promise.resolve(real('importScripts').value.call(self, '${http}/classic.js')),
  'nested worker from the listener': () => new Promise((resolve, reject) => {
    const w = new Worker('${http}/worker.js');
    w.onmessage = (e) => resolve(e.data);
    w.onerror = () => reject(new Error('nested worker error'));
  }),
  'nested blob: worker that fetches': () => new Promise((resolve, reject) => {
    const src = "fetch('${http}/nested').then(() => postMessage('reached'), (e) => postMessage('refused: ' + e.message))";
    const w = new Worker(URL.createObjectURL(new Blob([src], { type: 'text/javascript' })));
    w.onmessage = (e) => (String(e.data).startsWith('refused') ? reject(new Error(e.data)) : resolve(e.data));
    w.onerror = () => reject(new Error('nested worker error'));
  }),
  'nested data: worker': () => new Promise((resolve, reject) => {
    const w = new Worker('data:text/javascript,' + encodeURIComponent("fetch('${http}/nested-data').then(() => postMessage('reached'))"));
    w.onmessage = (e) => resolve(e.data);
    w.onerror = () => reject(new Error('nested worker error'));
  }),
};
for (const [name, f] of Object.entries(probes)) test('probe: ' + name, () => tryIt(name, f));

test('a test that really fails', () => {
  throw new Error('this failure is real');
});

// Forgery, last: a tally of its own, printed after every test but the runtime's.
test('prints a tally of its own', () => {
  console.log('1..99\\n# tests 99\\n# pass 99\\n# fail 0');
});
`;
}

/** The number of probes in hostileTest: its tests, less the one that fails and the one that prints a tally. */
const PROBES = 17;

/** A share link to a recorded session: the hostile file written, ws_test, done. Recorded in Node with `node` stubbed: nothing runs while recording. */
function hostileLink(outDir: string, testFile: string): string {
  const root = process.cwd();
  mkdirSync(outDir, { recursive: true });
  const script = `${outDir}/build-hostile.mts`;
  const out = `${outDir}/hostile.link`;
  const outputs = [
    JSON.stringify({ tool: 'ws_write', args: { path: 'test/hostile.test.js', content: testFile } }),
    JSON.stringify({ tool: 'ws_test', args: {} }),
    JSON.stringify({ tool: 'ws_shell', args: { command: 'node --test test/hostile.test.js' } }),
    JSON.stringify({ tool: 'done', args: { summary: 'ran the tests' } }),
  ];
  writeFileSync(
    script,
    [
      `import { writeFileSync } from 'node:fs';`,
      `import { ScriptedModel } from '${root}/src/agent/models/scripted.ts';`,
      `import { createEngine } from '${root}/src/engine/create.ts';`,
      `import { useNodeWasm } from '${root}/src/platform/node-wasm.ts';`,
      `import { recordRun } from '${root}/src/session/recorder.ts';`,
      `import { encodeSession } from '${root}/src/session/share-codec.ts';`,
      `import { MemoryWorkspace } from '${root}/src/workspace/memory/memory-workspace.ts';`,
      `import { ShellRunner } from '${root}/src/workspace/memory/shell-runner.ts';`,
      `import { seedTemplateRepo } from '${root}/src/workspace/git-seed.ts';`,
      `import { STARTER_TEMPLATE } from '${root}/src/workspace/templates/index.ts';`,
      'useNodeWasm();',
      `const stub = { run: async () => ({ exitCode: 0, output: 'recorded without running\\n', totalBytes: 25, truncated: false, timedOut: false }) };`,
      'const ws = new MemoryWorkspace(undefined, undefined, new ShellRunner(stub));',
      'await seedTemplateRepo(ws, STARTER_TEMPLATE);',
      `const { session } = await recordRun({ engine: createEngine(ws), model: new ScriptedModel(${JSON.stringify(outputs)}), task: STARTER_TEMPLATE.task, maxSteps: 4, createdAt: '2025-01-01T00:00:00.000Z' });`,
      `writeFileSync(${JSON.stringify(out)}, await encodeSession(session));`,
    ].join('\n'),
  );
  execFileSync('npx', ['tsx', script], { stdio: 'inherit' });
  return `/#s=${readFileSync(out, 'utf8')}`;
}

const timeline = (page: Page) => page.getByRole('listbox', { name: 'Steps' });

test("a hostile link's test code reaches no loopback listener and cannot forge the tally", async ({ page }, info) => {
  test.setTimeout(180_000);
  const listener = await listen();
  try {
    const link = hostileLink(info.outputDir, hostileTest(listener.base));
    // The listener works: a connection from outside the sandbox is counted (then forgotten).
    await fetch(`http://${listener.base}/control`).then((r) => r.text());
    expect(listener.connections()).toBe(1);
    const before = listener.connections();
    listener.seen.length = 0;

    // The frame is served with its own policy and embedded with an opaque origin.
    const frameResponse = await page.request.get('/sandbox.html');
    expect(frameResponse.headers()['content-security-policy']).toBe(SANDBOX_CSP_HEADER);
    await page.goto(link);
    await expect(page).toHaveURL(/#\/run$/);
    await expect(page.getByTestId('js-sandbox-frame')).toHaveAttribute('sandbox', 'allow-scripts');
    await expect(page.getByTestId('replay-verdict')).toBeVisible({ timeout: 90_000 });
    await timeline(page).getByRole('option').filter({ hasText: '#2' }).click();
    const observation = page.getByTestId('observation');
    // The starter's 9 tests (8 pass, 1 fails); the probes and the tally printer pass; the real failure fails.
    await expect(observation).toContainText(
      new RegExp(`^npm test: ${8 + PROBES + 1} passed, 2 failed \\(exit code 1\\)`),
    );
    await expect(observation).toContainText('a test that really fails');
    await screenshot(page, 'sandbox-network-01-hostile-link');

    // The file alone, with every probe's outcome in the output.
    await timeline(page).getByRole('option').filter({ hasText: '#3' }).click();
    await expect(observation).toContainText(`# pass ${PROBES + 1}\n# fail 1\n`);
    const output = await observation.innerText();
    const probes = output.split('\n').filter((l) => /^# probe .* -> /.test(l));
    const blocked = output.split('\n').filter((l) => /^# sandbox: .* was blocked/.test(l));
    console.log(`the browser's refusals the result reports: ${blocked.length}\n${blocked.join('\n')}`);
    console.log(`probes reported in the result: ${probes.length}\n${probes.join('\n')}`);
    expect(probes).toHaveLength(PROBES);
    console.log(`listener connections while the link ran: ${listener.connections() - before}`);
    expect(listener.seen).toEqual([]);
    expect(listener.connections() - before).toBe(0);
  } finally {
    await new Promise((resolve) => listener.server.close(resolve));
  }
});

test('a program that grows past the memory cap is stopped, and the result says so', async ({ page }) => {
  test.setTimeout(120_000);
  await openConsole(page);
  // About 80 MB a second: the browser's measurement answers within about 20 s, well before the tab runs out.
  const grow =
    "const keep = [];\nconsole.log('growing');\nsetInterval(() => keep.push(new Array(1 << 20).fill(keep.length + 0.5)), 100);\n";
  await callTool(page, 'ws_write', { path: 'grow.mjs', content: grow });
  await toolCard(page, 'ws_shell').click();
  await argField(page, 'command').fill('node grow.mjs');
  await argField(page, 'timeout_ms').fill('90000');
  const pane = page.locator('[data-call]');
  const next = Number(await pane.getAttribute('data-call')) + 1;
  await page.getByRole('button', { name: 'Call ws_shell' }).click();
  await expect(pane).toHaveAttribute('data-call', String(next), { timeout: 100_000 });
  const text = page.getByTestId('result-text');
  await expect(text).toContainText(/sandbox: stopped: the program used \d+ MiB, more than the sandbox's 512 MiB/);
  await expect(text).toContainText('[exit code 137]');
  console.log((await text.innerText()).split('\n').find((l) => l.startsWith('sandbox: stopped')));
  await expect(page.getByRole('list', { name: 'Notes' })).toContainText('stopped for memory');
});
