/**
 * The model worker: runs WebLLM off the main thread. It speaks the protocol in
 * src/agent/models/worker-protocol.ts; the WebLLM adapter is imported dynamically on the first
 * request that needs it, so neither the main bundle nor this worker's start-up loads the
 * 6.8 MB package before a model is actually used.
 */
import { serveModel } from './model-wire.ts';
import { endpointWire, type Endpoint } from './rpc.ts';

serveModel(
  endpointWire(self as unknown as Endpoint),
  async () => (await import('../agent/models/webllm.ts')).webllmBackend,
);
