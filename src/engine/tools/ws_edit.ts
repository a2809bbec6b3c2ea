/**
 * ws_edit: replace old_str with new_str, uniquely. The order of checks is the order of the
 * spec's refusals: an empty or no-op edit, the jail, a missing path or a directory, the
 * over-edit guard, then the match — exact first; if that misses, a read gutter (stripped when it
 * is on every line, refused when on some), then the match ladder. One place is edited; several
 * are refused unless replace_all says to change them all.
 */
import { z } from 'zod';
import { defineTool } from '../tool.ts';
import type { ToolContext } from '../context.ts';
import { fail, firstLine, ok, refusal, type Note, type ToolResult } from '../result.ts';
import { splitLines } from '../text.ts';
import { commitText, openText } from '../file-io.ts';
import { scanGutter, stripMatchingGutter, gutterExample, type GutterStyle } from '../gutter.ts';
import {
  ambiguousText,
  findMatch,
  foundTimesText,
  notFoundText,
  replaceSpans,
  toRungIds,
  allDrifts,
  driftNote,
  driftNotes,
  type LadderCandidate,
  type LadderTried,
  type LadderMatch,
} from '../ladder/index.ts';

/** The note appended when a read gutter was stripped (the spec's text). */
export const GUTTER_NOTE = '[stripped ws_read line numbers from old_str — do not include them]';
/** The spec's no-op refusal. */
export const NO_OP_TEXT = 'No-op edit refused — old_str and new_str are identical.';
/** The over-edit guard looks at files of at least this many lines… */
export const OVER_EDIT_MIN_LINES = 40;
/** …and refuses an old_str spanning at least this share of them. */
export const OVER_EDIT_SHARE = 0.8;
/** Consecutive misses on one file after which the message points at ws_replace_lines. */
export const MISSES_BEFORE_LINE_EDIT = 2;

const schema = z.object({
  path: z.string().describe('File to edit, relative to the project root.'),
  old_str: z
    .string()
    .describe(
      'The exact text to replace, copied from ws_read without the line-number gutter; must identify one place.',
    ),
  new_str: z.string().describe('The text to put in its place.'),
  replace_all: z
    .boolean()
    .optional()
    .describe('Replace every place old_str matches instead of refusing when it matches more than one.'),
});

type EditArgs = z.output<typeof schema>;

export const wsEdit = defineTool({
  name: 'ws_edit',
  summary: 'Replace old_str with new_str, uniquely',
  writes: true,
  schema,
  aliases: {
    old_string: 'old_str',
    search: 'old_str',
    old: 'old_str',
    new_string: 'new_str',
    replace: 'new_str',
    new: 'new_str',
  },
  run: runEdit,
});

export function emptyOldStrText(path: string): string {
  return (
    `Edit refused — old_str is empty or only whitespace, so it names no place in ${path}. Nothing was changed. Say what you mean:\n` +
    `• create a new file → use ws_write with the whole content;\n` +
    `• append to the file → anchor on its last 2–3 lines: old_str = those lines, new_str = those lines followed by the new text;\n` +
    `• insert text → anchor on 2–3 lines next to the insertion point: old_str = the anchor, new_str = the anchor repeated with your text before or after it.`
  );
}

function overEditText(path: string, oldLines: number, fileLines: number): string {
  return (
    `Over-edit refused — old_str spans ${oldLines} of the ${fileLines} lines of ${path}: that is a whole-file rewrite, which ws_edit does not do ` +
    `(over_edit_guard). Nothing was changed. To replace the whole file use ws_write (after reading it this session); ` +
    `to rewrite a block use ws_replace_lines {path, start, end, new, hash} with the line numbers and #tag from ws_read; ` +
    `or make old_str just the lines that change plus 2–3 lines of context.`
  );
}

