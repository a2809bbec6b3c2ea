/** The run views' pure logic: statuses, badges, cut markers, the budget bar, the plots' series, call arguments and keys. */
import { describe, expect, it } from 'vitest';
import type { Budget, Note, Step, StepRecord, ToolResult } from '../../worker/client.ts';
import { pageMayStep, stepKey } from './keys.ts';
import {
  approvalText,
  argEntries,
  badgeNotes,
  budgetSegments,
  budgetUsed,
  contextSeries,
  exchangeView,
  firstSteps,
  fitText,
  formatBytes,
  formatMs,
  reproducedText,
  indentedLines,
  markCuts,
  rungSeries,
  stepNotes,
  stepStatus,
  tallySeries,
  localTime,
  workspaceLabel,
} from './step-view.ts';

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

function step(patch: Partial<Step> = {}): Step {
  return {
    index: 1,
    messages: [],
    raw: '',
    kept: '',
    observation: '',
    notes: [],
    timing: { startedAt: 0, modelMs: 0, toolMs: 0 },
    tokens: { prompt: 10, completion: 5, estimated: true },
    budget: BUDGET,
    ...patch,
  };
}

const result = (ok: boolean, notes: Note[] = []): ToolResult => ({ ok, text: '', notes, changes: [] });

describe('approvalText: a recorded approval is history, never "by you"', () => {
  const replayed = { reproduced: true } as const;
  // Each row: the step's own approval, whether it was replayed, the record's answer → the inspector's words.
  const rows: [string, Step['approval'], boolean, StepRecord['recordedApproval'], string | null][] = [
    ['a live step a person approved', 'approved', false, undefined, 'approved by you'],
    ['a live step a person denied', 'denied', false, undefined, 'denied by you'],
    ['a live step nobody was asked about', undefined, false, undefined, null],
    [
      'a replayed gated step approved on record',
      'unapproved',
      true,
      'approved',
      'approved when it was recorded (not by you) · not run here: it needs your approval',
    ],
    [
      'a replayed gated step with no recorded answer',
      'unapproved',
      true,
      undefined,
      'not run here: it needs your approval',
    ],
    ['a replayed denial', 'denied', true, 'denied', 'denied when it was recorded · denied again here'],
    [
      'a live gated step with no approver (slm run)',
      'unasked',
      false,
      undefined,
      'not run: no one was there to approve it',
    ],
    [
      'a replayed step nobody was there to approve',
      'unasked',
      true,
      'unasked',
      'not run when it was recorded: no one was there to approve it · not run again here',
    ],
    [
      'a replayed file change approved on record',
      undefined,
      true,
      'approved',
      'approved when it was recorded (not by you) · ran here without asking (a replay needs no approval for it)',
    ],
    ['a replayed step nobody was asked about', undefined, true, undefined, null],
  ];
  it.each(rows)('%s', (_name, approval, isReplayed, recordedApproval, expected) => {
    const record: StepRecord = {
      step: step(approval ? { approval } : {}),
      changes: [],
      fileCount: 0,
      ...(isReplayed && { check: replayed }),
      ...(recordedApproval && { recordedApproval }),
    };
    expect(approvalText(record)).toBe(expected);
  });
});

describe('stepStatus', () => {
  it.each([
    ['a result that succeeded', step({ result: result(true) }), 'ok'],
    ['a refusal', step({ result: result(false, [{ kind: 'refusal', text: 'r' }]) }), 'refused'],
    ['a failure', step({ result: result(false, [{ kind: 'schema', text: 's' }]) }), 'failed'],
    [
      'a repeat the loop guard answered (not run, not failed)',
      step({ result: result(false, [{ kind: 'loop-guard', text: 'identical ws_read call #3', detail: '3' }]) }),
      'repeated',
    ],
    ['no usable call', step({ parseError: { kind: 'no-call', message: 'm' } }), 'no-call'],
  ])('%s → %s', (_label, s, status) => {
    expect(stepStatus(s)).toBe(status);
  });
});

