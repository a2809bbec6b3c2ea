/**
 * ws_delete: deletes one file. Irreversible except through the checkpoint store, so the text is
 * kept there first and the result says so; directories and binary files (which a text
 * checkpoint cannot keep) are refused with the reason.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal } from '../result.ts';
import { splitLines } from '../text.ts';
import { binaryText, fileState, jail, notTextResult, recordCheckpoint, writeErrorText } from '../file-io.ts';
import { isWorkspaceError } from '../workspace.ts';

const schema = z.object({
  path: z.string().describe('File to delete, relative to the project root'),
});

export const wsDelete = defineTool({
  name: 'ws_delete',
  summary: 'Delete a file',
  writes: true,
  schema,
  aliases: { file_path: 'path', file: 'path', filename: 'path' },
  async run(args, ctx) {
    const j = await jail(ctx, args.path, 'write');
    if (!j.ok) return j.result;
    const { file } = j;
    const state = await fileState(ctx.ws, file.path);
    if (state.kind === 'missing' || state.kind === 'special') return notTextResult(ctx, file, state, 'ws_delete');
    if (state.kind === 'dir') {
      return refusal(
        `Delete refused — ${file.display} is a directory; ws_delete deletes files only. ` +
          `See its files with ws_list ${JSON.stringify({ path: file.display })} and delete them one by one if that really is the intent.`,
        'directory',
      );
    }
    if (state.kind === 'binary') {
      return refusal(
        `Delete refused — ${binaryText(file, state.size, 'ws_delete')} A binary file cannot be kept in the checkpoint store, so deleting it could not be undone.`,
        'binary',
      );
    }
    try {
      await ctx.ws.remove(file.path);
    } catch (e) {
      if (!isWorkspaceError(e)) throw e;
      return refusal(writeErrorText('ws_delete', file.display, e), 'backend');
    }
    const cp = recordCheckpoint(ctx, 'ws_delete', file.path, state.text);
    ctx.state.forget(file.path);
    const n = splitLines(state.text).length;
    const undo = cp
      ? `Its text is kept in checkpoint #${cp.id}, so it can be restored.`
      : `File checkpoints are off, so this cannot be undone.`;
    return ok(`deleted ${file.display} (${n} line${n === 1 ? '' : 's'}). ${undo}`, cp ? [cp.note] : [], [
      { path: file.path, before: state.text, after: null },
    ]);
  },
});
