/**
 * The per-hunk report: one line per hunk saying where it anchored and by which rung
 * (`hunk 1: anchored@120..164 exact`), or why it failed, with the closest span when nothing
 * matched. A refused patch lists every hunk — the ones that would have applied too — so the
 * model can fix the failed ones and send the whole patch again.
 */
import {
  notFoundText,
  placeList,
  type SearchSubject,
  type LadderTried,
  RUNG_NAMES,
  driftNote,
  type MatchSpan,
} from '../ladder/index.ts';
import type { HunkFailure, HunkOutcome } from './apply.ts';
import { AnchorWindowLines } from './locate.ts';

/** What the report needs of one file. */
export interface FileReport {
  readonly display: string;
  readonly mode: 'modify' | 'create' | 'delete';
  readonly outcomes: readonly HunkOutcome[];
}

function plural(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}

function lines(s: MatchSpan): string {
  return s.startLine === s.endLine ? `line ${s.startLine}` : `lines ${s.startLine}–${s.endLine}`;
}

/** One hunk's line in a report. */
function hunkLine(index: number, outcome: HunkOutcome, path: string, tried: LadderTried): string {
  const head = `hunk ${index}:`;
  switch (outcome.kind) {
    case 'anchored': {
      let s = `${head} anchored@${outcome.startLine}..${outcome.endLine} ${RUNG_NAMES[outcome.rung]}`;
      if (outcome.scope === 'file' && outcome.header !== undefined) {
        s += ` (its @@ line ${outcome.header} is ${Math.abs(outcome.startLine - outcome.header)} lines off; found by searching the whole file)`;
      }
      return outcome.gutter ? `${s} (read gutter stripped)` : s;
    }
    case 'inserted':
      return `${head} inserted ${plural(outcome.lines, 'line')} ${outcome.afterLine === 0 ? 'at the top' : `after line ${outcome.afterLine}`}`;
    case 'failed':
      return `${head} FAILED — ${failureText(outcome.failure, path, tried)}`;
    default: {
      const never: never = outcome;
      throw new Error(`hunkLine: unhandled ${JSON.stringify(never)}`);
    }
  }
}

/** How not-found messages name a hunk's old side and the retry. */
const HUNK_SUBJECT: SearchSubject = {
  name: "the hunk's context and - lines",
  retry: 'retry ws_patch with the context and - lines copied exactly from it (or use ws_edit for a single change)',
};

/** Why a hunk failed, and what to do about it. */
export function failureText(f: HunkFailure, path: string, tried: LadderTried): string {
  switch (f.kind) {
    case 'not-found':
      return `its context and - lines are not in ${path}.\n${notFoundText(path, f.oldText, f.closest, tried, HUNK_SUBJECT)}`;
    case 'ambiguous': {
      const where =
        f.scope === 'window' && f.header !== undefined
          ? `within ±${AnchorWindowLines} lines of its @@ line ${f.header}`
          : `in ${path}`;
      const more = 'Add 2–3 more unchanged lines around the change (as context) so it matches exactly one place.';
      if (f.rung === 'exact') {
        return `found ${f.spans.length} times ${where} (at lines ${placeList(f.spans)}) — a hunk must change one place. ${more}`;
      }
      return (
        `Ambiguous edit refused — the search text matches ${f.spans.length} places ${where} (lines ${placeList(f.spans)}) with the ${RUNG_NAMES[f.rung]} match, ` +
        `and an ambiguous edit is a wrong edit. Copy the lines exactly from ws_read (without the line numbers). ${more}`
      );
    }
    case 'conflict': {
      const how = f.far.rung === 'exact' ? 'exactly' : `with the stricter ${RUNG_NAMES[f.far.rung]} match`;
      return (
        `near its @@ line ${f.header} it matches ${lines(f.near.span)} only with the ${RUNG_NAMES[f.near.rung]} match, but lines ${placeList(f.far.spans)} match it ${how}, ` +
        `so it is not clear which place is meant. Correct the @@ line number, or copy the lines exactly from the place you mean.`
      );
    }
    case 'partial-gutter': {
      const p = f.plan;
      const which = p.side === 'old' ? 'context and - lines' : '+ lines';
      const example = p.example
        ? `\n  before: ${JSON.stringify(p.example.before)}\n  after:  ${JSON.stringify(p.example.after)}`
        : '';
      return (
        `its ${which} carry ws_read line numbers (the "42|" gutter) on ${p.marked} of their ${p.of} non-blank lines but not on the others, ` +
        `so they are neither the file's text nor a clean paste of a read. The gutter is display only: remove it from every line of the hunk.${example}`
      );
    }
    case 'insert-range':
      return (
        `it inserts after line ${f.afterLine} (nothing removed, so only its @@ line places it), but ${path} has ${plural(f.lineCount, 'line')}. ` +
        `Take the line number from ws_read, or add 2–3 unchanged lines as context so the hunk is found by its text.`
      );
    case 'no-anchor':
      return (
        `it has no context or - lines and no @@ line number, so it names no place in ${path}. ` +
        `Add 2–3 unchanged lines next to where the new lines go: as " " context lines in a diff, or in the SEARCH part (repeated in the REPLACE part) of a block.`
      );
    case 'not-tried':
      return `not looked for: ${plural(f.failedBefore, 'hunk')} before it did not apply, so the patch cannot apply as it is. Fix those hunks and send the whole patch again.`;
    default: {
      const never: never = f;
      throw new Error(`failureText: unhandled ${JSON.stringify(never)}`);
    }
  }
}

