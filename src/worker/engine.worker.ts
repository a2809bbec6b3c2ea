/**
 * The engine worker (a module worker), started in this one module. Its first chunk is the
 * serving side (engine-serve.ts), which answers the start screen at once; the engine itself
 * loads right away beside it: the browser's wasm source and Buffer global, the model workers
 * WebLLM and llama.cpp run in (each spawned on first use, so the page never loads either), and
 * the engine host over the console's session, a memory workspace seeded with the starter.
 */
import { serveEngine, type HostEndpoint } from './engine-serve.ts';

serveEngine(self as unknown as HostEndpoint, async (events) => {
  const [{ useBrowserWasm }, { installBufferGlobal }, { engineHost }, { ModelLink }, { createTemplateSession }] =
    await Promise.all([
      import('../platform/browser-wasm.ts'),
      import('../platform/buffer-global.ts'),
      import('./engine-host.ts'),
      import('./run-models.ts'),
      import('./starter-session.ts'),
    ]);
  useBrowserWasm();
  installBufferGlobal();
  const webllm = new ModelLink(
    () => new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module', name: 'slmcode-model' }),
  );
  const gguf = new ModelLink(
    () => new Worker(new URL('./gguf.worker.ts', import.meta.url), { type: 'module', name: 'slmcode-llamacpp' }),
  );
  return engineHost(() => createTemplateSession(), { webllm, gguf }, events);
});
