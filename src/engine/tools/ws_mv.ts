/**
 * ws_mv: the supported way to rename or move a file or directory — rewriting a file under a new
 * name and leaving the old one behind is a common small-model failure. Both sides are jailed as
 * writes, an existing target is never overwritten, and what the session has read moves along,
 * so the file can be edited at its new path without a re-read. With a `.git` directory at the
 * root the move is also recorded in the index, as `git mv` would (git/rename.ts).
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { ok, refusal, type FileChange } from '../result.ts';
import { fileState, jail, notTextResult, specialFileText, writeErrorText } from '../file-io.ts';
import { isWorkspaceError } from '../workspace.ts';
import { baseName, joinPath, walkTree } from '../walk.ts';
import { recordRename, type RenameRecord } from '../git/rename.ts';
import type { ToolContext } from '../context.ts';

const schema = z.object({
  from: z.string().describe('Current path of the file or directory, relative to the project root'),
  to: z.string().describe('New path, including the file name (an existing path is never overwritten)'),
});

function isUnder(path: string, dir: string): boolean {
  return path === dir || path.startsWith(`${dir}/`);
}

/** Before/after records of the text files the move touches, for the inspector (node_modules/.git contents are left out). */
async function moveChanges(ctx: ToolContext, from: string, to: string, isDir: boolean): Promise<FileChange[]> {
  const files = isDir
    ? (await walkTree(ctx.ws, from)).entries.filter((e) => e.type === 'file').map((e) => e.path)
    : [from];
  const changes: FileChange[] = [];
  for (const path of files) {
    const state = await fileState(ctx.ws, path);
    if (state.kind !== 'text') continue;
    const target = to + path.slice(from.length);
    changes.push({ path, before: state.text, after: null }, { path: target, before: null, after: state.text });
  }
  return changes;
}

/**
 * What the result says about git: like `git mv`, a move of tracked files is recorded in the
 * index (git_status then shows it as a rename); untracked files and repository-less workspaces
 * need no word.
 */
function gitText(record: RenameRecord, from: string, to: string): string {
  switch (record.kind) {
    case 'no-repo':
    case 'untracked':
      return '';
    case 'recorded':
      return record.files === 1
        ? ` (git: recorded as a rename in the index, like git mv — git_status shows R  ${from} -> ${to})`
        : ` (git: ${record.files} tracked files recorded as renames in the index, like git mv)`;
    case 'failed':
      return ` (git: the index could not be updated — ${record.reason}; git_status will show ${from} deleted and ${to} untracked)`;
    default: {
      const never: never = record;
      throw new Error(`ws_mv gitText: unhandled record ${JSON.stringify(never)}`);
    }
  }
}

export const wsMv = defineTool({
  name: 'ws_mv',
  summary: 'Rename/move (uses git mv when available)',
  writes: true,
  schema,
  aliases: { source: 'from', src: 'from', old_path: 'from', destination: 'to', dest: 'to', new_path: 'to' },
  async run(args, ctx) {
    const src = await jail(ctx, args.from, 'write');
    if (!src.ok) return src.result;
    const dst = await jail(ctx, args.to, 'write');
    if (!dst.ok) return dst.result;
    const from = src.file;
    const to = dst.file;

    const srcState = await fileState(ctx.ws, from.path);
    if (srcState.kind === 'missing' || srcState.kind === 'special') return notTextResult(ctx, from, srcState, 'ws_mv');
    if (from.path === to.path) {
      return refusal(
        `Nothing to move — ${from.display} and ${to.display} are the same path. Give "to" the new name.`,
        'same-path',
      );
    }
    const isDir = srcState.kind === 'dir';
    if (isDir && isUnder(to.path, from.path)) {
      return refusal(
        `Move refused — ${to.display} is inside ${from.display}; a directory cannot be moved into itself. Choose a "to" outside it.`,
        'into-itself',
      );
    }
    const dstStat = await ctx.ws.lstat(to.path);
    if (dstStat) {
      const hint =
        dstStat.type === 'dir'
          ? `${to.display} is an existing directory: give the full new path, e.g. ${JSON.stringify({ from: from.display, to: joinPath(to.display, baseName(from.path)) })}.`
          : `Choose another name, or — if replacing it really is the intent — ws_delete ${JSON.stringify({ path: to.display })} first.`;
      return refusal(
        `Move refused — ${to.display} already exists and ws_mv never overwrites. ${hint}`,
        'target-exists',
      );
    }

    // A FIFO, socket or device in the way is no file to the Workspace, but a rename would replace it.
    const dstSpecial = await ctx.ws.specialKind?.(to.path);
    if (dstSpecial) return refusal(`Move refused — ${specialFileText(to, dstSpecial, 'ws_mv')}`, 'special');

    const changes = await moveChanges(ctx, from.path, to.path, isDir);
    try {
      await ctx.ws.rename(from.path, to.path);
    } catch (e) {
      if (!isWorkspaceError(e)) throw e;
      return refusal(writeErrorText('ws_mv', to.display, e), 'backend');
    }
    // What the session has read is still true at the new path.
    for (const [path, text] of [...ctx.state.seen]) {
      if (!isUnder(path, from.path)) continue;
      ctx.state.forget(path);
      ctx.state.markSeen(to.path + path.slice(from.path.length), text);
    }
    const what = isDir ? 'directory' : 'file';
    const git = gitText(await recordRename(ctx.ws, from.path, to.path), from.display, to.display);
    return ok(`moved ${what} ${from.display} to ${to.display}${git}`, [], changes);
  },
});
