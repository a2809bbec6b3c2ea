/** The split view's alignment: rows by step index, gaps where one run took extra steps, and the first divergence in words. */
import { describe, expect, it } from 'vitest';
import { alignSteps, canonicalJson, firstDivergence, rowState, type AlignStep } from './align.ts';

/** Steps from short specs: `read a` is ws_read of a; `-` a reply with no call; `=x` sets the result text. */
function steps(...specs: string[]): AlignStep[] {
  return specs.map((spec, i) => {
    const [call, result = 'ok'] = spec.split('=');
    const [tool, arg = ''] = call!.split(' ');
    return tool === '-'
      ? { index: i + 1, tool: null, call: `prose ${i}`, result }
      : { index: i + 1, tool: `ws_${tool}`, call: `ws_${tool} ${arg}`, result };
  });
}

const pairs = (rows: ReturnType<typeof alignSteps>) => rows.map((r) => `${r.left ?? '·'}:${r.right ?? '·'}`);

describe('alignSteps', () => {
  it.each([
    [
      'the same steps pair by index',
      steps('read a', 'edit a', 'done'),
      steps('read a', 'edit a', 'done'),
      ['1:1', '2:2', '3:3'],
    ],
    [
      'different calls of equal count still pair by index',
      steps('read a', 'list', 'grep x'),
      steps('glob', 'read b', 'edit c'),
      ['1:1', '2:2', '3:3'],
    ],
    [
      'an extra step on the right opens a gap there',
      steps('read a', 'edit a', 'done'),
      steps('read a', 'list', 'edit a', 'done'),
      ['1:1', '·:2', '2:3', '3:4'],
    ],
    [
      'an extra step on the left opens a gap there',
      steps('read a', 'read b', 'edit a', 'test', 'done'),
      steps('read a', 'edit a', 'test', 'done'),
      ['1:1', '2:·', '3:2', '4:3', '5:4'],
    ],
    [
      'a retried edit on one side: the calls after it meet again',
      steps('read a', 'edit a', 'edit a2', 'edit a3', 'test', 'done'),
      steps('read a', 'edit a', 'test', 'done'),
      ['1:1', '2:2', '3:·', '4:·', '5:3', '6:4'],
    ],
    [
      'a longer tail on one side is left alone at the end',
      steps('read a', 'done'),
      steps('read a', 'done', 'read b', 'edit b'),
      ['1:1', '2:2', '·:3', '·:4'],
    ],
    ['one side empty', steps(), steps('read a', 'done'), ['·:1', '·:2']],
    ['both empty', steps(), steps(), []],
  ])('%s', (_name, left, right, expected) => {
    expect(pairs(alignSteps(left, right))).toEqual(expected);
  });

  it('keeps every step of each side once, in order', () => {
    const left = steps('read a', 'grep x', 'read b', 'edit b', 'test', 'edit b2', 'test', 'done');
    const right = steps('list', 'read a', 'read b', 'edit b', 'test', 'done');
    const rows = alignSteps(left, right);
    expect(rows.flatMap((r) => (r.left === null ? [] : [r.left]))).toEqual(left.map((s) => s.index));
    expect(rows.flatMap((r) => (r.right === null ? [] : [r.right]))).toEqual(right.map((s) => s.index));
  });
});

describe('rowState and firstDivergence', () => {
  it.each([
    ['no divergence', steps('read a', 'done'), steps('read a', 'done'), null],
    [
      'the same call with another result (the ACI on and off)',
      steps('read a', 'edit a=applied', 'done'),
      steps('read a', 'edit a=no match', 'done'),
      { row: 1, state: 'result', text: /same call at step 2 \(ws_edit\).*different result/ },
    ],
    [
      'different calls',
      steps('read a', 'edit a'),
      steps('read a', 'write a'),
      { row: 1, state: 'call', text: /left step 2 \(ws_edit\), right step 2 \(ws_write\)/ },
    ],
    [
      'an extra step on the right',
      steps('read a', 'done'),
      steps('read a', 'list', 'done'),
      { row: 1, state: 'right-only', text: /Only the right run took step 2 \(ws_list\)/ },
    ],
    [
      'an extra step on the left',
      steps('read a', '-', 'done'),
      steps('read a', 'done'),
      { row: 1, state: 'left-only', text: /Only the left run took step 2 \(no call\)/ },
    ],
  ])('%s', (_name, left, right, expected) => {
    const got = firstDivergence(alignSteps(left, right), left, right);
    if (expected === null) expect(got).toBeNull();
    else
      expect(got).toMatchObject({
        row: expected.row,
        state: expected.state,
        text: expect.stringMatching(expected.text),
      });
  });

  it('names every row after the first divergence too', () => {
    const left = steps('read a', 'edit a=x', 'done');
    const right = steps('read a', 'edit a=y', 'list', 'done');
    const rows = alignSteps(left, right);
    const by = (s: AlignStep[]) => new Map(s.map((x) => [x.index, x]));
    expect(rows.map((r) => rowState(r, by(left), by(right)))).toEqual(['same', 'result', 'right-only', 'same']);
  });
});

describe('canonicalJson', () => {
  it.each([
    [{ b: 1, a: [{ d: 2, c: 'x' }] }, '{"a":[{"c":"x","d":2}],"b":1}'],
    [null, 'null'],
    [undefined, 'null'],
    ['text', '"text"'],
  ])('%o → %s', (value, text) => {
    expect(canonicalJson(value)).toBe(text);
  });
});
