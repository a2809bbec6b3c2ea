/**
 * The llama.cpp model worker: runs llama.cpp (WebAssembly, on the CPU) off the main thread,
 * speaking the same protocol as the WebLLM worker (src/agent/models/worker-protocol.ts). The
 * wllama adapter — and its 10 MB wasm file — is imported on the first request that needs it,
 * so nothing of it loads before someone picks a GGUF model.
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
  async () => (await import('../agent/models/wllama.ts')).wllamaBackend,
);

scope.onmessage = (event) => host.receive(event.data);
