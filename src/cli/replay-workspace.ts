/**
 * The workspace `slm replay` replays a session in: a fresh memory workspace, as the browser
 * uses. A session that ran commands gets the in-memory shell with real `node` and this machine's
 * `python3` inside the OS
 * sandbox (bubblewrap: no network, only a temporary copy writable), so its test runs reproduce
 * headless; where bubblewrap cannot run, it gets no process runner at all, and the replay says
 * its commands were not run. A replay never runs a session's code outside the sandbox.
 */
import type { Session } from '../session/record.ts';
import { needsRunner } from '../session/needs-runner.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { NodeJsEngine, NodePyEngine } from '../workspace/memory/node-runner.ts';
import { ShellRunner } from '../workspace/memory/shell-runner.ts';
import { probeHostSandbox } from '../workspace/node/host-sandbox.ts';

export interface ReplayWorkspace {
  readonly ws: MemoryWorkspace;
  /** Said on stderr: the session's commands were not run, and why. */
  readonly notRun?: string;
}

export async function replayWorkspace(session: Session): Promise<ReplayWorkspace> {
  if (!needsRunner(session)) return { ws: new MemoryWorkspace() };
  const sandbox = await probeHostSandbox();
  if ('kind' in sandbox)
    return {
      ws: new MemoryWorkspace(
        undefined,
        undefined,
        new ShellRunner(new NodeJsEngine(sandbox), new NodePyEngine(sandbox)),
      ),
    };
  return {
    ws: new MemoryWorkspace(),
    notRun:
      `this session's commands were not run: the OS sandbox (bubblewrap) cannot run here — ${sandbox.why}; ` +
      'steps that ran commands cannot reproduce. Install bubblewrap (Debian/Ubuntu: apt install bubblewrap) on Linux to replay them.',
  };
}
