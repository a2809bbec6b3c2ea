/**
 * The branching logic (session/branch.ts): what a plan replays and records, the parent's
 * content hash (where the parent is kept or how it travels does not change it; any step's
 * output does), and a branch point past the record's steps: a branch saved before it reached
 * its edited step, which the gate passes and the page names. One row per rule.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { branchShortOf, branchShortText, planBranch, sessionHash } from '../../src/session/branch.ts';
import { sharedForm, type Session } from '../../src/session/record.ts';
import { checkSession } from '../../src/session/validate.ts';
import { copy, FIX_OUTPUTS, recordScript } from './support.ts';

let parent: Session;
beforeAll(async () => {
  parent = await recordScript();
});

const EDIT = '{"tool": "ws_edit", "args": {"path": "src/math.js", "old_str": "a - b", "new_str": "b + a"}}';

describe('planBranch', () => {
  it('replays the steps before the edited one, gives the edit, and continues with the recorded rest or a live model', async () => {
    const hash = await sessionHash(parent);
    const record = await planBranch(parent, 2, EDIT, 'record', 'saved:1');
    expect(record).toEqual({
      ok: true,
      plan: {
        upTo: 1,
        outputs: [FIX_OUTPUTS[0], EDIT],
        rest: [FIX_OUTPUTS[2]],
        branch: { parentHash: hash, parentId: 'saved:1', step: 2 },
      },
    });
    const live = await planBranch(parent, 3, '{"tool": "done", "args": {"summary": "s"}}', 'model');
    expect(live.ok && live.plan).toMatchObject({ upTo: 2, rest: null, branch: { parentHash: hash, step: 3 } });
    expect(live.ok && 'parentId' in live.plan.branch).toBe(false);
  });

  it.each([
    ['step 0', 0, EDIT, /^Step 0 is not in this session: it has 3 recorded steps; edit one of them\.$/],
    ['a step past the last', 4, EDIT, /^Step 4 is not in this session/],
    ['a fractional step', 1.5, EDIT, /^Step 1\.5 is not in this session/],
    ['blank text', 2, ' \n\t', /^The edited output is empty/],
    ['text over the bound', 2, 'x'.repeat(100_001), /has 100001 characters, more than the 100000 a step may hold/],
    [
      'the recorded text',
      2,
      FIX_OUTPUTS[1]!,
      /^The output is as recorded: edit it first, or use "Continue from here" to go on from step 2 unchanged\.$/,
    ],
  ])('refuses %s', async (_what, step, raw, text) => {
    const planned = await planBranch(parent, step, raw, 'record');
    expect(planned.ok).toBe(false);
    expect(!planned.ok && planned.text).toMatch(text);
  });
});

describe('sessionHash', () => {
  it('names the run, not its keeping: the file form, the shared form and a retitled copy hash the same', async () => {
    const hash = await sessionHash(parent);
    expect(hash).toMatch(/^[0-9a-f]{12}$/);
    expect(await sessionHash(sharedForm(parent))).toBe(hash);
    expect(
      await sessionHash({ ...parent, title: 'renamed', note: 'a note', createdAt: '2030-01-01T00:00:00.000Z' }),
    ).toBe(hash);
  });

  it('changes with any step’s output', async () => {
    const hash = await sessionHash(parent);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: parent.steps.length - 1 }),
        fc.string({ minLength: 1 }),
        async (i, extra) => {
          const changed = copy(parent);
          changed.steps[i]!.raw += extra;
          expect(await sessionHash(changed)).not.toBe(hash);
        },
      ),
      { numRuns: 30 },
    );
  });
});

describe('a branch point in a record', () => {
  const withBranch = (step: number): Session => ({ ...copy(parent), branch: { parentHash: 'a'.repeat(12), step } });

  it.each([
    ['at the last step', 3, null],
    ['at the first step', 1, null],
    // A branch saved before its run reached the edited step: a whole record of what ran, opened as such.
    ['past the last step', 4, { held: 3, step: 4 }],
    ['well past the last step', 9, { held: 3, step: 9 }],
  ])('%s: the gate passes it; short of its edit: %j', async (_what, step, short) => {
    expect(branchShortOf(withBranch(step))).toEqual(short);
    const checked = await checkSession(JSON.parse(JSON.stringify(withBranch(step))));
    expect(checked.ok && checked.session.branch?.step).toBe(step);
  });

  it('a record with no branch point is not short of one', () => {
    expect(branchShortOf(copy(parent))).toBeNull();
  });

  it.each([
    [
      { held: 1, step: 2 },
      /^Saved before it reached its edited step: it holds step 1 of the original, replayed before step 2,/,
    ],
    [{ held: 3, step: 5 }, /it holds steps 1–3 of the original, replayed before step 5, whose edited output never ran/],
    [
      { held: 3, step: 5 },
      /pick step 3 and press "Continue from here"; to make the edit, branch the original at step 5 again\.$/,
    ],
  ])('says what a short branch holds and what to do: %j', (short, text) => {
    expect(branchShortText(short)).toMatch(text);
  });

  it.each([
    ['a parent hash that is not a short hash', { parentHash: 'xyz', step: 1 }, /field branch\.parentHash/],
    ['step 0', { parentHash: 'a'.repeat(12), step: 0 }, /field branch\.step/],
    [
      'a parent id over 200 characters',
      { parentHash: 'a'.repeat(12), parentId: 'x'.repeat(201), step: 1 },
      /field branch\.parentId/,
    ],
  ])('the schema refuses %s', async (_what, branch, text) => {
    const checked = await checkSession({ ...JSON.parse(JSON.stringify(parent)), branch });
    expect(checked.ok).toBe(false);
    expect(!checked.ok && checked.text).toMatch(text);
  });
});