describe('notes and badges', () => {
  const s = step({
    result: result(true, [
      { kind: 'checkpoint', text: 'cp' },
      { kind: 'rung', text: 'matched by the indent rung', detail: 'indent' },
      { kind: 'rung', text: 'again', detail: 'indent' },
    ]),
    notes: [
      { kind: 'dropped-calls', text: 'dropped 1', detail: 'ws_test' },
      { kind: 'repair', text: 'fence' },
    ],
  });

  it('lists the engine notes first, then the loop notes, each with its source', () => {
    expect(stepNotes(s).map((n) => [n.kind, n.source])).toEqual([
      ['checkpoint', 'engine'],
      ['rung', 'engine'],
      ['rung', 'engine'],
      ['dropped-calls', 'loop'],
      ['repair', 'loop'],
    ]);
  });

  const reason = 'refused (tier never): command substitution "$(ls)" runs a second command.\nRun it alone first.';
  it.each([
    [
      'a policy refusal: the shell note and the refusal note are one, with the whole reason',
      step({
        result: result(false, [
          { kind: 'shell', text: reason, detail: 'refuse' },
          { kind: 'refusal', text: reason.split('\n')[0]!, detail: 'substitution' },
        ]),
      }),
      [['refusal', reason, 'engine']],
    ],
    [
      'a declined call: the engine refusal, not the loop approval note too',
      step({
        result: result(false, [{ kind: 'refusal', text: 'ws_shell declined by a person', detail: 'approval-denied' }]),
        notes: [{ kind: 'approval', text: 'ws_shell denied by a person', detail: 'denied' }],
      }),
      [['refusal', 'ws_shell declined by a person', 'engine']],
    ],
    [
      'an unapproved replayed call: the engine refusal once',
      step({
        result: result(false, [{ kind: 'refusal', text: 'ws_shell not run', detail: 'approval-unapproved' }]),
        notes: [{ kind: 'approval', text: 'ws_shell replayed without running', detail: 'unapproved' }],
      }),
      [['refusal', 'ws_shell not run', 'engine']],
    ],
    [
      'an approved call keeps its approval note and the policy note',
      step({
        result: result(true, [{ kind: 'shell', text: 'gated (tier ask): npm install', detail: 'gated' }]),
        notes: [{ kind: 'approval', text: 'ws_shell approved by a person', detail: 'approved' }],
      }),
      [
        ['shell', 'gated (tier ask): npm install', 'engine'],
        ['approval', 'ws_shell approved by a person', 'loop'],
      ],
    ],
    [
      'a refusal with another reason than the shell note keeps both',
      step({
        result: result(false, [
          { kind: 'shell', text: 'refused (tier never): a', detail: 'refuse' },
          { kind: 'refusal', text: 'something else', detail: 'x' },
        ]),
      }),
      [
        ['shell', 'refused (tier never): a', 'engine'],
        ['refusal', 'something else', 'engine'],
      ],
    ],
  ])('each event once: %s', (_name, s, notes) => {
    expect(stepNotes(s).map((n) => [n.kind, n.text, n.source])).toEqual(notes);
  });

  it('badges only the kinds where the ACI stepped in, once each', () => {
    expect(badgeNotes(s).map((n) => n.kind)).toEqual(['rung', 'dropped-calls']);
  });
});

describe('markCuts', () => {
  it.each([
    ['plain text', 'abc', [['abc', false]]],
    ['the empty string', '', [['', false]]],
    [
      'a truncation marker',
      'head\n… [120 characters omitted] …\ntail',
      [
        ['head\n', false],
        ['… [120 characters omitted] …', true],
        ['\ntail', false],
      ],
    ],
    [
      'the truncation note',
      'x\n[output truncated: 900 characters in total, the middle 120 omitted to stay within 800. Narrow it.]',
      [
        ['x\n', false],
        ['[output truncated: 900 characters in total, the middle 120 omitted to stay within 800. Narrow it.]', true],
      ],
    ],
    [
      'an elided observation',
      '[observation of step 3 elided to fit the context window — re-run the tool if you need it]',
      [['[observation of step 3 elided to fit the context window — re-run the tool if you need it]', true]],
    ],
    [
      'omitted steps',
      'Task: t\n\n[steps 1–4 omitted to fit the context window — their changes are in the files]',
      [
        ['Task: t\n\n', false],
        ['[steps 1–4 omitted to fit the context window — their changes are in the files]', true],
      ],
    ],
    [
      'a cut reply',
      '{"a": 1… [rest of this reply dropped]',
      [
        ['{"a": 1', false],
        ['… [rest of this reply dropped]', true],
      ],
    ],
  ])('%s', (_label, text, spans) => {
    expect(markCuts(text).map((s) => [s.text, s.cut])).toEqual(spans);
    expect(
      markCuts(text)
        .map((s) => s.text)
        .join(''),
    ).toBe(text);
  });
});