function partialGutterText(path: string, oldStr: string, style: GutterStyle, marked: number, of: number): string {
  const ex = gutterExample(oldStr, style);
  const example = ex ? `\n  before: ${JSON.stringify(ex.before)}\n  after:  ${JSON.stringify(ex.after)}` : '';
  return (
    `Edit refused — old_str has ws_read line numbers (the "42|" gutter) on ${marked} of its ${of} non-blank lines but not on the others, ` +
    `so it is neither the file's text nor a clean paste of a read. Nothing was changed in ${path}. ` +
    `The gutter is display only: remove it from every line of old_str (and of new_str).${example}\n` +
    `Then retry ws_edit with old_str copied exactly from the file.`
  );
}

function lineEditPointer(path: string, misses: number): string {
  return (
    `\nThis is miss #${misses} in a row on ${path}. Stop re-sending old_str: ws_read ${JSON.stringify({ path })} to see the current lines, ` +
    `then change them with ws_replace_lines {path, start, end, new, hash} — start/end are the line numbers ws_read shows, ` +
    `new is only the new lines, and hash is the tag in its header [${path}#TAG: lines a-b of n].`
  );
}

/** Why a gutter on every line of old_str was left in place: the setting that is off. */
function gutterKeptText(setting: 'edit_tolerance' | 'gutter_strip'): string {
  return (
    `old_str carries ws_read line numbers on every line. They are display only and ${setting} is off, so they are not ` +
    'stripped for you: remove them from old_str and new_str.'
  );
}

/** What to search for and what to put in its place, after a read gutter is dealt with. */
type Search =
  | {
      readonly ok: true;
      readonly search: string;
      readonly replacement: string;
      readonly gutter: boolean;
      readonly gutterKept: 'edit_tolerance' | 'gutter_strip' | null;
    }
  | { readonly ok: false; readonly result: ToolResult };

/**
 * A gutter only matters when old_str is not in the file as written: on every line it is
 * stripped (from new_str too when new_str carries it), on some lines it is refused.
 */
function planSearch(ctx: ToolContext, key: string, path: string, before: string, args: EditArgs): Search {
  const plain: Search = { ok: true, search: args.old_str, replacement: args.new_str, gutter: false, gutterKept: null };
  if (before.includes(args.old_str)) return plain;
  const gutter = scanGutter(args.old_str);
  switch (gutter.kind) {
    case 'none':
      return plain;
    case 'partial':
      return {
        ok: false,
        result: miss(
          ctx,
          key,
          path,
          partialGutterText(path, args.old_str, gutter.style, gutter.lines.length, gutter.of),
          'partial-gutter',
        ),
      };
    case 'all': {
      if (!ctx.settings.edit_tolerance) return { ...plain, gutterKept: 'edit_tolerance' };
      if (!ctx.settings.gutter_strip) return { ...plain, gutterKept: 'gutter_strip' };
      const replacement = stripMatchingGutter(args.new_str, gutter.style);
      if (gutter.stripped.trim() === '') return { ok: false, result: refusal(emptyOldStrText(path), 'empty-old-str') };
      if (gutter.stripped === replacement) {
        return {
          ok: false,
          result: refusal(
            `${NO_OP_TEXT} (once the ws_read line numbers are removed from both) Put the changed text in new_str.`,
            'no-op',
          ),
        };
      }
      return { ok: true, search: gutter.stripped, replacement, gutter: true, gutterKept: null };
    }
    default: {
      const never: never = gutter;
      throw new Error(`unhandled gutter scan ${JSON.stringify(never)}`);
    }
  }
}

