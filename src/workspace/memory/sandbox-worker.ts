/**
 * What the JavaScript sandbox and the frame that hosts its workers exchange: a job, the limits
 * it runs under, and the handle on one worker. Types only, shared by js-sandbox.ts and
 * sandbox-frame-link.ts.
 */
import type { SandboxModule } from './js-sandbox-modules.ts';

export interface SandboxWorker {
  /** Sends the job (a SandboxJob, or a Python job for py-sandbox-runtime.js) on the runtime's private channel. */
  postMessage(message: object): void;
  /** Messages the runtime sent on its private channel, and nothing else. */
  onMessage(handler: (data: unknown) => void): void;
  /** The worker failed to start or crashed outside the job's own error handling. */
  onError(handler: (message: string) => void): void;
  /** The worker was stopped because it grew past the memory cap; `bytes` is what was measured. */
  onMemory(handler: (bytes: number) => void): void;
  terminate(): void;
}

export interface SandboxLimits {
  /** Past this much memory (where the browser measures it) the worker is stopped. */
  readonly memoryCapBytes: number;
}

/** Starts one sandbox worker running the runtime source. */
export type SandboxSpawner = (runtime: string, limits: SandboxLimits) => SandboxWorker;

/** One job, as js-sandbox-runtime.js reads it. */
export interface SandboxJob {
  readonly mode: 'run' | 'test' | 'jest';
  readonly entries: readonly string[];
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly env: Readonly<Record<string, string>>;
  readonly modules: Readonly<Record<string, SandboxModule>>;
  readonly namePatterns: readonly string[];
  readonly headChars: number;
  readonly tailChars: number;
}
