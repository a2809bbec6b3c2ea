/**
 * How the memory workspace runs a command: the offline shell (just-bash) and the sandboxed
 * JavaScript runner plug in here, so the file tree stays one idea and running stays another.
 */
import type { ExecOptions, ExecResult } from '../../engine/workspace.ts';
import type { MemoryWorkspace } from './memory-workspace.ts';

export interface ProcessRunner {
  run(ws: MemoryWorkspace, argv: readonly string[], opts: ExecOptions): Promise<ExecResult>;
}