async function runEdit(args: EditArgs, ctx: ToolContext): Promise<ToolResult> {
  if (args.old_str.trim() === '') return refusal(emptyOldStrText(args.path), 'empty-old-str');
  if (args.old_str === args.new_str) return refusal(`${NO_OP_TEXT} Put the changed text in new_str.`, 'no-op');

  const opened = await openText(ctx, args.path, 'write', 'ws_edit');
  if (!opened.ok) return opened.result;
  const { file, text: before } = opened;
  const path = file.display;

  if (ctx.settings.over_edit_guard) {
    const fileLines = splitLines(before).length;
    const oldLines = splitLines(args.old_str).length;
    if (fileLines >= OVER_EDIT_MIN_LINES && oldLines >= fileLines * OVER_EDIT_SHARE) {
      return refusal(overEditText(path, oldLines, fileLines), 'over-edit');
    }
  }

  const plan = planSearch(ctx, file.path, path, before, args);
  if (!plan.ok) return plan.result;
  const opts = { tolerance: ctx.settings.edit_tolerance, disabled: toRungIds(ctx.settings.disabled_rungs) };
  let { replacement, gutter } = plan;
  let match = findMatch(before, plan.search, opts);
  if (gutter && match.kind === 'none') {
    // Numbers that belong to the text after all: old_str as written may still match.
    const raw = findMatch(before, args.old_str, opts);
    if (raw.kind !== 'none') {
      match = raw;
      replacement = args.new_str;
      gutter = false;
    }
  }
  const notes: Note[] = gutter
    ? [{ kind: 'gutter-stripped', text: 'stripped the read gutter from old_str', detail: 'gutter' }]
    : [];

  // One place is edited; several only with replace_all (every place that rung found).
  if (match.kind === 'none' || (match.kind === 'ambiguous' && args.replace_all !== true)) {
    return missResult(ctx, file.path, path, match, plan.search, opts, notes, plan.gutterKept);
  }
  const edits: readonly LadderCandidate[] = match.kind === 'unique' ? [match] : match.candidates;

  const after = replaceSpans(
    before,
    edits.map((c) => ({ span: c.span, text: c.adapt(replacement) })),
  );
  if (after === before) {
    return refusal(
      `${NO_OP_TEXT} (new_str, fitted to the file, is the text already there) Nothing was changed; put the changed text in new_str.`,
      'no-op',
    );
  }
  const committed = await commitText(ctx, 'ws_edit', file, before, after);
  if (!committed.ok) return committed.result;
  ctx.state.clearEditMisses(file.path);
  notes.push(...committed.committed.notes);
  let text = `edited ${path} (${edits.length} replacement(s))`;
  const drifts = allDrifts(edits.map((c) => c.drifts));
  if (drifts.length) {
    text += ` ${driftNote(drifts)}`;
    notes.push(...driftNotes(match.rung, drifts));
  }
  if (gutter) text += ` ${GUTTER_NOTE}`;
  return ok(text, notes, committed.committed.changes);
}

/** The refusal for a match that was not one place: found N times, ambiguous, or not found with the closest span. */
function missResult(
  ctx: ToolContext,
  key: string,
  path: string,
  match: Exclude<LadderMatch, { kind: 'unique' }>,
  search: string,
  tried: LadderTried,
  notes: Note[],
  gutterKept: 'edit_tolerance' | 'gutter_strip' | null,
): ToolResult {
  if (match.kind === 'ambiguous') {
    return match.rung === 'exact'
      ? miss(ctx, key, path, foundTimesText(path, match.spans), 'found-n-times', notes)
      : miss(ctx, key, path, ambiguousText(path, match.rung, match.spans), 'ambiguous', notes);
  }
  const hint: Note[] = match.closest
    ? [
        {
          kind: 'hint',
          text: `closest span: lines ${match.closest.startLine}–${match.closest.endLine}`,
          detail: 'closest',
        },
      ]
    : [];
  const text = notFoundText(path, search, match.closest, tried) + (gutterKept ? `\n${gutterKeptText(gutterKept)}` : '');
  return miss(ctx, key, path, text, 'not-found', [...notes, ...hint]);
}

/** A refusal that counts as a miss on the file; from the second miss in a row it points at ws_replace_lines. */
function miss(ctx: ToolContext, key: string, path: string, text: string, rule: string, notes: Note[] = []): ToolResult {
  const misses = ctx.state.noteEditMiss(key);
  const pointer: Note[] = [];
  let out = text;
  if (misses >= MISSES_BEFORE_LINE_EDIT) {
    out += lineEditPointer(path, misses);
    pointer.push({
      kind: 'hint',
      text: `miss #${misses} on ${path}: pointed at ws_replace_lines`,
      detail: 'replace-lines',
    });
  }
  return fail(out, [...notes, { kind: 'refusal', text: firstLine(text), detail: rule }, ...pointer]);
}
