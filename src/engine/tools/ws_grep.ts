/**
 * ws_grep: RE2 search over file contents (re2js: linear time, so no pattern can hang the
 * engine). A pattern that does not compile is searched as a literal string and the result says
 * so, rather than failing. Hits are `file:line: text`, at most GREP_CAP of them with the cap
 * announced; binary files, node_modules/ and .git/ are skipped, and symlinks are not followed.
 */
import { z } from 'zod';
import { RE2JS } from 're2js';
import { defineTool } from '../tool.ts';
import { fail, ok, type Note } from '../result.ts';
import { jail, notTextResult, searchedFileState } from '../file-io.ts';
import { skipDirsFor, walkTree } from '../walk.ts';
import { globMatcher, isGlobRefusal } from '../glob-match.ts';
import { lineMatcher, matchingLines, type LineMatcher } from './grep-lines.ts';

/** At most this many hits are listed. */
export const GREP_CAP = 50;
/** A hit's line is cut to about this many characters, around the match. */
const MAX_HIT_CHARS = 200;
/** Files larger than this are not searched (and the result says how many were skipped). */
const MAX_GREP_FILE_BYTES = 1_000_000;

const schema = z.object({
  pattern: z.string().describe('RE2 regular expression (or a literal string), matched line by line'),
  path: z.string().optional().describe('File or directory to search (default: the whole project)'),
  glob: z.string().optional().describe('Only files matching this glob, e.g. "*.ts" or "src/**/*.py"'),
  case_insensitive: z.boolean().optional().describe('true to ignore case'),
});

interface Compiled {
  readonly lines: LineMatcher;
  /** Why the pattern was taken literally, or null when it compiled as a regex. */
  readonly literalBecause: string | null;
}

function compile(pattern: string, caseInsensitive: boolean): Compiled {
  const flags = caseInsensitive ? RE2JS.CASE_INSENSITIVE : 0;
  let source = pattern;
  let literalBecause: string | null = null;
  try {
    RE2JS.compile(pattern, flags);
  } catch (e) {
    literalBecause = e instanceof Error ? e.message : String(e);
    source = RE2JS.quote(pattern);
  }
  return {
    lines: lineMatcher(source, flags, literalBecause !== null ? pattern : null, caseInsensitive),
    literalBecause,
  };
}

/** The line as a hit shows it: trailing CR and whitespace dropped, long lines cut around the match. */
function hitText(line: string, re: RE2JS): string {
  const text = line.replace(/\s+$/, '');
  if (text.length <= MAX_HIT_CHARS) return text;
  const at = (re.exec(text) as { index?: number } | null)?.index ?? 0;
  const from = Math.max(0, at - MAX_HIT_CHARS / 4);
  const to = from + MAX_HIT_CHARS;
  return `${from > 0 ? '…' : ''}${text.slice(from, to)}${to < text.length ? '…' : ''}`;
}

