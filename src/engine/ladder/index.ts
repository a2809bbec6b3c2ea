/** The match ladder's public surface (re-exports only), used by ws_edit and ws_patch. */
export * from './types.ts';
export { findMatch, replaceSpans, toRungIds, RUNG_ORDER, RUNG_NAMES } from './ladder.ts';
export { RUNG_NOTES, driftNote, driftNotes, allDrifts } from './drift.ts';
export {
  foundTimesText,
  ambiguousText,
  notFoundText,
  placeList,
  type SearchSubject,
  type LadderTried,
} from './messages.ts';
export { LineTable, splitText, withEol, detectEol } from './lines.ts';
export { plainPunctuation } from './normalize.ts';
