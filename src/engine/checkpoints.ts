/**
 * Restoring a checkpoint: puts a file back the way it was before the call that stored the
 * checkpoint (ws_write, ws_edit, ws_replace_lines, ws_delete…). This is an engine-level action
 * for the person driving the session (the UI's "restore" button, the CLI), not a model tool.
 *
 * A restore is itself checkpointed, so it can be undone the same way, and the file is marked
 * unseen: the model's last read no longer matches the disk, so it must read the file again
 * before it overwrites it.
 */
import type { ToolContext } from './context.ts';
import { fail, ok, type FileChange, type ToolResult } from './result.ts';
import { fileState, jail, recordCheckpoint, specialFileText, writeErrorText } from './file-io.ts';
import { encodeText } from './text.ts';
import { isWorkspaceError } from './workspace.ts';

/** The tool name recorded on the checkpoint a restore itself stores. */
export const RESTORE_TOOL = 'restore';

/** Restores checkpoint `id` of this session. Failures are results, never throws for a bad id or path. */
export async function restoreCheckpoint(ctx: ToolContext, id: number): Promise<ToolResult> {
  const all = ctx.state.checkpoints;
  const cp = all.find((c) => c.id === id);
  if (!cp) {
    const range = all.length ? `checkpoints #1–#${all.length}` : 'no checkpoints yet';
    return fail(`No checkpoint #${id} — this session has ${range}.`);
  }
  // The tree may have changed since (a symlink put in the file's place): jail the path again.
  const j = await jail(ctx, cp.path, 'write');
  if (!j.ok) return j.result;
  const { file } = j;
  const now = await fileState(ctx.ws, file.path);
  if (now.kind === 'dir' || now.kind === 'binary') {
    return fail(
      `Cannot restore checkpoint #${id}: ${file.display} is now a ${now.kind === 'dir' ? 'directory' : 'binary file'}, ` +
        `and restoring would destroy it. Move it away first (ws_mv), then restore.`,
    );
  }
  if (now.kind === 'special')
    return fail(`Cannot restore checkpoint #${id}: ${specialFileText(file, now.what, RESTORE_TOOL)}`);
  const current = now.kind === 'text' ? now.text : null;
  if (current === cp.before) {
    return ok(`${file.display} already matches checkpoint #${id} (before ${cp.tool}); nothing to restore.`);
  }

  try {
    if (cp.before === null) await ctx.ws.remove(file.path);
    else await ctx.ws.writeFile(file.path, encodeText(cp.before));
  } catch (e) {
    if (!isWorkspaceError(e)) throw e;
    return fail(writeErrorText(RESTORE_TOOL, file.display, e));
  }
  const undo = recordCheckpoint(ctx, RESTORE_TOOL, file.path, current);
  ctx.state.forget(file.path);
  const change: FileChange = { path: file.path, before: current, after: cp.before };
  const what =
    cp.before === null
      ? `removed ${file.display}, which did not exist before ${cp.tool}`
      : `restored ${file.display} to its text before ${cp.tool}`;
  const undoText = undo ? ` The replaced state is kept in checkpoint #${undo.id}.` : '';
  return ok(`${what} (checkpoint #${id}).${undoText}`, undo ? [undo.note] : [], [change]);
}
