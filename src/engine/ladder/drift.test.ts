/**
 * A match's note names every drift it tolerated and only those: read from the matched lines,
 * not from the rung that happened to find them (the rungs are cumulative). Single drifts keep
 * the spec's texts; several are named together, and each becomes its own result note.
 */
import { describe, expect, it } from 'vitest';
import { allDrifts, driftNote, driftNotes, RUNG_NOTES } from './drift.ts';
import { findMatch } from './ladder.ts';
import type { Drift, LadderOptions, RungId } from './types.ts';

const ON: LadderOptions = { tolerance: true, disabled: [] };
const JS = 'function greet(name) {\n  const msg = "hi " + name;\n  log(msg);\n  return msg;\n}\n';
const SUM =
  'function total(items) {\n  let sum = 0;\n  for (const item of items) sum += item.price;\n  return sum;\n}\n';

const rows: { name: string; file?: string; old: string; opts?: LadderOptions; rung: RungId; drifts: Drift[] }[] = [
  { name: 'exact', old: '  log(msg);', rung: 'exact', drifts: [] },
  { name: 'trailing whitespace', old: '  log(msg);  \n  return msg;', rung: 'trailing-ws', drifts: ['trailing-ws'] },
  {
    name: 'CRLF old_str in an LF file',
    old: '  log(msg);\r\n  return msg;',
    rung: 'trailing-ws',
    drifts: ['trailing-ws'],
  },
  { name: 'indentation', old: '    log(msg);\n    return msg;', rung: 'indent', drifts: ['indent'] },
  { name: 'a blank line added', old: '  log(msg);\n\n  return msg;', rung: 'blank-lines', drifts: ['blank-lines'] },
  {
    name: 'curly quotes',
    old: '  const msg = \u201chi \u201d + name;',
    rung: 'quotes-dashes',
    drifts: ['quotes-dashes'],
  },
  {
    name: 'a misremembered middle line',
    file: SUM,
    old: '  let sum = 0;\n  for (const item of items) sum += item.cost;\n  return sum;',
    rung: 'anchors',
    drifts: ['anchors'],
  },
  // The cases.
  {
    name: 'indentation only, with the indent rung off',
    old: '    log(msg);\n    return msg;',
    opts: { tolerance: true, disabled: ['indent'] },
    rung: 'blank-lines',
    drifts: ['indent'],
  },
  {
    name: 'indentation shifted and a blank line added',
    old: '    log(msg);\n\n    return msg;',
    rung: 'blank-lines',
    drifts: ['indent', 'blank-lines'],
  },
  {
    name: 'tabs for spaces and curly quotes',
    old: '\tconst msg = \u201chi \u201d + name;\n\tlog(msg);',
    rung: 'quotes-dashes',
    drifts: ['indent', 'quotes-dashes'],
  },
  {
    name: 'a misremembered middle line and shifted indentation',
    file: SUM,
    old: '    let sum = 0;\n    for (const item of items) sum += item.cost;\n    return sum;',
    rung: 'anchors',
    drifts: ['indent', 'anchors'],
  },
  {
    name: 'trailing whitespace and curly quotes',
    old: '  const msg = \u201chi \u201d + name;   \n  log(msg);',
    rung: 'quotes-dashes',
    drifts: ['trailing-ws', 'quotes-dashes'],
  },
];

describe('the drifts a match tolerated', () => {
  it.each(rows)('$name → $drifts', ({ file = JS, old, opts = ON, rung, drifts }) => {
    const m = findMatch(file, old, opts);
    expect(m).toMatchObject({ kind: 'unique', rung, drifts });
  });
});

describe('the note', () => {
  it.each(Object.entries(RUNG_NOTES) as [Drift, string][])('one drift (%s) keeps the spec text', (drift, text) => {
    expect(driftNote([drift])).toBe(text);
  });

  it('the indent rung off: indentation is named, blank lines are not', () => {
    const m = findMatch(JS, '    log(msg);\n    return msg;', { tolerance: true, disabled: ['indent'] });
    expect(m.kind === 'unique' && driftNote(m.drifts)).toBe(RUNG_NOTES.indent);
  });

  it.each([
    [
      ['indent', 'blank-lines'],
      '[matched after normalizing indentation and ignoring blank lines — your old_str was indented differently and had different blank-line spacing]',
    ],
    [
      ['indent', 'quotes-dashes'],
      '[matched after normalizing indentation and ignoring quote and dash style — your old_str was indented differently and had curly quotes or long dashes where the file has plain ones, or the reverse]',
    ],
    [
      ['indent', 'anchors'],
      '[matched after normalizing indentation and on first+last line anchors — your old_str was indented differently, and its middle did not match exactly; verify the result with ws_read]',
    ],
    [
      ['trailing-ws', 'indent', 'blank-lines'],
      '[matched ignoring trailing whitespace, after normalizing indentation and ignoring blank lines — your old_str had different trailing whitespace or line endings, was indented differently and had different blank-line spacing]',
    ],
  ] as [Drift[], string][])('%j are named together', (drifts, text) => {
    expect(driftNote(drifts)).toBe(text);
  });

  it('each drift is its own result note, the rung that found the match named where it is another', () => {
    expect(driftNotes('blank-lines', ['indent', 'blank-lines'])).toEqual([
      { kind: 'rung', text: 'indent drift tolerated by the blank-lines rung', detail: 'indent' },
      { kind: 'rung', text: 'matched by the blank-lines rung', detail: 'blank-lines' },
    ]);
    expect(driftNotes('indent', ['indent'], 'a.py hunk 1 ')).toEqual([
      { kind: 'rung', text: 'a.py hunk 1 matched by the indent rung', detail: 'indent' },
    ]);
  });

  it('replace_all: the drifts of every place, once each, in ladder order', () => {
    expect(allDrifts([['blank-lines'], ['indent', 'blank-lines'], []])).toEqual(['indent', 'blank-lines']);
  });
});
