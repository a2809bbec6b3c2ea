/**
 * What a continuation's record keeps of the record it continues (session/continued.ts): the
 * branch point when the edited step is among the replayed ones, the cuts at or before the step it
 * continues from, and a restored run's new cut at its last step. One row per rule; the gate
 * passes a record with cuts and refuses a cut that is no step.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { continuedNotes, cutShortText, withCutShort } from '../../src/session/continued.ts';
import type { Session } from '../../src/session/record.ts';
import { checkSession } from '../../src/session/validate.ts';
import { copy, recordScript } from './support.ts';

let three: Session;
beforeAll(async () => {
  three = await recordScript();
});

const BRANCH = { parentHash: 'a'.repeat(12), step: 2 };

describe('continuedNotes', () => {
  it.each([
    ['a plain record keeps nothing', {}, 3, {}],
    ['a branch continued after its edited step keeps it', { branch: BRANCH }, 3, { branch: BRANCH }],
    ['a branch continued from its edited step keeps it', { branch: BRANCH }, 2, { branch: BRANCH }],
    ['a branch continued from before its edited step drops it', { branch: BRANCH }, 1, {}],
    ['cuts at or before the step are kept', { cutShort: [1, 2] }, 2, { cutShort: [1, 2] }],
    ['cuts after the step are dropped', { cutShort: [1, 3] }, 2, { cutShort: [1] }],
    ['no cut left, no field', { cutShort: [3] }, 2, {}],
  ] as const)('%s', (_what, notes, upTo, kept) => {
    expect(continuedNotes({ ...copy(three), ...notes } as Session, upTo)).toEqual(kept);
  });
});

describe('withCutShort', () => {
  it.each([
    ['a first cut is the last step', undefined, [3]],
    ['a later cut follows the earlier ones', [1], [1, 3]],
    ['a second reload at the same step adds none', [1, 3], [1, 3]],
  ] as const)('%s', (_what, cuts, after) => {
    const session = { ...copy(three), ...(cuts && { cutShort: [...cuts] }) };
    expect(withCutShort(session).cutShort).toEqual(after);
    expect(withCutShort(session).steps).toEqual(session.steps);
  });
});

describe('cutShortText', () => {
  it.each([
    [
      [2],
      'Cut short by a reload after step 2, and continued from there: the steps up to it were saved before the reload, the rest after.',
    ],
    [[2, 5], /^Cut short by a reload after step 2 and step 5, and continued from there: the steps up to each/],
    [[1, 2, 5], /after step 1, step 2 and step 5,/],
  ])('%j', (cuts, text) => {
    expect(cutShortText(cuts)).toMatch(text);
  });
});

describe('the record gate', () => {
  it.each([
    ['cuts that are steps', [1, 2], true],
    ['a cut at step 0', [0], false],
    ['a fractional cut', [1.5], false],
  ])('%s: %s', async (_what, cutShort, ok) => {
    const checked = await checkSession({ ...JSON.parse(JSON.stringify(three)), cutShort });
    expect(checked.ok).toBe(ok);
    if (!checked.ok) expect(checked.text).toMatch(/field cutShort\.0/);
  });
});
