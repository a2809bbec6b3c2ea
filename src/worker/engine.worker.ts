/**
 * The engine worker (a module worker): the console's engine session over a memory workspace
 * seeded with the starter template, and the agent runs. Everything it does is in
 * engine-host.ts; this file only wires the browser's wasm source, the worker scope, and the
 * model workers WebLLM and llama.cpp run in (each spawned from here on first use, so the page
 * never loads either).
 */
import { useBrowserWasm } from '../platform/browser-wasm.ts';
import { installBufferGlobal } from '../platform/buffer-global.ts';
import { serveEngine, type HostEndpoint } from './engine-host.ts';
import { ModelLink, type ModelPort } from './run-models.ts';
import { createTemplateSession } from './starter-session.ts';

useBrowserWasm();
installBufferGlobal();
const webllm = new ModelLink(
  () => new Worker(new URL('./model.worker.ts', import.meta.url), { type: 'module', name: 'slmcode-model' }) as unknown as ModelPort,
);
const gguf = new ModelLink(
  () => new Worker(new URL('./gguf.worker.ts', import.meta.url), { type: 'module', name: 'slmcode-llamacpp' }) as unknown as ModelPort,
);
serveEngine(self as unknown as HostEndpoint, () => createTemplateSession(), { webllm, gguf });
