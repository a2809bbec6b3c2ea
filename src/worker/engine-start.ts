/**
 * The engine worker's engine, loaded by its first chunk (engine.worker.ts) right after start-up:
 * the browser's wasm source and Buffer global, the model workers WebLLM and llama.cpp run in
 * (each spawned on first use, so the page never loads either), and the engine host over the
 * console's session, a memory workspace seeded with the starter template.
 */
import { useBrowserWasm } from '../platform/browser-wasm.ts';
import { installBufferGlobal } from '../platform/buffer-global.ts';
import { serveEngine, type HostEndpoint } from './engine-host.ts';
import { ModelLink, type ModelPort } from './run-models.ts';
import { createTemplateSession } from './starter-session.ts';

export function startEngine(endpoint: HostEndpoint): void {
  useBrowserWasm();
  installBufferGlobal();
  const webllm = new ModelLink(
    () =>
      new Worker(new URL('./model.worker.ts', import.meta.url), {
        type: 'module',
        name: 'slmcode-model',
      }) as unknown as ModelPort,
  );
  const gguf = new ModelLink(
    () =>
      new Worker(new URL('./gguf.worker.ts', import.meta.url), {
        type: 'module',
        name: 'slmcode-llamacpp',
      }) as unknown as ModelPort,
  );
  serveEngine(endpoint, () => createTemplateSession(), { webllm, gguf });
}
