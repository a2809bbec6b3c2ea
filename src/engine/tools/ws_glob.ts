/**
 * ws_glob: find files by a glob pattern (`**` spans any number of directories), at most
 * GLOB_CAP hits with the cap announced. node_modules/ and .git/ are not entered unless the
 * pattern names them, and no symlink is followed.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import { fail, ok, type Note } from '../result.ts';
import { jail, notTextResult } from '../file-io.ts';
import { skipDirsFor, walkTree, type WalkEntry } from '../walk.ts';
import type { Workspace } from '../workspace.ts';
import { globMatcher, isGlobRefusal, type GlobMatcher } from '../glob-match.ts';

/** At most this many hits are listed. */
export const GLOB_CAP = 200;

const schema = z.object({
  pattern: z.string().describe('Glob relative to the project root (or to path), e.g. "src/**/*.test.ts"'),
  path: z.string().optional().describe('Directory to search in (default: the whole project)'),
});

/** Root-relative path of a hit, with `/` after a directory and `@ -> target` after a symlink. */
async function label(ws: Workspace, e: WalkEntry): Promise<string> {
  if (e.type === 'dir') return `${e.path}/`;
  if (e.type === 'symlink') return `${e.path}@ -> ${(await ws.readlink(e.path)) ?? '?'}`;
  return e.path;
}

/** Entries under `base` matching `pattern`, tried against the path relative to `base` and to the root. */
function matching(entries: readonly WalkEntry[], base: string, isMatch: GlobMatcher): WalkEntry[] {
  const cut = base === '' ? 0 : base.length + 1;
  return entries.filter((e) => isMatch(e.path.slice(cut)) || (cut > 0 && isMatch(e.path)));
}

export const wsGlob = defineTool({
  name: 'ws_glob',
  summary: 'Find files by pattern (** supported)',
  writes: false,
  schema,
  aliases: { glob: 'pattern', dir: 'path', directory: 'path' },
  async run(args, ctx) {
    const pattern = args.pattern.trim().replace(/^(\.\/)+/, '');
    if (pattern === '') {
      return fail(
        `ws_glob needs a pattern, e.g. ws_glob {"pattern":"**/*.ts"} for every .ts file, or ws_list to browse a directory.`,
      );
    }
    if (pattern.startsWith('/')) {
      return fail(
        `ws_glob patterns are relative to the project root: write ${JSON.stringify(pattern.replace(/^\/+/, ''))}, not ${JSON.stringify(pattern)}.`,
      );
    }
    const j = await jail(ctx, args.path ?? '.', 'read');
    if (!j.ok) return j.result;
    const base = j.file;
    const st = await ctx.ws.lstat(base.path);
    if (!st) return notTextResult(ctx, base, { kind: 'missing' }, 'ws_glob');
    if (st.type !== 'dir') {
      return fail(
        `path= must be a directory, and ${base.display} is a file. Leave path= out to search the whole project, or read the file with ws_read.`,
      );
    }

    const isMatch = globMatcher(pattern);
    if (isGlobRefusal(isMatch)) return fail(`ws_glob: ${isMatch.refused}.`);
    const walked = await walkTree(ctx.ws, base.path, { skip: skipDirsFor(pattern) });
    const notes: Note[] = [];
    const where = base.path === '' ? 'the project' : `${base.display}/`;
    let used = pattern;
    let hits = matching(walked.entries, base.path, isMatch);
    let lead = '';
    // `*.ts` finds only top-level files; when that finds nothing the model almost always meant any depth.
    if (hits.length === 0 && !pattern.includes('/') && !pattern.startsWith('**')) {
      const deepMatch = globMatcher(`**/${pattern}`);
      const deep = isGlobRefusal(deepMatch) ? [] : matching(walked.entries, base.path, deepMatch);
      if (deep.length) {
        used = `**/${pattern}`;
        hits = deep;
        lead = `[nothing matches ${JSON.stringify(pattern)} at the top level of ${where}; these are the matches of ${JSON.stringify(used)} at any depth]\n`;
        notes.push({ kind: 'hint', text: `widened ${pattern} to ${used}`, detail: 'deep-glob' });
      }
    }
    const walkNote = walked.truncated
      ? `\n[the search stopped after ${walked.entries.length} entries; pass path= to search a smaller part of the tree]`
      : '';
    if (hits.length === 0) {
      return ok(
        `No files match ${JSON.stringify(pattern)} in ${where} (${walked.entries.length} entries searched; ` +
          `node_modules/ and .git/ are skipped unless the pattern names them). ` +
          `Check the spelling, widen the pattern (e.g. "**/*part-of-the-name*"), or browse with ws_list.${walkNote}`,
      );
    }
    const shown = hits.slice(0, GLOB_CAP);
    const rows = await Promise.all(shown.map((e) => label(ctx.ws, e)));
    let head = `${hits.length} match${hits.length === 1 ? '' : 'es'} for ${JSON.stringify(used)} in ${where}:`;
    if (hits.length > GLOB_CAP) {
      head = `${hits.length} matches for ${JSON.stringify(used)} in ${where}; showing the first ${GLOB_CAP} (at most ${GLOB_CAP} are listed — narrow the pattern or pass path=):`;
      notes.push({
        kind: 'cap',
        text: `glob cap ${GLOB_CAP} reached (${hits.length} matches)`,
        detail: String(hits.length),
      });
    }
    return ok(`${lead}${head}\n${rows.join('\n')}${walkNote}`, notes);
  },
});
