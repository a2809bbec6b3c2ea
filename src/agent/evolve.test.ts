import { describe, expect, it } from 'vitest';
import type { Note, ToolResult } from '../engine/result.ts';
import {
  dominantLanguage,
  editOutcome,
  EditFormatBandit,
  languageOf,
  mulberry32,
  parseBanditTable,
  type EditFormat,
} from './evolve.ts';
import type { Step } from './step.ts';

const note = (kind: Note['kind'], detail?: string): Note => ({ kind, text: kind, ...(detail && { detail }) });

describe('editOutcome: reward by outcome and every drift named', () => {
  it.each([
    { name: 'exact', ok: true, notes: [], reward: 1, rungs: ['exact'] },
    {
      name: 'trailing whitespace rung',
      ok: true,
      notes: [note('rung', 'trailing-ws')],
      reward: 0.9,
      rungs: ['trailing-ws'],
    },
    { name: 'indentation rung', ok: true, notes: [note('rung', 'indent')], reward: 0.8, rungs: ['indent'] },
    { name: 'anchors rung', ok: true, notes: [note('rung', 'anchors')], reward: 0.6, rungs: ['anchors'] },
    {
      name: 'indentation and blank lines',
      ok: true,
      notes: [note('rung', 'indent'), note('rung', 'blank-lines')],
      reward: 0.64,
      rungs: ['indent', 'blank-lines'],
    },
    {
      name: 'two hunks with the same drift',
      ok: true,
      notes: [note('rung', 'indent'), note('rung', 'indent')],
      reward: 0.8,
      rungs: ['indent'],
    },
    { name: 'gutter stripped', ok: true, notes: [note('gutter-stripped')], reward: 0.8, rungs: ['exact'] },
    { name: 'a miss', ok: false, notes: [note('refusal', 'not-found')], reward: 0, rungs: ['miss'] },
  ])('$name', ({ ok, notes, reward, rungs }) => {
    const out = editOutcome(ok, notes);
    expect(out.rungs).toEqual(rungs);
    expect(out.reward).toBeCloseTo(reward);
  });

  it('the bandit counts each drift of one edit', () => {
    const b = new EditFormatBandit();
    b.learn('qwen', step('ws_edit', edited([note('rung', 'indent'), note('rung', 'blank-lines')])));
    expect(b.rows().find((r) => r.format === 'search_replace')?.rungs).toEqual({ indent: 1, 'blank-lines': 1 });
  });
});

function step(tool: string, result: ToolResult, extra: Partial<Step> = {}): Step {
  return {
    index: 1,
    messages: [],
    raw: '',
    kept: '',
    call: { tool, args: { path: 'src/a.py' } },
    result,
    observation: result.text,
    notes: [],
    timing: { startedAt: 0, modelMs: 0, toolMs: 0 },
    tokens: { prompt: 0, completion: 0, estimated: true },
    budget: {
      window: 0,
      output: 0,
      system: 0,
      tools: 0,
      task: 0,
      history: 0,
      observation: 0,
      free: 0,
      elided: [],
      omitted: [],
      observationCut: false,
      counting: 'estimated',
    },
    ...extra,
  };
}
const edited = (notes: Note[] = []): ToolResult => ({
  ok: true,
  text: 'edited',
  notes,
  changes: [{ path: 'src/a.py', before: 'a', after: 'b' }],
});

