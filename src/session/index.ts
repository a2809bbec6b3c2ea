/** Sessions: the versioned record, the share-link codec, recording and replay (re-exports only). */
export * from './record.ts';
export * from './share-codec.ts';
export { checkSession, type RefusalKind, type SessionCheck } from './validate.ts';
export { recordRun, isShellStep, type RecordOptions, type RecordedRun } from './recorder.ts';
export { replaySession, type ReplayOptions, type ReplayReport, type StepCheck } from './replay.ts';
export { formatReplay, stepHeader } from './replay-text.ts';
export type { Divergence, DivergenceKind } from './divergence.ts';
export { describeStart, seedStart, type StartDescription } from './start.ts';
export { engineVersion, APP_VERSION } from './version.ts';
