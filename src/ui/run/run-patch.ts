/**
 * The whole change of a run as one unified diff, start → final files, in git's format
 * (`diff --git a/… b/…`, new and deleted file modes, three lines of context), so `git apply`
 * or `patch -p1` applies it to the starting project. Files that could not be compared as text
 * are named in a comment before the first diff, which both tools skip.
 */
import { createTwoFilesPatch, FILE_HEADERS_ONLY } from 'diff';
import type { RunFiles } from './run-files.ts';

/** The patch from `start` to `end`; `title` heads the comment. Empty of diffs when nothing changed. */
export function runPatch(start: RunFiles, end: RunFiles, title: string): string {
  const paths = [...new Set([...start.texts.keys(), ...end.texts.keys()])].sort();
  const diffs: string[] = [];
  for (const path of paths) {
    const before = start.texts.get(path);
    const after = end.texts.get(path);
    if (before === after) continue;
    const head = [`diff --git a/${path} b/${path}`];
    if (before === undefined) head.push('new file mode 100644');
    if (after === undefined) head.push('deleted file mode 100644');
    const body = createTwoFilesPatch(
      before === undefined ? '/dev/null' : `a/${path}`,
      after === undefined ? '/dev/null' : `b/${path}`,
      before ?? '',
      after ?? '',
      undefined,
      undefined,
      {
        headerOptions: FILE_HEADERS_ONLY,
      },
    );
    // An empty file added or removed has no hunk: the header says it all.
    diffs.push(`${head.join('\n')}\n${/^@@/m.test(body) ? body : ''}`);
  }
  const skipped = [...new Set([...start.skipped, ...end.skipped].map((s) => `# not compared (${s.why}): ${s.path}`))];
  const comment = [`# ${title}`, `# ${diffs.length} file${diffs.length === 1 ? '' : 's'} changed`, ...skipped].join(
    '\n',
  );
  return `${comment}\n${diffs.join('')}`;
}