describe('budget', () => {
  it('splits the window into its parts in prompt order, with shares', () => {
    const segs = budgetSegments(BUDGET);
    expect(segs.map((s) => [s.part, s.tokens])).toEqual([
      ['system', 400],
      ['tools', 300],
      ['task', 80],
      ['history', 200],
      ['observation', 100],
      ['free', 2504],
      ['output', 512],
    ]);
    expect(segs.reduce((n, s) => n + s.share, 0)).toBeCloseTo(1);
    expect(budgetUsed(BUDGET)).toBe(1080);
  });
});

describe('plot series', () => {
  const records: StepRecord[] = [
    { step: step({ index: 1, tally: { passed: 8, failed: 1, source: 'ws_test' } }), changes: [], fileCount: 3 },
    {
      step: step({ index: 2, result: result(true, [{ kind: 'rung', text: 'r', detail: 'indent' }]) }),
      changes: [],
      fileCount: 3,
    },
    { step: step({ index: 3, tally: { passed: 9, failed: 0, source: 'ws_test' } }), changes: [], fileCount: 3 },
  ];

  it('tests: one point per step that ran them', () => {
    expect(tallySeries(records)).toEqual([
      { index: 1, passed: 8, failed: 1 },
      { index: 3, passed: 9, failed: 0 },
    ]);
  });

  it('context: the used share of every step', () => {
    expect(contextSeries(records).map((c) => [c.index, Math.round(c.share * 1000)])).toEqual([
      [1, 264],
      [2, 264],
      [3, 264],
    ]);
  });

  it('rungs: the steps that needed one', () => {
    expect(rungSeries(records)).toEqual([{ index: 2, rungs: ['indent'] }]);
  });
});

describe('call arguments', () => {
  it.each([
    [
      'an object',
      { path: 'a.js', old_str: '  x\n  y', replace_all: true },
      [
        ['path', 'a.js', true],
        ['old_str', '  x\n  y', true],
        ['replace_all', 'true', false],
      ],
    ],
    ['not an object', 'a.js', [['(arguments)', '"a.js"', false]]],
    ['an array', [1], [['(arguments)', '[1]', false]]],
  ])('%s', (_label, args, entries) => {
    expect(argEntries(args).map((a) => [a.name, a.text, a.isString])).toEqual(entries);
  });

  it('splits indentation from each line', () => {
    expect(indentedLines('    if (x)\n\treturn;\nend')).toEqual([
      { indent: '    ', rest: 'if (x)' },
      { indent: '\t', rest: 'return;' },
      { indent: '', rest: 'end' },
    ]);
  });
});

describe('formatting', () => {
  it.each([
    [250, '250 ms'],
    [1500, '1.5 s'],
    [95_000, '1 min 35 s'],
  ])('%d ms → %s', (ms, text) => expect(formatMs(ms)).toBe(text));

  it.each([
    [512 * 1024, '512 KB'],
    [400 * 2 ** 20, '400 MB'],
    [1.5 * 2 ** 30, '1.50 GB'],
  ])('%d bytes → %s', (bytes, text) => expect(formatBytes(bytes)).toBe(text));
});

describe('stepping keys', () => {
  it.each([
    ['ArrowLeft', 'move -1'],
    ['k', 'move -1'],
    ['ArrowUp', 'move -1'],
    ['ArrowRight', 'move 1'],
    ['j', 'move 1'],
    ['ArrowDown', 'move 1'],
    ['Home', 'first'],
    ['End', 'last'],
    ['x', null],
  ])('%s → %s', (key, action) => {
    const done: string[] = [];
    const handled = stepKey(
      {
        move: (d) => done.push(`move ${d}`),
        selectFirst: () => done.push('first'),
        selectLast: () => done.push('last'),
      },
      key,
    );
    expect(handled).toBe(action !== null);
    expect(done).toEqual(action ? [action] : []);
  });

  it.each([
    ['nothing focused', null, true],
    ['a button', { closest: () => null }, true],
    ['a text field', { closest: () => ({}) }, false],
  ])('page-level stepping with %s: %s', (_label, target, may) => {
    expect(pageMayStep(target as EventTarget | null)).toBe(may);
  });
});

describe('firstSteps', () => {
  it.each([
    [1, 'step 1'],
    [2, 'steps 1–2'],
    [7, 'steps 1–7'],
  ])('%i → %s', (n, text) => {
    expect(firstSteps(n)).toBe(text);
  });
});

