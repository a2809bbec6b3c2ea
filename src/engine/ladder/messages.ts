/**
 * The texts the model reads when the ladder does not give exactly one place: found N times
 * (exact), ambiguous (an inexact rung), and not found with the closest span quoted. Shared by
 * ws_edit and ws_patch so both say the same thing the same way.
 */
import { plainPunctuation } from './normalize.ts';
import { RUNG_NAMES } from './ladder.ts';
import type { ClosestSpan, LadderOptions, MatchSpan, RungId } from './types.ts';

/** How many places a message lists before "and N more". */
const LISTED_PLACES = 8;
/** Lines of the closest span quoted in a hint. */
const QUOTED_LINES = 12;
const QUOTED_LINE_CHARS = 160;

function range(s: MatchSpan): string {
  return s.startLine === s.endLine ? `${s.startLine}` : `${s.startLine}–${s.endLine}`;
}

/** "12, 40, 77" or "10–12, 40–42", capped with "and N more". */
export function placeList(spans: readonly MatchSpan[]): string {
  const shown = spans.slice(0, LISTED_PLACES).map(range).join(', ');
  return spans.length > LISTED_PLACES ? `${shown} and ${spans.length - LISTED_PLACES} more` : shown;
}

/** The spec's refusal for an exact old_str that occurs more than once. */
export function foundTimesText(path: string, spans: readonly MatchSpan[]): string {
  return (
    `old_str found ${spans.length} times in ${path} (at lines ${placeList(spans)}) — an edit must change one place. ` +
    `pass replace_all:true, or include more surrounding context (2–3 lines before or after) so old_str matches exactly one place. ` +
    `Nothing was changed. Do NOT use ws_write.`
  );
}

/** The spec's refusal for an inexact rung that found more than one place. */
export function ambiguousText(path: string, rung: RungId, spans: readonly MatchSpan[]): string {
  return (
    `Ambiguous edit refused — the search text matches ${spans.length} places in ${path} (lines ${placeList(spans)}) ` +
    `with the ${RUNG_NAMES[rung]} match, and an ambiguous edit is a wrong edit. Nothing was changed. ` +
    `Copy old_str exactly from ws_read (without the line numbers) and include 2–3 more lines so it matches one place, ` +
    `or pass replace_all:true to change every place.`
  );
}

function clip(line: string): string {
  return line.length > QUOTED_LINE_CHARS ? `${line.slice(0, QUOTED_LINE_CHARS)}…` : line;
}

/** The first line where the closest span and old_str differ (compared without indentation or quote style). */
function firstDifference(closest: ClosestSpan, oldLines: readonly string[]): string | undefined {
  const fileLines = closest.text.split('\n');
  const key = (l: string) => plainPunctuation(l).trim();
  for (let k = 0; k < Math.min(fileLines.length, oldLines.length); k++) {
    if (key(fileLines[k]!) !== key(oldLines[k]!)) {
      return (
        `First difference — line ${closest.startLine + k} of the file is:\n  ${clip(fileLines[k]!.trim())}\n` +
        `but your old_str has:\n  ${clip(oldLines[k]!.trim())}`
      );
    }
  }
  return undefined;
}

/**
 * Not found: what was tried, the closest span quoted with its line numbers (when anything is
 * alike), and the recovery — re-read with ws_read, then retry with old_str copied exactly.
 */
/** Who is asking: the searched text's name and the tool to retry (ws_edit's old_str, or a ws_patch hunk). */
export interface SearchSubject {
  readonly name: string;
  readonly retry: string;
}

export const OLD_STR_SUBJECT: SearchSubject = {
  name: 'old_str',
  retry: 'retry ws_edit with old_str copied exactly from it',
};

/** Which rungs a search walked: ws_edit's and ws_patch's ladder settings. */
export type LadderTried = Pick<LadderOptions, 'tolerance' | 'disabled'>;

/** What each looser rung ignores, for the not-found message. */
const IGNORED: Readonly<Record<Exclude<RungId, 'exact' | 'anchors'>, string>> = {
  'trailing-ws': 'trailing whitespace',
  indent: 'indentation',
  'blank-lines': 'blank lines',
  'quotes-dashes': 'quote/dash style',
};

/** "not even after ignoring …, nor by its first and last lines", naming only the rungs that ran. */
function triedText(tried: LadderTried, name: string): string {
  if (!tried.tolerance) return `and edit_tolerance is off, so ${name} must match the file byte for byte`;
  const on = (r: RungId) => !tried.disabled.includes(r);
  const ignored = (Object.keys(IGNORED) as (keyof typeof IGNORED)[]).filter(on).map((r) => IGNORED[r]);
  const parts: string[] = [];
  if (ignored.length)
    parts.push(
      `not even after ignoring ${ignored.length > 1 ? `${ignored.slice(0, -1).join(', ')} and ${ignored.at(-1)}` : ignored[0]}`,
    );
  if (on('anchors'))
    parts.push(parts.length ? 'nor by its first and last lines' : 'not even by its first and last lines');
  return parts.length
    ? parts.join(', ')
    : `and every looser rung is switched off (disabled_rungs), so ${name} must match the file byte for byte`;
}

export function notFoundText(
  path: string,
  oldStr: string,
  closest: ClosestSpan | undefined,
  tried: LadderTried,
  subject: SearchSubject = OLD_STR_SUBJECT,
): string {
  const how = triedText(tried, subject.name);
  const head = `${subject.name} not found in ${path} — no exact match, ${how}. Nothing was changed.`;
  if (!closest) {
    return (
      `${head}\nNothing in the file resembles ${subject.name}. ws_read ${JSON.stringify({ path })} (or ws_grep for a distinctive line) to see the current text, ` +
      `then ${subject.retry}, without the line numbers.`
    );
  }
  const shown = closest.text.split('\n');
  const quoted = shown.slice(0, QUOTED_LINES).map(clip).join('\n');
  const more = shown.length > QUOTED_LINES ? `\n… (${shown.length - QUOTED_LINES} more lines)` : '';
  const offset = Math.max(1, closest.startLine - 3);
  const limit = closest.endLine - offset + 4;
  const diff = firstDifference(closest, oldStr.split(/\r?\n/));
  return [
    head,
    `The closest text is lines ${closest.startLine}–${closest.endLine} (${Math.round(closest.similarity * 100)}% similar):`,
    quoted + more,
    ...(diff ? [diff] : []),
    `Re-read those lines with ws_read ${JSON.stringify({ path, offset, limit })}, then ${subject.retry.replace(' from it', ' from the file')}, without the line numbers.`,
  ].join('\n');
}
