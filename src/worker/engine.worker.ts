/**
 * The engine worker (a module worker): the console's engine session over a memory workspace
 * seeded with the starter template, and the agent runs. This file is its first chunk: the
 * front (engine-front.ts) answers the start screen at once, and loads the engine itself
 * (engine-start.ts, engine-host.ts) right away beside it.
 */
import { serveFront } from './engine-front.ts';
import type { HostEndpoint } from './engine-host.ts';

serveFront(self as unknown as HostEndpoint, async (endpoint) =>
  (await import('./engine-start.ts')).startEngine(endpoint),
);