export const wsGrep = defineTool({
  name: 'ws_grep',
  summary: 'Regex search over file contents',
  writes: false,
  schema,
  aliases: { query: 'pattern', regex: 'pattern', search: 'pattern', include: 'glob', ignore_case: 'case_insensitive' },
  async run(args, ctx) {
    const pattern = args.pattern;
    if (pattern === '') {
      return fail(
        `ws_grep needs a non-empty pattern, e.g. ws_grep {"pattern":"function main","glob":"*.js"}. To find files by name use ws_glob.`,
      );
    }
    const { lines, literalBecause } = compile(pattern, args.case_insensitive === true);
    const j = await jail(ctx, args.path ?? '.', 'read');
    if (!j.ok) return j.result;
    const base = j.file;
    const st = await ctx.ws.lstat(base.path);
    if (!st) return notTextResult(ctx, base, { kind: 'missing' }, 'ws_grep');

    // As in ripgrep's -g: a glob without a slash matches file names at any depth.
    const inGlob = args.glob ? globMatcher(args.glob, { basename: !args.glob.includes('/') }) : null;
    if (inGlob && isGlobRefusal(inGlob)) return fail(`ws_grep glob=: ${inGlob.refused}.`);
    const cut = base.path === '' ? 0 : base.path.length + 1;
    const walked = st.type === 'dir' ? await walkTree(ctx.ws, base.path, { skip: skipDirsFor(args.glob) }) : null;
    const files = walked
      ? walked.entries
          .filter((e) => e.type === 'file')
          .map((e) => e.path)
          .filter((p) => !inGlob || inGlob(p.slice(cut)) || (cut > 0 && inGlob(p)))
      : [base.path];

    const hits: string[] = [];
    let total = 0;
    let filesWithHits = 0;
    let binary = 0;
    let large = 0;
    for (const path of files) {
      const state = await searchedFileState(ctx.ws, path, MAX_GREP_FILE_BYTES);
      if (state.kind === 'large') large++;
      if (state.kind === 'binary') binary++;
      if (state.kind !== 'text') continue;
      const found = matchingLines(state.text, lines);
      if (found.length === 0) continue;
      filesWithHits++;
      total += found.length;
      for (const hit of found) {
        if (hits.length >= GREP_CAP) break;
        hits.push(`${path}:${hit.index + 1}: ${hitText(hit.line, lines.re)}`);
      }
    }

    const notes: Note[] = [];
    const out: string[] = [];
    const shownPattern = JSON.stringify(pattern);
    if (literalBecause !== null) {
      out.push(
        `[${shownPattern} is not a valid RE2 regular expression (${literalBecause}), so it was searched as a literal string]`,
      );
      notes.push({ kind: 'literal-fallback', text: `searched ${shownPattern} literally`, detail: literalBecause });
    }
    const where = base.path === '' ? 'the project' : st.type === 'dir' ? `${base.display}/` : base.display;
    const searched = files.length - binary - large;
    const scope = [
      `${searched} file${searched === 1 ? '' : 's'} searched in ${where}`,
      args.glob ? `glob ${JSON.stringify(args.glob)}` : '',
      args.case_insensitive ? 'ignoring case' : 'case-sensitive',
    ].filter(Boolean);
    const skipped = [
      binary ? `${binary} binary file${binary === 1 ? '' : 's'}` : '',
      large ? `${large} file${large === 1 ? '' : 's'} over ${MAX_GREP_FILE_BYTES / 1_000_000} MB` : '',
    ].filter(Boolean);
    if (walked?.truncated)
      skipped.push(
        `everything after the first ${walked.entries.length} entries of the tree (pass path= to search a smaller part)`,
      );
    const skippedNote = skipped.length ? ` Skipped: ${skipped.join(', ')}.` : '';

    if (total === 0) {
      const retries = ['a shorter or looser pattern'];
      if (!args.case_insensitive) retries.push('case_insensitive: true');
      if (args.glob || args.path) retries.push('without glob=/path=');
      out.push(
        `No matches for ${shownPattern} (${scope.join(', ')}; node_modules/ and .git/ are not searched).${skippedNote} ` +
          `Try ${retries.join(', or ')}; to find files by name use ws_glob.`,
      );
      return ok(out.join('\n'), notes);
    }
    out.push(
      `${total} hit${total === 1 ? '' : 's'} in ${filesWithHits} file${filesWithHits === 1 ? '' : 's'} for ${shownPattern} (${scope.join(', ')}):`,
    );
    out.push(...hits);
    if (total > GREP_CAP) {
      out.push(
        `[showing the first ${GREP_CAP} of ${total} hits — at most ${GREP_CAP} are shown; narrow with a more specific pattern, path= or glob=]`,
      );
      notes.push({ kind: 'cap', text: `grep cap ${GREP_CAP} reached (${total} hits)`, detail: String(total) });
    }
    if (skippedNote) out.push(skippedNote.trim());
    return ok(out.join('\n'), notes);
  },
});
