/** Which kind of workspace a recorded session replays in, for the browser's session runs and `slm replay` alike. */
import { NO_RUNNER_NOTE } from '../workspace/memory/memory-workspace.ts';

/** Whether a shell step's output says that its workspace could run no command at all. */
export function ranNoCommand(shellOutput: string): boolean {
  return shellOutput.includes(NO_RUNNER_NOTE);
}

/** Whether replaying `session` needs a workspace that can run `node`: yes, unless it was recorded in one that could run no command. */
export function needsRunner(session: { readonly steps: readonly { readonly shellOutput?: string }[] }): boolean {
  return !session.steps.some((s) => s.shellOutput !== undefined && ranNoCommand(s.shellOutput));
}
