/**
 * End-to-end tests of the built app in real Chromium (Debian's /usr/bin/chromium; Playwright
 * cannot download browsers here). `npm run test:e2e` builds first; the web server below
 * serves that build with `vite preview`, which also sends the COOP/COEP headers.
 */
import { createServer } from 'node:net';
import { defineConfig } from '@playwright/test';

/** A TCP port nothing listens on now, as the system hands one out. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

// E2E_PORT / E2E_DIST let several builds be tested side by side (defaults: a free port, dist), so a
// server already on 4173 (a person's own `npm run preview`) does not stop the run. The port chosen
// is kept in the environment: the test workers read this file again and must find the same server.
process.env.E2E_PORT ??= String(await freePort());
const PORT = Number(process.env.E2E_PORT);
const DIST = process.env.E2E_DIST ?? 'dist';

export default defineConfig({
  testDir: 'e2e',
  // Failure traces and the specs' screenshots land here (git-ignored; CI keeps it as an artifact).
  outputDir: `test-results/playwright${DIST === 'dist' ? '' : `-${DIST}`}`,
  // The machine's two cores are shared: one browser at a time.
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    baseURL: `http://localhost:${PORT}`,
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 720 },
    // Each run launches a new browser with a fresh temporary profile (no persistent context).
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  webServer: {
    command: `npx vite preview --port ${PORT} --strictPort --outDir ${DIST}`,
    url: `http://localhost:${PORT}`,
    reuseExistingServer: false,
    timeout: 60_000,
  },
});