describe('learning from steps', () => {
  it.each([
    {
      name: 'ws_edit on the indentation rung',
      s: step('ws_edit', edited([note('rung', 'indent')])),
      reward: 0.8,
      format: 'search_replace',
    },
    {
      name: 'ws_patch that missed',
      s: step('ws_patch', { ok: false, text: 'no', notes: [], changes: [] }),
      reward: 0,
      format: 'unified_diff',
    },
    { name: 'ws_write overwriting a file', s: step('ws_write', edited()), reward: 1, format: 'whole_file' },
    {
      name: 'ws_write creating a file teaches nothing',
      s: step('ws_write', {
        ok: true,
        text: 'created',
        notes: [],
        changes: [{ path: 'n.py', before: null, after: 'x' }],
      }),
      reward: null,
    },
    {
      name: 'a declined edit teaches nothing',
      s: step('ws_edit', { ok: false, text: 'declined', notes: [], changes: [] }, { approval: 'denied' }),
      reward: null,
    },
    {
      name: 'a loop-guard nudge teaches nothing',
      s: step('ws_edit', { ok: false, text: 'LOOP', notes: [note('loop-guard')], changes: [] }),
      reward: null,
    },
    { name: 'a read is not an edit', s: step('ws_read', edited()), reward: null },
  ])('$name', ({ s, reward, format }) => {
    const b = new EditFormatBandit();
    expect(b.learn('qwen2.5-coder', s)).toBe(reward);
    const rows = b.rows().filter((r) => r.pulls > 0);
    if (reward === null) expect(rows).toEqual([]);
    else
      expect(rows).toEqual([
        expect.objectContaining({ family: 'qwen2.5-coder', language: 'python', format, pulls: 1 }),
      ]);
  });
});

describe('choosing', () => {
  it('is reproducible for a seed and table', () => {
    const picks = (seed: number) => {
      const b = new EditFormatBandit(null, seed);
      return Array.from({ length: 20 }, () => b.choose('f', 'javascript'));
    };
    expect(picks(42)).toEqual(picks(42));
    expect(new Set(picks(42)).size).toBeGreaterThan(1); // a fresh table explores
  });

  it('settles on the format that works once evidence accumulates', () => {
    const b = new EditFormatBandit(null, 3);
    const truth: Record<EditFormat, number> = { search_replace: 0.9, unified_diff: 0.3, whole_file: 0.5 };
    const random = mulberry32(99);
    let chosenBest = 0;
    for (let i = 0; i < 300; i++) {
      const f = b.choose('llama-3.2', 'python');
      if (i >= 200 && f === 'search_replace') chosenBest++;
      b.record('llama-3.2', 'python', f, random() < truth[f] ? 1 : 0, 'exact');
    }
    expect(chosenBest).toBeGreaterThan(85);
  });

  it('keys are separate per family and language', () => {
    const b = new EditFormatBandit();
    b.record('a', 'go', 'whole_file', 1, 'exact');
    expect(b.rows().map((r) => `${r.family}|${r.language}|${r.format}|${r.pulls}`)).toEqual([
      'a|go|search_replace|0',
      'a|go|unified_diff|0',
      'a|go|whole_file|1',
    ]);
  });
});

describe('persistence', () => {
  it('round-trips through JSON and keeps choosing the same way', () => {
    const b = new EditFormatBandit(null, 5);
    b.record('f', 'go', 'unified_diff', 0.6, 'indent');
    const json = JSON.parse(JSON.stringify(b.toJSON())) as unknown;
    const table = parseBanditTable(json);
    expect(table).toEqual(b.toJSON());
    expect(table?.arms['f|go']?.unified_diff).toEqual({ alpha: 1.6, beta: 1.4, pulls: 1, rungs: { indent: 1 } });
    const again = new EditFormatBandit(table, 9);
    const copy = new EditFormatBandit(b.toJSON(), 9);
    expect(Array.from({ length: 10 }, () => again.choose('f', 'go'))).toEqual(
      Array.from({ length: 10 }, () => copy.choose('f', 'go')),
    );
  });

  it.each([null, 3, { v: 2, arms: {} }, { v: 1 }, { v: 1, arms: { 'f|go': { search_replace: { alpha: 1 } } } }])(
    'rejects %j',
    (value) => {
      expect(parseBanditTable(value)).toBeNull();
    },
  );
});

describe('languages', () => {
  it.each([
    ['src/a.ts', 'typescript'],
    ['a.PY', 'python'],
    ['main.go', 'go'],
    ['lib/x.mjs', 'javascript'],
    ['Makefile', 'other'],
  ])('languageOf(%s) = %s', (p, lang) => expect(languageOf(p)).toBe(lang));

  it('the dominant language ignores JSON, Markdown and unknown files', () => {
    expect(dominantLanguage(['package.json', 'README.md', 'a.json', 'src/a.js', 'src/b.js', 'x.py'])).toBe(
      'javascript',
    );
    expect(dominantLanguage(['README.md'])).toBe('other');
  });
});
