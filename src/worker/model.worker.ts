/**
 * The model worker: runs WebLLM off the main thread. It speaks the protocol in
 * src/agent/models/worker-protocol.ts; the WebLLM adapter is imported dynamically on the first
 * request that needs it, so neither the main bundle nor this worker's start-up loads the
 * 6.8 MB package before a model is actually used.
 */
import { createModelHost } from '../agent/models/worker-host.ts';
import type { ModelRequest, ModelResponse } from '../agent/models/worker-protocol.ts';

/** The dedicated-worker global, typed by what is used here. */
const scope = self as unknown as {
  postMessage(message: ModelResponse): void;
  onmessage: ((event: MessageEvent<ModelRequest>) => void) | null;
};

const host = createModelHost(
  (message) => scope.postMessage(message),
  async () => (await import('../agent/models/webllm.ts')).webllmBackend,
);

scope.onmessage = (event) => host.receive(event.data);
