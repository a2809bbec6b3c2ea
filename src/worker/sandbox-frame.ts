/**
 * The page's side of the JavaScript sandbox: the sandboxed frame (public/sandbox.html) that
 * hosts the workers `node` runs in. Only the page can create a frame, and the engine runs in a
 * worker, so the page creates it once, hidden, and hands the engine a MessagePort to it each
 * time an engine worker is ready (a port dies with the worker it was given to). The frame has
 * `sandbox="allow-scripts"` and no `allow-same-origin`: its origin is opaque. `allow` lets it be
 * cross-origin isolated when the page is, which is what lets it measure its workers' memory.
 * The engine worker is also told which package index `pytest`'s wheels come from, when the page
 * names one (py-wheels.ts): the page fetches them, never the frame.
 */
import type { EngineClient } from './client.ts';

export const SANDBOX_FRAME_URL = 'sandbox.html';

/**
 * Connects the sandbox to every engine worker that becomes ready. The frame is made when the
 * first one is ready, not before: nothing can run in it earlier, and loading a second document
 * would otherwise compete with the page's first paint.
 */
export function connectSandboxFrame(client: EngineClient, doc: Document, packageIndex?: unknown): void {
  let loaded: Promise<HTMLIFrameElement> | null = null;
  const frame = (): Promise<HTMLIFrameElement> => (loaded ??= makeFrame(doc));
  const attach = async () => {
    const contentWindow = (await frame()).contentWindow;
    const channel = new MessageChannel();
    // The frame's origin is opaque, so no origin can be named; the frame checks that the message comes from this page.
    contentWindow?.postMessage({ type: 'slmcode-sandbox-connect' }, '*', [channel.port2]);
    // A worker that crashed meanwhile rejects; the status says so, and the next one is attached when ready.
    await client.attachSandbox(channel.port1, packageIndex).catch(() => {});
  };
  if (client.status.state === 'ready') void attach();
  client.onStatus((status) => {
    if (status.state === 'ready') void attach();
  });
}

/** Appends the hidden sandboxed frame; resolves when its document has loaded. */
function makeFrame(doc: Document): Promise<HTMLIFrameElement> {
  const frame = doc.createElement('iframe');
  frame.src = new URL(SANDBOX_FRAME_URL, doc.baseURI).href;
  frame.setAttribute('sandbox', 'allow-scripts');
  frame.setAttribute('allow', 'cross-origin-isolated');
  frame.title = 'JavaScript sandbox';
  frame.hidden = true;
  frame.dataset.testid = 'js-sandbox-frame';
  const loaded = new Promise<HTMLIFrameElement>((resolve) =>
    frame.addEventListener('load', () => resolve(frame), { once: true }),
  );
  doc.body.append(frame);
  return loaded;
}
