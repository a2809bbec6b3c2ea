/** Opens the directory a command names as its workspace root, turning every failure into a message. */
import { resolve } from 'node:path';
import { isWorkspaceError } from '../engine/workspace.ts';
import type { CommandSandbox } from '../workspace/node/host-sandbox.ts';
import { NodeWorkspace } from '../workspace/node/node-workspace.ts';

export type OpenedRoot =
  { readonly ok: true; readonly ws: NodeWorkspace } | { readonly ok: false; readonly text: string };

/** `dir` is resolved against the current directory; the workspace root is its realpath; commands run under `sandbox`. */
export async function openRoot(dir: string, sandbox: CommandSandbox): Promise<OpenedRoot> {
  const abs = resolve(dir);
  try {
    return { ok: true, ws: await NodeWorkspace.open(abs, { sandbox }) };
  } catch (e) {
    if (isWorkspaceError(e, 'ENOENT'))
      return { ok: false, text: `root ${JSON.stringify(dir)} does not exist (${abs}); give an existing directory.` };
    if (isWorkspaceError(e, 'ENOTDIR'))
      return {
        ok: false,
        text: `root ${JSON.stringify(dir)} is not a directory (${abs}); give the project directory.`,
      };
    return { ok: false, text: `root ${JSON.stringify(dir)} cannot be opened (${(e as Error).message}).` };
  }
}
