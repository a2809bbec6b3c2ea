/** Searching and filtering the timeline's steps: by tool, by note kind, by text with a snippet of the first hit, and stepping among the matches. */
import { describe, expect, it } from 'vitest';
import type { Budget, Step, StepRecord } from '../../worker/client.ts';
import {
  filterSteps,
  matchStep,
  moveAmong,
  NO_QUERY,
  noteKindsOf,
  queryActive,
  toolsOf,
  type StepQuery,
} from './step-filter.ts';

const BUDGET: Budget = {
  window: 4096,
  output: 512,
  system: 400,
  tools: 300,
  task: 80,
  history: 200,
  observation: 100,
  free: 2504,
  elided: [],
  omitted: [],
  observationCut: false,
  counting: 'estimated',
};

function step(index: number, patch: Partial<Step>): StepRecord {
  const s: Step = {
    index,
    messages: [],
    raw: '',
    kept: '',
    observation: '',
    notes: [],
    timing: { startedAt: 0, modelMs: 0, toolMs: 0 },
    tokens: { prompt: 1, completion: 1, estimated: true },
    budget: BUDGET,
    ...patch,
  };
  return { step: s, changes: [], fileCount: 1 };
}

const RUN: StepRecord[] = [
  step(1, {
    raw: '{"tool":"ws_test","args":{}}',
    call: { tool: 'ws_test', args: {} },
    result: { ok: false, text: '', notes: [{ kind: 'shell', text: 'allowed (tier free): "npm test"' }], changes: [] },
    observation: 'not ok 3 - truncate keeps max characters',
  }),
  step(2, {
    raw: 'I will look at the file.',
    parseError: { kind: 'no-call', message: 'Your reply contained no tool call, so nothing was run.' },
    notes: [{ kind: 'parse-retry', text: 'retry asked' }],
  }),
  step(3, {
    raw: '{"tool":"ws_edit","args":{"path":"src/strings.js","old_str":"  return s.slice(0, max)","new_str":"  return s.slice(0, max - 1)"}}',
    call: {
      tool: 'ws_edit',
      args: { path: 'src/strings.js', old_str: '  return s.slice(0, max)', new_str: '  return s.slice(0, max - 1)' },
    },
    result: {
      ok: true,
      text: '',
      notes: [{ kind: 'rung', text: 'matched by the indent rung', detail: 'indent' }],
      changes: [],
    },
    observation: 'Edited src/strings.js',
  }),
];

const q = (patch: Partial<StepQuery>): StepQuery => ({ ...NO_QUERY, ...patch });

describe('filterSteps', () => {
  it.each<[string, Partial<StepQuery>, number[]]>([
    ['no query: every step', {}, [1, 2, 3]],
    ['by tool', { tool: 'ws_edit' }, [3]],
    ['by tool: a reply without a call', { tool: 'no call' }, [2]],
    ['by note kind (engine)', { kind: 'rung' }, [3]],
    ['by note kind (loop)', { kind: 'parse-retry' }, [2]],
    ['by text, any case', { text: 'TRUNCATE' }, [1]],
    ['by text in the arguments', { text: 'max - 1' }, [3]],
    ['text and tool together', { text: 'strings.js', tool: 'ws_test' }, []],
    ['blank text is no text', { text: '   ' }, [1, 2, 3]],
    ['nothing matches', { text: 'zebra' }, []],
  ])('%s', (_name, patch, indices) => {
    expect(filterSteps(RUN, q(patch)).map((m) => m.index)).toEqual(indices);
  });
});

describe('matchStep: the snippet marks the first hit', () => {
  it.each<[string, number, string, object]>([
    ['the tool name', 3, 'edit', { field: 'tool', before: 'ws_', hit: 'edit', after: '' }],
    [
      'the raw output, cut with an ellipsis',
      3,
      'max - 1',
      { field: 'output', hit: 'max - 1', before: expect.stringMatching(/^….*slice\(0, $/), after: ')"}}' },
    ],
    ['a note', 1, 'tier free', { field: 'note', before: 'allowed (', hit: 'tier free', after: '): "npm test"' }],
    ['the retry message', 2, 'nothing was run', { field: 'retry', hit: 'nothing was run' }],
    [
      'what the model saw next',
      1,
      'keeps max',
      { field: 'result', before: 'not ok 3 - truncate ', hit: 'keeps max', after: ' characters' },
    ],
    ['as written, whatever the case asked', 1, 'NOT OK', { field: 'result', before: '', hit: 'not ok' }],
  ])('%s', (_name, index, text, snippet) => {
    expect(matchStep(RUN[index - 1]!.step, q({ text }))).toEqual({ index, snippet: expect.objectContaining(snippet) });
  });

  it('no text asked: a match without a snippet', () => {
    expect(matchStep(RUN[0]!.step, q({ tool: 'ws_test' }))).toEqual({ index: 1, snippet: null });
  });
});

describe('the filters offered and whether one is on', () => {
  it('lists the tools and note kinds of the run', () => {
    expect(toolsOf(RUN)).toEqual(['no call', 'ws_edit', 'ws_test']);
    expect(noteKindsOf(RUN)).toEqual(['parse-retry', 'rung', 'shell']);
  });

  it.each<[Partial<StepQuery>, boolean]>([
    [{}, false],
    [{ text: ' ' }, false],
    [{ text: 'x' }, true],
    [{ tool: 'ws_read' }, true],
    [{ kind: 'rung' }, true],
  ])('%j → %s', (patch, active) => {
    expect(queryActive(q(patch))).toBe(active);
  });
});

describe('moveAmong: stepping through the matches only', () => {
  const matches = [2, 5, 9];
  it.each<[number | null, number, number | null]>([
    [5, 1, 9],
    [5, -1, 2],
    [9, 1, 9],
    [2, -1, 2],
    [3, 1, 5],
    [3, -1, 2],
    [10, -1, 9],
    [1, 1, 2],
    [null, 1, 2],
    [null, -1, 9],
  ])('from %s by %s → %s', (from, delta, to) => {
    expect(moveAmong(matches, from, delta)).toBe(to);
  });

  it('nothing matches: nowhere to go', () => {
    expect(moveAmong([], 3, 1)).toBeNull();
  });
});