describe('reproducedText', () => {
  it.each([
    [7, false, '✓ Reproduced: all 7 replayed steps match the record'],
    [2, true, '✓ Reproduced: steps 1–2 match the record; from step 3 the run is live'],
    [1, true, '✓ Reproduced: step 1 matches the record; from step 2 the run is live'],
  ])('%i steps, continues %s', (n, continues, text) => {
    expect(reproducedText(n, continues)).toBe(text);
  });
});

describe('fitText', () => {
  it.each([
    ['nothing done', {}, null],
    ['steps left out, nothing after them', { omitted: [1, 2, 3, 4] }, 'To fit the window: steps 1, 2, 3, 4 left out.'],
    ['one step elided', { elided: [2] }, 'To fit the window: results of step 2 elided.'],
    [
      'all three',
      { elided: [5, 6], omitted: [1, 2, 3, 4], observationCut: true },
      'To fit the window: results of steps 5, 6 elided; steps 1, 2, 3, 4 left out; the latest result was cut.',
    ],
  ] as const)('%s', (_name, patch, text) => {
    expect(fitText({ ...BUDGET, ...patch })).toBe(text);
  });
});

describe('localTime', () => {
  it('writes an ISO time as a local date and time, not the raw ISO text', () => {
    const text = localTime('2026-12-02T05:04:09.123Z');
    expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
    expect(text).toContain('2026');
    expect(text).toBe(
      new Date(Date.UTC(2026, 11, 2, 5, 4, 9)).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
    );
  });

  it('leaves text that is not a time as it is', () => {
    expect(localTime('yesterday')).toBe('yesterday');
  });
});

describe('workspaceLabel', () => {
  const files = { kind: 'files', fileCount: 3, hash: 'h' } as const;
  it.each([
    [
      'a template',
      { workspace: { kind: 'template', id: 't', title: 'tiny-utils (starter)', hash: 'h' } as const },
      'tiny-utils (starter)',
    ],
    ['files a person gave', { workspace: files }, 'your files (3)'],
    [
      'a replayed session (a lesson): its task',
      {
        workspace: files,
        task: 'Fix truncate in src/strings.js.\nThen run the tests.',
        replay: { upTo: 4, continues: false },
      },
      'Fix truncate in src/strings.js.',
    ],
    [
      'a replayed session with a long task: its first 72 characters',
      { workspace: files, task: 'x'.repeat(100), replay: { upTo: 4, continues: false } },
      `${'x'.repeat(71)}…`,
    ],
    [
      'a replayed session with no task',
      { workspace: files, task: '  ', replay: { upTo: 4, continues: false } },
      "the session's files (3)",
    ],
  ] as const)('%s', (_name, info, label) => {
    expect(workspaceLabel({ task: 'a task', ...info })).toBe(label);
  });
});

describe('exchangeView: the model call over the wire', () => {
  const request = {
    model: 'qwen3',
    messages: { count: 3, chars: [] },
    temperature: 0,
    seed: 7,
    max_tokens: 512,
    stream: true,
  };
  it.each([
    { name: 'no exchange (a scripted or in-browser model)', exchange: undefined, lines: null },
    {
      name: 'tools, tool_calls back',
      exchange: {
        request: { ...request, tools: [{}, {}], tool_choice: 'auto' },
        response: {
          finish_reason: 'tool_calls',
          usage: { prompt_tokens: 120, completion_tokens: 30 },
          content_chars: 0,
          tool_calls: [
            { name: 'ws_read', arguments: '{}' },
            { name: 'done', arguments: '{}' },
          ],
        },
      },
      lines: [
        'model qwen3 · 3 messages · temperature 0 · seed 7 · max_tokens 512 · tools (2), tool_choice auto · streamed',
        'finish_reason tool_calls · usage 120 prompt + 30 completion tokens · tool_calls: ws_read, done',
      ],
    },
    {
      name: 'response_format, content back, no usage',
      exchange: {
        request: { ...request, stream: false, response_format: { type: 'json_schema' } },
        response: { finish_reason: 'stop', content_chars: 41 },
      },
      lines: [
        'model qwen3 · 3 messages · temperature 0 · seed 7 · max_tokens 512 · response_format json_schema · not streamed',
        'finish_reason stop · no usage reported · content (41 characters)',
      ],
    },
  ])('$name', ({ exchange, lines }) => {
    const view = exchangeView(step(exchange ? { exchange } : {}));
    expect(view && [view.requestLine, view.responseLine]).toEqual(lines);
    if (view) expect(JSON.parse(view.request)).toEqual(exchange!.request);
    if (view) expect(JSON.parse(view.response)).toEqual(exchange!.response);
  });
});
