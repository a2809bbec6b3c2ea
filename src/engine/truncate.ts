/**
 * Honest truncation: keep the head and the tail, cut the middle, and say how much was cut and
 * how to ask for less. A single oversized result must never evict the rest of the conversation.
 *
 * What a result cannot be read without is never cut: its first line (ws_read's and ws_test's
 * header, with the tally), its last line (a command's `[exit code N]`) and the truncation note.
 * A cap below what those need is raised to it, and the note says so.
 */

/** A first or last line longer than this is not kept whole: it is ordinary text to cut. */
export const KEPT_LINE_CHARS = 300;

/**
 * The smallest cap that keeps a result's header, last line and note in the widest case: a
 * settings form's minimum. A cap below it still works; it is raised for the results that need it.
 */
export const MIN_USEFUL_CAP = 2 * KEPT_LINE_CHARS + 400;

export interface Truncated {
  readonly text: string;
  readonly truncated: boolean;
  /** Characters of the original text. */
  readonly total: number;
  /** Characters dropped from the middle. */
  readonly omitted: number;
}

/**
 * The steering text appended to every truncated result. `wroteBytes`: the text is itself the
 * head and tail a command's output was capped to while it ran, and this is what it wrote in all.
 */
function truncationNote(total: number, omitted: number, cap: number, wroteBytes?: number, asked?: number): string {
  const size =
    wroteBytes === undefined
      ? `${total} characters in total, the middle ${omitted} omitted`
      : `the command wrote ${wroteBytes} bytes, of which the ${total} characters at its beginning and end were kept while it ran; the middle ${omitted} of those are omitted here`;
  const raised =
    asked === undefined
      ? ''
      : ` (the cap of ${asked} was raised to ${cap}: less would cut the result's first line, its last line or this note)`;
  return (
    `[output truncated: ${size} to stay within ${cap}${raised}. ` +
    `Narrow the request — ws_read with offset=/limit=, ws_grep with a tighter pattern or path=, or a command with less output.]`
  );
}

/**
 * Caps `text` at `cap` characters including the marker and the note. Cuts on line boundaries
 * where one is near, so the kept head and tail stay readable.
 */
export function truncateHeadTail(text: string, cap: number, wroteBytes?: number): Truncated {
  if (text.length <= cap) return { text, truncated: false, total: text.length, omitted: 0 };
  const { first, last } = keptLines(text);
  // The marker's and the note's lengths depend on the numbers in them; reserve for the widest case.
  const reserve = (c: number, asked?: number) =>
    omittedMarker(text.length).length + 1 + truncationNote(text.length, text.length, c, wroteBytes, asked).length;
  let effective = cap;
  let asked: number | undefined;
  if (cap < first + last + reserve(cap)) {
    asked = cap;
    // The note names the raised cap, whose digits count too: settle on a cap that holds it.
    effective = first + last + reserve(text.length, cap);
    if (text.length <= effective) return { text, truncated: false, total: text.length, omitted: 0 };
  }
  const budget = Math.max(0, effective - reserve(effective, asked));
  let headLen = Math.ceil(budget * 0.6);
  let tailLen = budget - headLen;
  const nl = text.lastIndexOf('\n', headLen);
  if (nl > headLen * 0.8) headLen = nl + 1;
  const tailStart = text.length - tailLen;
  const nl2 = text.indexOf('\n', tailStart);
  if (nl2 >= 0 && nl2 - tailStart < tailLen * 0.2) tailLen = text.length - (nl2 + 1);
  // Never inside the first or the last line: the one taken from the other side's share.
  if (headLen < first) [headLen, tailLen] = [first, Math.max(last, budget - first)];
  else if (tailLen < last) [headLen, tailLen] = [Math.max(first, budget - last), last];
  const omitted = text.length - headLen - tailLen;
  const out =
    text.slice(0, headLen) +
    omittedMarker(omitted) +
    text.slice(text.length - tailLen) +
    '\n' +
    truncationNote(text.length, omitted, effective, wroteBytes, asked);
  return { text: out, truncated: true, total: text.length, omitted };
}

/** The characters of the first line (with its newline) and of the last line that are kept whole; 0 for a line over KEPT_LINE_CHARS. */
function keptLines(text: string): { readonly first: number; readonly last: number } {
  const nl = text.indexOf('\n');
  const first = nl < 0 ? 0 : nl + 1;
  const lastNl = text.lastIndexOf('\n', text.length - 2);
  const last = lastNl < 0 || lastNl < first ? 0 : text.length - (lastNl + 1);
  return { first: first <= KEPT_LINE_CHARS ? first : 0, last: last <= KEPT_LINE_CHARS ? last : 0 };
}

function omittedMarker(omitted: number): string {
  return `\n… [${omitted} characters omitted] …\n`;
}
