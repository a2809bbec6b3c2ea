import { defineConfig, type Plugin } from 'vitest/config';
import { svelte } from '@sveltejs/vite-plugin-svelte';
import { fileURLToPath } from 'node:url';
import { sandboxCsp } from './src/workspace/memory/sandbox-csp.ts';
import { sandboxExpect } from './src/workspace/memory/expect-bundle.ts';

/** WebContainer needs cross-origin isolation; serve it on dev and preview alike. */
const isolationHeaders = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
};

/**
 * index.html carries the production Content-Security-Policy. The dev server injects component
 * styles inline and talks HMR over a websocket, so only there the policy is relaxed for both.
 */
function devCsp(): Plugin {
  return {
    name: 'slmcode-dev-csp',
    apply: 'serve',
    transformIndexHtml: (html) =>
      html
        .replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
        .replace("connect-src 'self'", "connect-src 'self' ws: wss:"),
  };
}

export default defineConfig({
  // sandboxCsp: the JavaScript sandbox frame's own policy header (src/workspace/memory/sandbox-csp.ts);
  // sandboxExpect: Jest's `expect` bundled for the sandbox's Jest-style runner (expect-bundle.ts).
  plugins: [svelte(), devCsp(), sandboxCsp(), sandboxExpect()],
  resolve: {
    // just-bash's browser bundle imports node:zlib for gzip; the browser gets a stub that says it
    // is unavailable. Tests run in Node, which has the real module, so vitest keeps it.
    alias: process.env.VITEST
      ? {}
      : { 'node:zlib': fileURLToPath(new URL('./src/worker/node-zlib-stub.ts', import.meta.url)) },
  },
  // The dev server scans for dependencies from these files before the first page load. Its default
  // is the HTML pages alone, which do not reach the workers (a `new Worker(new URL(…))` is not an
  // import the scan follows), so the engine's packages were found only when the first run started
  // the worker: Vite then bundled them again and reloaded the page, losing that run.
  optimizeDeps: { entries: ['index.html', 'webcontainer-check.html', 'src/worker/*.worker.ts'] },
  server: { headers: isolationHeaders },
  preview: { headers: isolationHeaders },
  // The engine worker collects the sandbox's modules, so its bundle needs the expect bundle too.
  worker: { format: 'es', plugins: () => [sandboxExpect()] },
  build: {
    target: 'es2022',
    sourcemap: true,
    // Two pages: the app, and the WebContainer check page (e2e/webcontainer.spec.ts uses it).
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('./index.html', import.meta.url)),
        'webcontainer-check': fileURLToPath(new URL('./webcontainer-check.html', import.meta.url)),
      },
    },
  },
  test: {
    include: ['src/**/*.test.ts', 'tests/**/*.test.ts'],
    environment: 'node',
    testTimeout: 30_000,
    pool: 'threads',
    setupFiles: ['tests/support/fast-check-seed.ts'],
  },
});
