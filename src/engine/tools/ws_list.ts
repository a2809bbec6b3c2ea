/**
 * ws_list: one directory's entries, sorted — `name/` for directories, `name@ -> target` for
 * symlinks. An empty or missing directory gets an explicit message rather than an empty
 * string the model has to interpret.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok } from '../result.ts';
import { jail, notTextResult } from '../file-io.ts';
import { dirName, joinPath } from '../walk.ts';

const schema = z.object({
  path: z.string().optional().describe('Directory relative to the project root (default ".", the root)'),
});

export const wsList = defineTool({
  name: 'ws_list',
  summary: 'List a directory',
  writes: false,
  schema,
  aliases: { dir: 'path', directory: 'path' },
  async run(args, ctx) {
    const j = await jail(ctx, args.path ?? '.', 'read');
    if (!j.ok) return j.result;
    const { file: dir } = j;
    const st = await ctx.ws.lstat(dir.path);
    if (!st) return notTextResult(ctx, dir, { kind: 'missing' }, 'ws_list');
    if (st.type !== 'dir') {
      return fail(
        `${dir.display} is a file, not a directory. Read it with ws_read ${JSON.stringify({ path: dir.display })}, ` +
          `or list its folder with ws_list ${JSON.stringify({ path: dirName(dir.path) || '.' })}.`,
      );
    }
    const shown = dir.display === '.' ? './' : `${dir.display}/`;
    const entries = [...(await ctx.ws.readdir(dir.path))].sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    if (entries.length === 0) {
      return ok(
        `${shown} is an empty directory (0 entries). Create a file in it with ws_write, or look elsewhere with ws_glob.`,
      );
    }
    const rows: string[] = [];
    for (const e of entries) {
      if (e.type === 'dir') rows.push(`${e.name}/`);
      else if (e.type === 'symlink')
        rows.push(`${e.name}@ -> ${(await ctx.ws.readlink(joinPath(dir.path, e.name))) ?? '?'}`);
      else rows.push(e.name);
    }
    return ok(`${shown} — ${entries.length} entr${entries.length === 1 ? 'y' : 'ies'}:\n${rows.join('\n')}`);
  },
});
