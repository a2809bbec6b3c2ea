/**
 * What a tool sees while it runs: the workspace, the settings, the per-session state and the
 * jail. One ToolContext per engine session; tools never keep state of their own.
 */
import type { Workspace } from './workspace.ts';
import type { EngineSettings } from './settings.ts';
import type { SessionState } from './state.ts';
import type { JailResult, JailOp } from './jail.ts';
import type { OutsideAccess } from './outside.ts';

export interface ToolContext {
  readonly ws: Workspace;
  readonly settings: EngineSettings;
  readonly state: SessionState;
  /** Jails a path the model gave: normalizes it, applies every rule, resolves symlinks physically. */
  resolve(path: string, op: JailOp): Promise<JailResult>;
  /** True when a person approved this very call in the UI (a gated shell command may then run). */
  readonly approved?: boolean;
  /** What the host lets the specialist tools reach outside the workspace; absent: nothing. */
  readonly outside?: OutsideAccess;
}
