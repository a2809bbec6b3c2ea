/**
 * How the memory workspace runs a command: the offline shell (just-bash) and the sandboxed
 * JavaScript runner plug in here, so the file tree stays one idea and running stays another.
 */
import type { InMemoryFs } from 'just-bash';
import type { ExecOptions, ExecResult } from '../../engine/workspace.ts';

/** What a runner gets of the workspace: its filesystem and where the project root is in it. */
export interface RunnerTarget {
  readonly fs: InMemoryFs;
  readonly root: string;
}

export interface ProcessRunner {
  run(target: RunnerTarget, argv: readonly string[], opts: ExecOptions): Promise<ExecResult>;
}
