/**
 * The sandbox frame's Content-Security-Policy (public/sandbox.html): its one inline script by
 * hash, the runtime's blob: worker and modules, WebAssembly compiled from bytes (Pyodide,
 * py-sandbox.ts), and nothing else — no fetch, connection, font, image, media, frame or script
 * from anywhere. The frame's workers inherit it. vite.config.ts
 * sends it as a header for the frame's path on the dev and preview servers (`sandboxCsp()`);
 * a host serving the build must send the same header for /sandbox.html (the meta tag in the
 * file repeats the policy, less `frame-ancestors`, which only a header can carry).
 */
import type { Plugin } from 'vite';

/** The frame's path in the built site. */
export const SANDBOX_PATH = '/sandbox.html';

/** sha256 of the frame's inline script; sandbox-csp.test.ts fails when the script changes without it. */
export const SANDBOX_SCRIPT_HASH = 'sha256-P5mVBZ63YFB3a9RKmVx96rz0+NTk6Z4pq5PcJNtynY4=';

/** The policy as the frame's meta tag carries it. */
export const SANDBOX_CSP_META = [
  "default-src 'none'",
  `script-src '${SANDBOX_SCRIPT_HASH}' blob: 'wasm-unsafe-eval'`,
  'worker-src blob:',
  "connect-src 'none'",
  "font-src 'none'",
  "img-src 'none'",
  "media-src 'none'",
  "frame-src 'none'",
  "object-src 'none'",
  "style-src 'none'",
  "manifest-src 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');

/** The header: the same policy, and only the playground itself may embed the frame. */
export const SANDBOX_CSP_HEADER = `${SANDBOX_CSP_META}; frame-ancestors 'self'`;

/** Sends the header for the frame's path on the dev and the preview server. */
export function sandboxCsp(): Plugin {
  const headers = (
    req: { url?: string },
    res: { setHeader(name: string, value: string): unknown },
    next: () => void,
  ) => {
    if (req.url?.split('?')[0] === SANDBOX_PATH) res.setHeader('Content-Security-Policy', SANDBOX_CSP_HEADER);
    next();
  };
  return {
    name: 'slmcode-sandbox-csp',
    configureServer: (server) => void server.middlewares.use(headers),
    configurePreviewServer: (server) => void server.middlewares.use(headers),
  };
}
