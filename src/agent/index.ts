/**
 * The agent's public surface (re-exports only). The WebLLM adapter is deliberately absent:
 * it is imported dynamically by the model worker and nowhere else.
 */
export * from './loop.ts';
export * from './step.ts';
export * from './model.ts';
export * from './parse.ts';
export * from './prompt.ts';
export * from './call-schema.ts';
export * from './context.ts';
export * from './approvals.ts';
export * from './evolve.ts';
export * from '../engine/tally.ts';
export * from './stall.ts';
export { ScriptedModel, type ScriptedOptions } from './models/scripted.ts';
export { OpenAIModel, type OpenAIOptions } from './models/openai.ts';
export * from './models/catalog.ts';
export * from './models/gpu.ts';
export * from './models/worker-protocol.ts';
export { ModelWorkerClient } from './models/worker-client.ts';
export { createModelHost, type ModelBackend, type HostedModel, type ModelHost } from './models/worker-host.ts';
