/**
 * The workspaces `slm eval` runs its sessions and graders in: fresh memory workspaces, as the
 * browser uses, whose `node` and `python3` run in the OS sandbox the CLI chose (bubblewrap: no network, only
 * a temporary copy writable), so a task's tests never run directly on this machine.
 */
import type { WorkspaceFactory } from '../eval/grade.ts';
import { MemoryWorkspace } from '../workspace/memory/memory-workspace.ts';
import { NodeJsEngine, NodePyEngine } from '../workspace/memory/node-runner.ts';
import { ShellRunner } from '../workspace/memory/shell-runner.ts';
import type { CommandSandbox } from '../workspace/node/host-sandbox.ts';

export function sandboxedMemoryWorkspaces(sandbox: CommandSandbox): WorkspaceFactory {
  return async () =>
    new MemoryWorkspace(undefined, undefined, new ShellRunner(new NodeJsEngine(sandbox), new NodePyEngine(sandbox)));
}
