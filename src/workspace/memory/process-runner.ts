/**
 * How the memory workspace runs a command: the offline shell (just-bash) and the sandboxed
 * JavaScript runner plug in here, so the file tree stays one idea and running stays another.
 */
import type { InMemoryFs } from 'just-bash';
import type { ExecOptions, ExecPlan, ExecResult, PythonState } from '../../engine/workspace.ts';

/** What a runner gets of the workspace: its filesystem and where the project root is in it. */
export interface RunnerTarget {
  readonly fs: InMemoryFs;
  readonly root: string;
}

export interface ProcessRunner {
  /** What the runner's programs run on, when it says (the workspace's `runtime`). */
  readonly runtime?: string;
  /** Runs every stage of `plan` exactly as given: argv literal, descriptors routed as the plan says. */
  run(target: RunnerTarget, plan: ExecPlan, opts: ExecOptions): Promise<ExecResult>;
  /** Whether `python3` runs here (Workspace.pythonState); `none` when absent. */
  pythonState?(): PythonState;
  /** Resolves when the next `python3` starts at once (Workspace.pythonWarm). */
  pythonWarm?(): Promise<void>;
}
