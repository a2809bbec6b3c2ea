/**
 * The engine worker (a module worker): one engine session over a memory workspace seeded
 * with the starter template. Everything it does is in engine-host.ts; this file only wires
 * the browser's wasm source and the worker scope.
 */
import { useBrowserWasm } from '../platform/browser-wasm.ts';
import { serveEngine, type HostEndpoint } from './engine-host.ts';
import { createTemplateSession } from './starter-session.ts';

useBrowserWasm();
serveEngine(self as unknown as HostEndpoint, () => createTemplateSession());
