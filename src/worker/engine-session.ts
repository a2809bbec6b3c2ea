/**
 * What the worker serves the console from: one engine over one workspace, and the factory
 * that makes a fresh one (at start-up, on reset, and for every run). Types only, in their own
 * file so the session factory and the host can both name them without depending on each other.
 */
import type { Engine } from '../engine/engine.ts';
import type { EngineInfo } from './protocol.ts';

/** One engine over one workspace, plus what the console says about it. */
export interface EngineSession {
  readonly engine: Engine;
  readonly info: EngineInfo;
}

/** Creates a fresh session; called at start-up and on every reset. */
export type SessionFactory = () => Promise<EngineSession>;
