/**
 * Honest truncation: keep the head and the tail, cut the middle, and say how much was cut and
 * how to ask for less. A single oversized result must never evict the rest of the conversation.
 */

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
function truncationNote(total: number, omitted: number, cap: number, wroteBytes?: number): string {
  const size =
    wroteBytes === undefined
      ? `${total} characters in total, the middle ${omitted} omitted`
      : `the command wrote ${wroteBytes} bytes, of which the ${total} characters at its beginning and end were kept while it ran; the middle ${omitted} of those are omitted here`;
  return (
    `[output truncated: ${size} to stay within ${cap}. ` +
    `Narrow the request — ws_read with offset=/limit=, ws_grep with a tighter pattern or path=, or a command with less output.]`
  );
}

/**
 * Caps `text` at `cap` characters including the marker and the note. Cuts on line boundaries
 * where one is near, so the kept head and tail stay readable.
 */
export function truncateHeadTail(text: string, cap: number, wroteBytes?: number): Truncated {
  if (text.length <= cap) return { text, truncated: false, total: text.length, omitted: 0 };
  // The marker's and the note's lengths depend on the numbers in them; reserve for the widest case.
  const reserve =
    omittedMarker(text.length).length + 1 + truncationNote(text.length, text.length, cap, wroteBytes).length;
  const budget = Math.max(0, cap - reserve);
  let headLen = Math.ceil(budget * 0.6);
  let tailLen = budget - headLen;
  const nl = text.lastIndexOf('\n', headLen);
  if (nl > headLen * 0.8) headLen = nl + 1;
  const tailStart = text.length - tailLen;
  const nl2 = text.indexOf('\n', tailStart);
  if (nl2 >= 0 && nl2 - tailStart < tailLen * 0.2) tailLen = text.length - (nl2 + 1);
  const omitted = text.length - headLen - tailLen;
  const out =
    text.slice(0, headLen) +
    omittedMarker(omitted) +
    text.slice(text.length - tailLen) +
    '\n' +
    truncationNote(text.length, omitted, cap, wroteBytes);
  return { text: out, truncated: true, total: text.length, omitted };
}

function omittedMarker(omitted: number): string {
  return `\n… [${omitted} characters omitted] …\n`;
}
