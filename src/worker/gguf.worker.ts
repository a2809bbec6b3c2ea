/**
 * The llama.cpp model worker: runs llama.cpp (WebAssembly, on the CPU) off the main thread,
 * speaking the same protocol as the WebLLM worker (src/agent/models/worker-protocol.ts). The
 * wllama adapter — and its 10 MB wasm file — is imported on the first request that needs it,
 * so nothing of it loads before someone picks a GGUF model.
 */
import { serveModel } from './model-wire.ts';
import { endpointWire, type Endpoint } from './rpc.ts';

serveModel(
  endpointWire(self as unknown as Endpoint),
  async () => (await import('../agent/models/wllama.ts')).wllamaBackend,
);
