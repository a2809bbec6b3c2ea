/**
 * git_diff: a unified diff, in git's format, of what changed since the last commit — the
 * working tree against HEAD, new (untracked) files included — or, with `staged`, of the index
 * against HEAD. `path` narrows it to a file or directory. Binary files are named, never dumped;
 * the engine caps a long diff (head and tail kept). Read-only: it never writes to `.git`.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok } from '../result.ts';
import { jail } from '../file-io.ts';
import { openRepo } from '../git/repo.ts';
import { readDiff } from '../git/diff.ts';
import { MAX_WALK_ENTRIES } from '../walk.ts';

const schema = z.object({
  path: z.string().optional().describe('Only changes to this file or directory (default: the whole project)'),
  staged: z
    .boolean()
    .optional()
    .describe('true: compare the index (staged changes) with HEAD instead of the working tree'),
});

export const gitDiff = defineTool({
  name: 'git_diff',
  summary: 'Read-only git: unified diff of the changes since the last commit',
  writes: false,
  schema,
  aliases: { file: 'path', cached: 'staged' },
  async run(args, ctx) {
    const opened = await openRepo(ctx.ws, { readOnly: true });
    if (!opened.ok) return fail(opened.text, [{ kind: 'hint', text: 'no git repository', detail: 'no-repo' }]);
    const scope =
      args.path === undefined
        ? { ok: true as const, file: { path: '', display: '.' } }
        : await jail(ctx, args.path, 'read');
    if (!scope.ok) return scope.result;
    const staged = args.staged ?? false;
    const report = await readDiff(opened.repo, { staged, path: scope.file.path });
    const base = report.head.commit === null ? 'the empty tree (there is no commit yet)' : 'HEAD (the last commit)';
    const where = scope.file.path === '' ? '' : ` in ${scope.file.display}`;
    const capNote = report.truncated
      ? `\n[the working tree has more than ${MAX_WALK_ENTRIES} entries; the scan stopped there, so later files are not compared]`
      : '';
    if (report.changes.length === 0) {
      const text = staged
        ? `no staged changes${where}: the index matches ${base}. git_diff without "staged" shows the working tree's changes.`
        : `no changes${where}: the working tree matches ${base}, new files included.` +
          (where ? ' git_status lists what changed elsewhere.' : '');
      return ok(text + capNote);
    }
    const n = report.changes.length;
    const what = staged ? 'staged changes (index vs HEAD)' : 'changes (working tree vs HEAD, new files included)';
    return ok(`${report.text}[${n} file${n === 1 ? '' : 's'} with ${what}${where}]${capNote}`);
  },
});
