/**
 * What drifted between old_str and the place an inexact rung matched. The rungs are cumulative,
 * so the rung that matched says only how loose the search had to be, not what differed: a
 * blank-line match may have tolerated indentation too, or only indentation when the indent rung
 * is off. Each kind of drift is read from the matched lines themselves, and the note names every
 * drift found and only those.
 */
import { detectEol, indentOf, isBlank, type LineTable, type SplitText } from './lines.ts';
import { plainPunctuation, type LineRung } from './normalize.ts';
import type { Note } from '../result.ts';
import type { MatchSpan, RungId } from './types.ts';

/** The kinds of drift in ladder order (each named after the rung that tolerates it). */
const DRIFT_ORDER: readonly LineRung[] = ['trailing-ws', 'indent', 'blank-lines', 'quotes-dashes', 'anchors'];

/** The note appended to a successful edit for each single drift (the spec's texts; quote/dash in the same style). */
export const RUNG_NOTES: Readonly<Record<LineRung, string>> = {
  'trailing-ws': '[matched ignoring trailing whitespace — your old_str had different line endings]',
  indent: '[matched after normalizing indentation — your old_str was indented differently]',
  'blank-lines': '[matched ignoring blank lines — your old_str had different blank-line spacing]',
  'quotes-dashes':
    '[matched ignoring quote and dash style — your old_str had curly quotes or long dashes where the file has plain ones, or the reverse]',
  anchors:
    '[matched on first+last line anchors — the middle of your old_str did not match exactly; verify the result with ws_read]',
};

/** How the match got past each drift, and what old_str had, for a note naming several. */
const HOW: Readonly<Record<LineRung, string>> = {
  'trailing-ws': 'ignoring trailing whitespace',
  indent: 'after normalizing indentation',
  'blank-lines': 'ignoring blank lines',
  'quotes-dashes': 'ignoring quote and dash style',
  anchors: 'on first+last line anchors',
};
const HAD: Readonly<Record<Exclude<LineRung, 'anchors'>, string>> = {
  'trailing-ws': 'had different trailing whitespace or line endings',
  indent: 'was indented differently',
  'blank-lines': 'had different blank-line spacing',
  'quotes-dashes': 'had curly quotes or long dashes where the file has plain ones, or the reverse',
};

function list(items: readonly string[]): string {
  return items.length > 1 ? `${items.slice(0, -1).join(', ')} and ${items.at(-1)}` : (items[0] ?? '');
}

/** The note for a match that tolerated `drifts` (in ladder order): the spec's own text for one drift. */
export function driftNote(drifts: readonly LineRung[]): string {
  if (drifts.length === 1) return RUNG_NOTES[drifts[0]!];
  const had = drifts.filter((d): d is Exclude<LineRung, 'anchors'> => d !== 'anchors').map((d) => HAD[d]);
  const middle = drifts.includes('anchors')
    ? ', and its middle did not match exactly; verify the result with ws_read'
    : '';
  return `[matched ${list(drifts.map((d) => HOW[d]))} — your old_str ${list(had)}${middle}]`;
}

/**
 * The result notes of a match found by `rung` that tolerated `drifts`: one per drift (detail: the
 * drift), so the run's chart and the edit-format bandit count each one. `where` prefixes the text.
 */
export function driftNotes(rung: RungId, drifts: readonly LineRung[], where = ''): Note[] {
  return drifts.map((d) => ({
    kind: 'rung',
    text: d === rung ? `${where}matched by the ${d} rung` : `${where}${d} drift tolerated by the ${rung} rung`,
    detail: d,
  }));
}

/** Every drift any of `sets` names, once, in ladder order. */
export function allDrifts(sets: Iterable<readonly LineRung[]>): LineRung[] {
  const seen = new Set<LineRung>();
  for (const s of sets) for (const d of s) seen.add(d);
  return DRIFT_ORDER.filter((d) => seen.has(d));
}

const plainTrim = (s: string): string => plainPunctuation(s).trim();
const trailingOf = (s: string): string => s.slice(s.trimEnd().length);

function leadingBlanks(ls: readonly string[]): number {
  let n = 0;
  while (n < ls.length && isBlank(ls[n]!)) n++;
  return n;
}

/** Blank lines between consecutive non-blank lines, e.g. "0,1,0". */
function gaps(ls: readonly string[]): string {
  const out: number[] = [];
  let run = -1;
  for (const l of ls) {
    if (!isBlank(l)) {
      if (run >= 0) out.push(run);
      run = 0;
    } else if (run >= 0) run++;
  }
  return out.join(',');
}

/** Blank lines of the file right next to line index `from`, walking by `step`, at most `max`. */
function blanksBeside(table: LineTable, from: number, step: 1 | -1, max: number): number {
  let n = 0;
  for (let i = from; n < max && i >= 0 && i < table.count && isBlank(table.line(i)); i += step) n++;
  return n;
}

/**
 * The drifts between old_str and the file lines of `span` that the match found by `rung`
 * tolerated. Lines are compared pairwise when both sides have as many non-blank lines, else by
 * their first and last lines (the anchors); a pair that differs in its words is the anchors'
 * drift (a misremembered line) and shows nothing else.
 */
export function driftsOf(
  rung: LineRung,
  old: SplitText,
  oldStr: string,
  table: LineTable,
  span: MatchSpan,
): LineRung[] {
  const found = new Set<LineRung>();
  if (rung === 'anchors') found.add('anchors');
  const fileLines: string[] = [];
  for (let i = span.startLine - 1; i <= span.endLine - 1; i++) fileLines.push(table.line(i));
  const oldSolid = old.lines.filter((l) => !isBlank(l));
  const fileSolid = fileLines.filter((l) => !isBlank(l));
  const sameCount = oldSolid.length === fileSolid.length;
  const pairs: [string, string][] = sameCount
    ? oldSolid.map((l, i) => [l, fileSolid[i]!])
    : [
        [oldSolid[0] ?? '', fileSolid[0] ?? ''],
        [oldSolid.at(-1) ?? '', fileSolid.at(-1) ?? ''],
      ];
  for (const [o, f] of pairs) {
    if (plainTrim(o) !== plainTrim(f)) continue;
    if (indentOf(o) !== indentOf(f)) found.add('indent');
    if (trailingOf(o) !== trailingOf(f)) found.add('trailing-ws');
    if (o.trim() !== f.trim()) found.add('quotes-dashes');
  }
  if (oldStr.includes('\n') && detectEol(oldStr) !== table.eol) found.add('trailing-ws');
  // Blank lines: between the lines, and old_str's own leading or trailing ones the file lacks there.
  const lead = leadingBlanks(old.lines);
  const trail = leadingBlanks([...old.lines].reverse());
  const fileLead = leadingBlanks(fileLines);
  const fileTrail = leadingBlanks([...fileLines].reverse());
  const blankDrift =
    (sameCount && gaps(old.lines) !== gaps(fileLines)) ||
    (lead > fileLead && fileLead + blanksBeside(table, span.startLine - 2, -1, lead) < lead) ||
    (trail > fileTrail && fileTrail + blanksBeside(table, span.endLine, 1, trail) < trail);
  if (blankDrift) found.add('blank-lines');
  if (found.size === 0) found.add(rung);
  return DRIFT_ORDER.filter((d) => found.has(d));
}
