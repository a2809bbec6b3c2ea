/** Which kind of workspace a recorded session replays in, for the browser's session runs and `slm replay` alike. */
import { NO_RUNNER_NOTE } from '../workspace/memory/memory-workspace.ts';
import type { Session } from './record.ts';

/** Whether replaying `session` needs a workspace that can run `node`: yes, unless it was recorded in one that could run no command. */
export function needsRunner(session: Session): boolean {
  return !session.steps.some((s) => s.shellOutput?.includes(NO_RUNNER_NOTE));
}
