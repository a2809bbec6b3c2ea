/**
 * git_status: the repository's state in `git status --short --branch` form — the branch line,
 * then one line per changed path (first column staged, second not staged), then untracked
 * files as `??`. Read-only: it never writes to `.git` (its fs client refuses writes), and a
 * workspace without a repository gets an explicit message instead of an error.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok } from '../result.ts';
import { openRepo } from '../git/repo.ts';
import { formatShortStatus, isClean, readStatus } from '../git/status.ts';
import { MAX_WALK_ENTRIES } from '../walk.ts';

const schema = z.object({});

/** The legend after a non-empty status: what the two columns and the letters mean, and the next tool. */
export const STATUS_LEGEND =
  '[first column: staged (index vs HEAD); second: not staged (working tree vs index); ' +
  'M modified, A added, D deleted, R renamed, ?? untracked. See the changes with git_diff.]';

export const CLEAN_TEXT = 'nothing to commit, working tree clean (no changes since the last commit)';

export const gitStatus = defineTool({
  name: 'git_status',
  summary: 'Read-only git: branch and changed files (git status --short)',
  writes: false,
  schema,
  async run(_args, ctx) {
    const opened = await openRepo(ctx.ws, { readOnly: true });
    if (!opened.ok) return fail(opened.text, [{ kind: 'hint', text: 'no git repository', detail: 'no-repo' }]);
    const report = await readStatus(opened.repo);
    const lines = [formatShortStatus(report)];
    if (report.truncated) {
      lines.push(
        `[the working tree has more than ${MAX_WALK_ENTRIES} entries; the scan stopped there, so later files are not listed]`,
      );
    }
    lines.push(isClean(report) ? CLEAN_TEXT : STATUS_LEGEND);
    return ok(lines.join('\n'));
  },
});