/** The drift note of every hunk that matched inexactly, each distinct note once (the spec's texts for a single drift). */
export function rungNotes(files: readonly FileReport[]): string[] {
  const notes = new Set<string>();
  for (const f of files)
    for (const o of f.outcomes) if (o.kind === 'anchored' && o.drifts.length) notes.add(driftNote(o.drifts));
  return [...notes];
}

/** The success text: per file `patched PATH (N hunk(s))` (or created / deleted) and its hunk lines. */
export function successText(files: readonly FileReport[], tried: LadderTried): string {
  const out: string[] = [];
  for (const f of files) {
    const n = f.outcomes.length;
    if (f.mode === 'create') out.push(`created ${f.display} (${n} hunk(s))`);
    else if (f.mode === 'delete') out.push(`deleted ${f.display} (${n} hunk(s) removed all of its lines)`);
    else out.push(`patched ${f.display} (${n} hunk(s))`);
    f.outcomes.forEach((o, i) => out.push(hunkLine(i + 1, o, f.display, tried)));
  }
  return out.join('\n');
}

/** The refusal text when any hunk failed: nothing was written, every hunk's line, and the recovery. */
export function failedText(files: readonly FileReport[], tried: LadderTried): string {
  const total = files.reduce((n, f) => n + f.outcomes.length, 0);
  const failedFiles = files.filter((f) => f.outcomes.some((o) => o.kind === 'failed'));
  const failed = failedFiles.reduce((n, f) => n + f.outcomes.filter((o) => o.kind === 'failed').length, 0);
  const where = files.length === 1 ? `to ${files[0]!.display}` : `(in ${failedFiles.map((f) => f.display).join(', ')})`;
  const nothing =
    files.length === 1 ? 'nothing was written' : `nothing was written to any of its ${files.length} files`;
  const out = [
    `Patch refused — ${failed} of ${plural(total, 'hunk')} did not apply ${where}, so ${nothing}: a patch applies whole or not at all.`,
  ];
  for (const f of files) {
    if (files.length > 1) out.push(`${f.display}:`);
    f.outcomes.forEach((o, i) => out.push(hunkLine(i + 1, o, f.display, tried)));
  }
  out.push(
    failed === 1
      ? 'Fix the failed hunk and send the whole patch again (ws_read the lines named above first), or make that change with ws_edit.'
      : 'Fix the failed hunks and send the whole patch again (ws_read the lines named above first), or make each change with ws_edit.',
  );
  return out.join('\n');
}
